import { useTranslation } from 'react-i18next';
import type { Lead, LeadPolicyObject, Premium } from '#client/api/leads-client.ts';
import type { ProductField } from '#client/api/products-client.ts';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDate } from '#client/ui/form/dates.ts';
import { useMoneyFormat } from '#client/ui/money.ts';
import type { Tariff } from '#client/entities/product/use-tariff.ts';

/**
 * Read-only views of a lead's parts, shared by the data tab (the lead as it is) and the versions
 * tab (the lead as it was). Field and formula names come from the tariff when the user may read
 * products, otherwise from what the lead carries itself.
 */

const dl = 'grid grid-cols-[minmax(10rem,max-content)_1fr] gap-x-6 gap-y-1 text-sm';
const dt = 'font-medium text-slate-800';
const dd = 'text-slate-800';

function useValueText() {
  const { t, i18n } = useTranslation('leads');
  return (value: unknown, field: ProductField | undefined): string => {
    if (value === undefined || value === null || value === '') return t('values.empty');
    if (typeof value === 'boolean') return value ? t('values.yes') : t('values.no');
    if (typeof value === 'number') return new Intl.NumberFormat(i18n.language).format(value);
    if (typeof value === 'string' && field?.type === 'date') return formatDate(value) || value;
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
}

/** The data of every insured object by field label, in the product's field order. */
export function PolicyDataView({
  objects,
  tariff,
  idPrefix,
}: {
  objects: readonly LeadPolicyObject[];
  tariff: Tariff | null;
  idPrefix: string;
}) {
  const text = useValueText();
  return (
    <div className="flex flex-col gap-4">
      {objects.map((object) => {
        const known = tariff?.objects.find((o) => o.id === object.insuredObjectId);
        const fields = [...(known?.productFields ?? [])].sort((a, b) => a.order - b.order);
        const names = [
          ...fields.map((f) => f.name),
          ...Object.keys(object.data).filter((name) => !fields.some((f) => f.name === name)),
        ];
        const headingId = `${idPrefix}-${object.insuredObjectId}`;
        return (
          <section key={object.insuredObjectId} aria-labelledby={headingId}>
            <h4 id={headingId} className="mb-1 font-semibold text-slate-900">
              {known?.label ?? object.insuredObjectLabel}
            </h4>
            <dl className={dl}>
              {names.map((name) => {
                const field = fields.find((f) => f.name === name);
                return (
                  <div key={name} className="contents">
                    <dt className={dt}>{field?.label ?? name}</dt>
                    <dd className={dd}>{text(object.data[name], field)}</dd>
                  </div>
                );
              })}
            </dl>
          </section>
        );
      })}
    </div>
  );
}

/** The premium items by formula name, the overridden ones marked, and their total. */
export function PremiumView({ premium, tariff }: { premium: Premium; tariff: Tariff | null }) {
  const { t } = useTranslation('leads');
  const money = useMoneyFormat();
  return (
    <DataTable
      caption={t('data.premium')}
      width="w-full max-w-xl"
      dense
      rows={premium.premiumItems}
      rowKey={(item) => item.premiumFormulaId}
      columns={[
        {
          id: 'item',
          header: t('data.premium_item'),
          cell: (item) => (
            <>
              {tariff?.formulas.find((f) => f.id === item.premiumFormulaId)?.name ??
                t('data.formula', { id: item.premiumFormulaId })}
              {item.isOverride ? ` (${t('data.override')})` : ''}
            </>
          ),
        },
        {
          id: 'amount',
          header: t('data.amount'),
          className: 'text-right',
          cell: (item) => money(item.total, premium.currency),
        },
      ]}
      footer={
        <tfoot>
          <tr>
            <th scope="row" className="py-1 pr-4 text-left font-semibold">
              {t('data.total')}
            </th>
            <td className="py-1 text-right font-semibold" data-testid="premium-total">
              {money(premium.grandTotal, premium.currency)}
            </td>
          </tr>
        </tfoot>
      }
    />
  );
}

/** How the premium is paid, and the free data, read-only. */
export function ExtrasView({ lead }: { lead: Pick<Lead, 'paymentMethod' | 'customData'> }) {
  const { t } = useTranslation('leads');
  const method = lead.paymentMethod;
  const custom = Object.entries(lead.customData ?? {});
  return (
    <dl className={dl}>
      <dt className={dt}>{t('form.payment_type')}</dt>
      <dd className={dd}>{t(`payment.${method?.type ?? 'none'}`)}</dd>
      {method?.type === 'sepa' ? (
        <>
          <dt className={dt}>{t('form.iban')}</dt>
          <dd className={dd}>{method.sepa.iban}</dd>
          <dt className={dt}>{t('form.holder_name')}</dt>
          <dd className={dd}>{method.sepa.holderName || t('values.empty')}</dd>
        </>
      ) : null}
      <dt className={dt}>{t('form.custom_data')}</dt>
      <dd className={dd}>
        {custom.length
          ? custom.map(([key, value]) => `${key}: ${String(value)}`).join(' · ')
          : t('values.empty')}
      </dd>
    </dl>
  );
}
