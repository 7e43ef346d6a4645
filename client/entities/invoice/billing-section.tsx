import { useTranslation } from 'react-i18next';
import { InvoicesTable } from './invoice-parts.tsx';
import { useBillingAbilities } from './use-billing-abilities.ts';

/**
 * The invoices of a policy (a section of its page) or of a customer (their invoices tab), with
 * links to each invoice, where payments are booked. A user without the invoices permission sees
 * why there is nothing instead of an error.
 */
export function BillingInvoices({
  filter,
  label,
  height,
}: {
  filter: { policyCode: string } | { accountCode: string };
  label: string;
  height?: number;
}) {
  const { t } = useTranslation('finance');
  const { accountIndex, canViewInvoices, canViewPolicies } = useBillingAbilities();
  if (!canViewInvoices) {
    return <p className="py-6 text-sm text-slate-700">{t('billing.not_allowed')}</p>;
  }
  return (
    <InvoicesTable
      accountIndex={accountIndex}
      filter={filter}
      label={label}
      canViewPolicies={canViewPolicies}
      {...(height === undefined ? {} : { height })}
    />
  );
}

/** The policy page's billing section: its invoices, newest due first. */
export function PolicyBillingSection({ policyCode }: { policyCode: string }) {
  const { t } = useTranslation('finance');
  return (
    <section aria-labelledby="billing-heading" className="flex flex-col gap-3">
      <h2 id="billing-heading" className="text-lg font-semibold text-slate-900">
        {t('billing.title')}
      </h2>
      <BillingInvoices filter={{ policyCode }} label={t('billing.invoices')} height={330} />
    </section>
  );
}
