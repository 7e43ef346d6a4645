import { useTranslation } from 'react-i18next';
import type { PolicyObject, PolicyVersion, Timeslice } from '#client/api/policies-client.ts';
import { unitKey } from '#client/entities/policy/policies-table.tsx';
import { formatUtcDate, grandTotalUnit } from '#client/entities/policy/policy-display.ts';
import { formatMoney } from '#client/ui/money.ts';
import type { TariffLabels } from './tariff-labels.ts';

const cell = 'py-2 pr-4 align-top';

/**
 * The timeline of one policy version: each timeslice with its period, its premium items (formula
 * name and unit when the product may be read) and grand total, and its policy objects' data by
 * field label, in the order the service sends them.
 */
export function VersionTimeline({
  version,
  labels,
}: {
  version: PolicyVersion;
  labels: TariffLabels;
}) {
  const { t } = useTranslation('policies');
  if (version.timeline.length === 0) {
    return <p className="text-slate-700">{t('detail.no_timeline')}</p>;
  }
  return (
    <ol className="flex flex-col gap-6">
      {version.timeline.map((slice, index) => (
        <li key={slice.id}>
          <TimesliceCard slice={slice} index={index} labels={labels} />
        </li>
      ))}
    </ol>
  );
}

function TimesliceCard({
  slice,
  index,
  labels,
}: {
  slice: Timeslice;
  index: number;
  labels: TariffLabels;
}) {
  const { t, i18n } = useTranslation('policies');
  const headingId = `timeslice-${slice.id}`;
  const period = slice.to
    ? t('detail.period', { from: formatUtcDate(slice.from), to: formatUtcDate(slice.to) })
    : t('detail.period_open', { from: formatUtcDate(slice.from) });
  const money = (amount: number) => formatMoney(amount, slice.premium.currency, i18n.language);
  const totalUnit = grandTotalUnit(slice.premium.premiumItems, labels.unitOf);
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-md border border-slate-300 bg-white p-4"
    >
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {t('detail.timeslice', { index: index + 1, period })}
      </h3>
      <table className="w-full text-left text-sm">
        <caption className="mb-1 text-left font-medium text-slate-800">
          {t('detail.premium_items', { period })}
        </caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className={cell}>
              {t('columns.formula')}
            </th>
            <th scope="col" className={cell}>
              {t('columns.unit')}
            </th>
            <th scope="col" className={`${cell} text-right`}>
              {t('columns.amount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {slice.premium.premiumItems.map((item) => {
            const formula = labels.formulas.get(item.premiumFormulaId);
            return (
              <tr key={item.premiumFormulaId} className="border-b border-slate-200">
                <th scope="row" className={`${cell} font-normal`}>
                  {formula?.name ?? t('detail.formula_fallback', { id: item.premiumFormulaId })}
                  {item.isOverride ? (
                    <span className="ml-2 text-xs text-slate-600">{t('detail.override')}</span>
                  ) : null}
                </th>
                <td className={cell}>{formula ? t(`units.${unitKey(formula.unit)}`) : ''}</td>
                <td className={`${cell} text-right tabular-nums`}>{money(item.total)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="font-semibold">
            <th scope="row" className={cell}>
              {t('detail.grand_total')}
            </th>
            <td className={cell}>{totalUnit ? t(`units.${unitKey(totalUnit)}`) : ''}</td>
            <td className={`${cell} text-right tabular-nums`}>{money(slice.premium.grandTotal)}</td>
          </tr>
        </tfoot>
      </table>
      <div className="flex flex-col gap-3">
        <h4 className="text-sm font-semibold text-slate-900">{t('detail.policy_objects')}</h4>
        {slice.policyObjects.length === 0 ? (
          <p className="text-sm text-slate-700">{t('detail.no_objects')}</p>
        ) : (
          slice.policyObjects.map((object) => (
            <PolicyObjectData key={object.id} object={object} labels={labels} />
          ))
        )}
      </div>
    </section>
  );
}

function PolicyObjectData({ object, labels }: { object: PolicyObject; labels: TariffLabels }) {
  const { t } = useTranslation('policies');
  const rows = labels.fieldsOf(object);
  return (
    <div className="rounded border border-slate-200 p-3">
      <p className="mb-2 text-sm font-medium text-slate-800">{labels.titleOf(object)}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-700">{t('detail.no_data')}</p>
      ) : (
        <dl className="grid grid-cols-[minmax(10rem,max-content)_1fr] gap-x-6 gap-y-1 text-sm">
          {rows.map((row) => (
            <div key={row.name} className="contents">
              <dt className="text-slate-700">{row.label}</dt>
              <dd className="text-slate-900">{row.text}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
