import { useTranslation } from 'react-i18next';
import type { PremiumFormula } from '#client/api/products-client.ts';
import { Button } from '#client/ui/button.tsx';
import { formulaIssueText } from '#client/entities/product/formula-issue.ts';
import { grandTotalUnit } from '#client/entities/policy/policy-display.ts';
import { formatMoney } from '#client/ui/money.ts';
import type { PremiumUnit } from '#common/products.ts';
import { fieldAt, type ApplicationObject } from './application-values.ts';
import { useFieldTexts } from './application-fields.tsx';
import type { PremiumQuote } from './use-premium-quote.ts';

const unitKey = (unit: PremiumUnit) =>
  `units.${unit.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}` as 'units.day';

/**
 * The live premium beside the form: the items by formula name and unit and the grand total once
 * quoted; otherwise what is missing, what is wrong, or that the calculation failed (with a
 * retry). The verdict sits in a polite live region, so a screen reader hears the new premium
 * once typing pauses, without losing its place in the form.
 */
export function PremiumPanel({
  quote,
  objects,
  formulas,
}: {
  quote: PremiumQuote;
  objects: readonly ApplicationObject[];
  formulas: readonly PremiumFormula[];
}) {
  const { t, i18n } = useTranslation('applications');
  const { t: tErrors } = useTranslation('errors');
  const texts = useFieldTexts();
  const language = i18n.language;
  const { snapshot, retry } = quote;
  const { premium, missing, issues, failure, failureIssues } = snapshot.context;
  // A formula that cannot be computed over these values names itself and why (issue 15).
  const formulaIssue = failureIssues.find((issue) => issue.formula !== undefined);
  const busy = snapshot.matches('waiting') || snapshot.matches('calculating');
  const labelsOf = (paths: readonly string[]) =>
    paths
      .map((path) => {
        const found = fieldAt(objects, path);
        return found ? texts.fieldLabel(found.object, found.field) : null;
      })
      .filter((label): label is string => label !== null);

  const money = (amount: number) => formatMoney(amount, premium?.currency ?? 'EUR', language);
  const unit = premium
    ? grandTotalUnit(premium.premiumItems, new Map(formulas.map((f) => [f.id, f.unit])))
    : null;

  let verdict: string;
  if (snapshot.matches('quoted') && premium) {
    verdict = t('premium.total_announcement', {
      total: money(premium.grandTotal),
      unit: unit ? t(unitKey(unit)) : '',
    }).trim();
  } else if (snapshot.matches('incomplete')) {
    verdict = t('premium.incomplete', { count: missing.length });
  } else if (snapshot.matches('invalid')) {
    verdict = t('premium.invalid', { count: issues.length });
  } else if (snapshot.matches('failed')) {
    verdict = formulaIssue
      ? tErrors('formula.not_computable', { message: formulaIssueText(tErrors, formulaIssue) })
      : failure === 'calculation_failed'
        ? t('premium.calculation_failed')
        : t('premium.failed');
  } else if (busy) {
    verdict = t('premium.calculating');
  } else {
    verdict = t('premium.idle');
  }

  const listed = snapshot.matches('incomplete')
    ? labelsOf(missing)
    : snapshot.matches('invalid')
      ? labelsOf(issues.map((issue) => issue.path))
      : [];

  return (
    <section
      aria-labelledby="premium-heading"
      aria-busy={busy}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
    >
      <h2 id="premium-heading" className="text-lg font-semibold text-slate-900">
        {t('premium.title')}
      </h2>
      <p
        aria-live="polite"
        aria-atomic="true"
        className="text-sm text-slate-800"
        data-testid="premium-status"
      >
        {verdict}
      </p>
      {listed.length ? (
        <ul className="list-disc pl-5 text-sm text-slate-800">
          {listed.map((label, index) => (
            <li key={`${label}-${index}`}>{label}</li>
          ))}
        </ul>
      ) : null}
      {premium ? (
        <table className={`w-full text-sm ${busy ? 'opacity-60' : ''}`}>
          <caption className="sr-only">{t('premium.items_caption')}</caption>
          <thead>
            <tr className="text-left text-slate-700">
              <th scope="col" className="py-1 font-medium">
                {t('premium.item')}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t('premium.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {premium.premiumItems.map((item) => {
              const formula = formulas.find((f) => f.id === item.premiumFormulaId);
              return (
                <tr key={item.premiumFormulaId} className="border-t border-slate-200">
                  <th scope="row" className="py-1 text-left font-normal text-slate-800">
                    {formula?.name ?? t('premium.unknown_formula')}
                  </th>
                  <td className="py-1 text-right text-slate-900">
                    {money(item.total)}{' '}
                    {formula ? (
                      <span className="text-slate-600">{t(unitKey(formula.unit))}</span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr className="border-t-2 border-slate-300">
              <th scope="row" className="py-2 text-left font-semibold text-slate-900">
                {t('premium.grand_total')}
              </th>
              <td
                className="py-2 text-right font-semibold text-slate-900"
                data-testid="premium-total"
              >
                {money(premium.grandTotal)}
                {unit ? (
                  <span className="font-normal text-slate-600"> {t(unitKey(unit))}</span>
                ) : null}
              </td>
            </tr>
          </tfoot>
        </table>
      ) : null}
      {snapshot.matches('failed') ? (
        <Button variant="secondary" className="self-start" onClick={retry}>
          {t('premium.retry')}
        </Button>
      ) : null}
    </section>
  );
}
