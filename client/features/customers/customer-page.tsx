import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { displayNameOf, getAccount } from '#client/api/accounts-client.ts';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { noPolicyFilters, PoliciesTable } from '#client/ui/policies-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
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
  const load = useCallback(
    (signal: AbortSignal) => getAccount(accountIndex, customerCode, signal).then((r) => r.account),
    [accountIndex, customerCode],
  );
  const { state: loaded, retry, replace } = useLoad(load, 'customer');
  usePageTitle(loaded.kind === 'ready' ? displayNameOf(loaded.value) : t('detail.title'));

  return (
    <div className="flex flex-col gap-6">
      <Link
        to={`/u/${accountIndex}/customers`}
        className="self-start text-sm text-blue-800 underline-offset-2 hover:underline"
      >
        {t('detail.back')}
      </Link>
      {loaded.kind === 'loading' ? <Spinner label={t('common:status.loading')} /> : null}
      {loaded.kind === 'failed' ? (
        <LoadProblem
          error={loaded.error}
          title={t('detail.title')}
          notFound={t('detail.not_found')}
          failed={t('forms.messages.error')}
          onRetry={retry}
        />
      ) : null}
      {loaded.kind === 'ready' ? (
        <>
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-bold text-slate-900">{displayNameOf(loaded.value)}</h1>
            <p className="text-sm text-slate-700">
              {t('detail.subtitle', {
                number: loaded.value.accountNumber,
                type: t(`types.${loaded.value.type}`),
              })}
            </p>
          </div>
          <NewPolicyAction customerCode={loaded.value.code} />
          <HashTabs
            id="tab"
            label={t('tabs.label')}
            tabs={[
              {
                id: 'data',
                label: t('tabs.data'),
                content: (
                  <CustomerDataForm
                    key={loaded.value.code}
                    account={loaded.value}
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
                    filters={{ ...noPolicyFilters, accountCode: loaded.value.code }}
                    label={t('policies.table', { name: displayNameOf(loaded.value) })}
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
                  <CustomerLeadsTab accountIndex={accountIndex} accountCode={loaded.value.code} />
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
                    accountCode={loaded.value.code}
                    name={displayNameOf(loaded.value)}
                  />
                ) : (
                  <p className="py-6 text-sm text-slate-700">{t('documents.not_allowed')}</p>
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
      ) : null}
    </div>
  );
}
