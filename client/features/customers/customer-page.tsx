import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { displayNameOf, type Account } from '#client/api/accounts-client.ts';
import { customerQueries } from '#client/api/accounts-queries.ts';
import { useFieldLabels } from '#client/entities/history/history-tab.tsx';
import { DetailPage } from '#client/entities/record/detail-page.tsx';
import { BillingInvoices } from '#client/entities/invoice/billing-section.tsx';
import { noPolicyFilters, PoliciesTable } from '#client/entities/policy/policies-table.tsx';
import { CustomerDataForm } from './customer-data-form.tsx';
import { CustomerDocumentsTab } from './customer-documents-tab.tsx';
import { CustomerLeadsTab } from './customer-leads-tab.tsx';
import { CustomerPaymentTab } from './customer-payment-tab.tsx';
import { usePaymentAbilities } from '#client/entities/payment/payment-method-text.ts';
import { NewPolicyAction } from './new-policy-action.tsx';
import { useCustomerAbilities } from './use-customer-abilities.ts';

/** One customer by code: the data (editable with the update permission) and the tabs of the spec. */
export default function CustomerPage() {
  const { t } = useTranslation(['customers', 'common', 'finance', 'payment_methods']);
  const payments = usePaymentAbilities();
  const { customerCode = '' } = useParams();
  const abilities = useCustomerAbilities();
  const { accountIndex } = abilities;
  const queryClient = useQueryClient();
  const historyFields = useFieldLabels(['customers:fields.']);
  const customer = customerQueries.detail(accountIndex, customerCode);
  const query = useQuery(customer);
  // The saved record is the server's answer: show it without asking again.
  const replace = (saved: Account) => queryClient.setQueryData(customer.queryKey, saved);

  return (
    <DetailPage
      query={query}
      back={{ to: `/u/${accountIndex}/customers`, label: t('detail.back') }}
      texts={{
        loading: t('common:status.loading'),
        title: t('detail.title'),
        notFound: t('detail.not_found'),
        failed: t('forms.messages.error'),
      }}
      pageTitle={displayNameOf}
    >
      {(customer) => ({
        title: displayNameOf(customer),
        subtitle: t('detail.subtitle', {
          number: customer.accountNumber,
          type: t(`types.${customer.type}`),
        }),
        actions: <NewPolicyAction customerCode={customer.code} />,
        tabs: {
          label: t('tabs.label'),
          items: [
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
            ...(payments.canViewMethods
              ? [
                  {
                    id: 'payment-methods',
                    label: t('payment_methods:tab'),
                    content: (
                      <CustomerPaymentTab
                        accountCode={customer.code}
                        name={displayNameOf(customer)}
                      />
                    ),
                  },
                ]
              : []),
          ],
          history: {
            accountIndex,
            record: `accountservice/v1/accounts/${customer.code}`,
            labelOf: historyFields,
          },
          // After the history, where it stood while billing was still to come (#tab=invoices).
          later: [
            {
              id: 'invoices',
              label: t('tabs.invoices'),
              content: (
                <BillingInvoices
                  filter={{ accountCode: customer.code }}
                  label={t('finance:billing.customer_invoices', { name: displayNameOf(customer) })}
                />
              ),
            },
          ],
        },
      })}
    </DetailPage>
  );
}
