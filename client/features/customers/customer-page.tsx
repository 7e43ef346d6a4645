import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { displayNameOf, type Account } from '#client/api/accounts-client.ts';
import { customerQueries } from '#client/api/accounts-queries.ts';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import {
  HistoryTab,
  useFieldLabels,
  useHistoryLabel,
} from '#client/entities/history/history-tab.tsx';
import { noPolicyFilters, PoliciesTable } from '#client/entities/policy/policies-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink, RecordPage } from '#client/ui/record-page.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { CustomerDataForm } from './customer-data-form.tsx';
import { CustomerDocumentsTab } from './customer-documents-tab.tsx';
import { CustomerLeadsTab } from './customer-leads-tab.tsx';
import { NewPolicyAction } from './new-policy-action.tsx';
import { useCustomerAbilities } from './use-customer-abilities.ts';

// Invoices arrive with the billing service; the tab exists already so that links to it
// (#tab=invoices) keep working.
const LATER_TABS = ['invoices'] as const;

/** One customer by code: the data (editable with the update permission) and the tabs of the spec. */
export default function CustomerPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { customerCode = '' } = useParams();
  const abilities = useCustomerAbilities();
  const { accountIndex } = abilities;
  const queryClient = useQueryClient();
  const historyLabel = useHistoryLabel();
  const historyFields = useFieldLabels(['customers:fields.']);
  const customer = customerQueries.detail(accountIndex, customerCode);
  const query = useQuery(customer);
  const loaded = loadStateOf(query);
  const retry = () => void query.refetch();
  // The saved record is the server's answer: show it without asking again.
  const replace = (saved: Account) => queryClient.setQueryData(customer.queryKey, saved);
  usePageTitle(loaded.kind === 'ready' ? displayNameOf(loaded.value) : t('detail.title'));

  return (
    <RecordPage
      state={loaded}
      back={<BackLink to={`/u/${accountIndex}/customers`}>{t('detail.back')}</BackLink>}
      texts={{
        loading: t('common:status.loading'),
        title: t('detail.title'),
        notFound: t('detail.not_found'),
        failed: t('forms.messages.error'),
      }}
      onRetry={retry}
    >
      {(customer) => (
        <>
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-bold text-slate-900">{displayNameOf(customer)}</h1>
            <p className="text-sm text-slate-700">
              {t('detail.subtitle', {
                number: customer.accountNumber,
                type: t(`types.${customer.type}`),
              })}
            </p>
          </div>
          <NewPolicyAction customerCode={customer.code} />
          <HashTabs
            id="tab"
            label={t('tabs.label')}
            tabs={[
              {
                id: 'data',
                label: t('tabs.data'),
                content: (
                  <CustomerDataForm
                    key={customer.code}
                    account={customer}
                    abilities={abilities}
                    onSaved={replace}
                  />
                ),
              },
              {
                id: 'policies',
                label: t('tabs.policies'),
                content: abilities.canViewPolicies ? (
                  <PoliciesTable
                    filters={{ ...noPolicyFilters, accountCode: customer.code }}
                    label={t('policies.table', { name: displayNameOf(customer) })}
                    emptyMessage={t('empty.policies')}
                    showHolder={false}
                    height={400}
                  />
                ) : (
                  <p className="py-6 text-sm text-slate-700">{t('policies.not_allowed')}</p>
                ),
              },
              {
                id: 'leads',
                label: t('tabs.leads'),
                content: abilities.canViewLeads ? (
                  <CustomerLeadsTab accountIndex={accountIndex} accountCode={customer.code} />
                ) : (
                  <p className="py-6 text-sm text-slate-700">{t('leads.not_allowed')}</p>
                ),
              },
              {
                id: 'documents',
                label: t('tabs.documents'),
                content: abilities.canViewDocuments ? (
                  <CustomerDocumentsTab
                    accountIndex={accountIndex}
                    accountCode={customer.code}
                    name={displayNameOf(customer)}
                  />
                ) : (
                  <p className="py-6 text-sm text-slate-700">{t('documents.not_allowed')}</p>
                ),
              },
              {
                id: 'history',
                label: historyLabel,
                content: (
                  <HistoryTab
                    accountIndex={accountIndex}
                    record={`accountservice/v1/accounts/${customer.code}`}
                    labelOf={historyFields}
                  />
                ),
              },
              ...LATER_TABS.map((tab) => ({
                id: tab,
                label: t(`tabs.${tab}`),
                content: (
                  <p className="py-6 text-sm text-slate-700" data-testid={`empty-${tab}`}>
                    {t(`empty.${tab}`)}
                  </p>
                ),
              })),
            ]}
          />
        </>
      )}
    </RecordPage>
  );
}
