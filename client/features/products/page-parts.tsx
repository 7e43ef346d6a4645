import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ProductVersionStatus } from '#common/products.ts';
import { apiErrorKey } from '#client/api/error-text.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { formulaRefusalText } from '#client/entities/product/formula-issue.ts';

const STATUS_STYLE: Record<ProductVersionStatus, string> = {
  draft: 'bg-amber-100 text-amber-900',
  active: 'bg-green-100 text-green-900',
  passive: 'bg-slate-200 text-slate-800',
  archived: 'bg-slate-100 text-slate-700',
};

export function StatusBadge({ status }: { status: ProductVersionStatus }) {
  const { t } = useTranslation('products');
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[status]}`}>
      {t(`status.${status}`)}
    </span>
  );
}

/**
 * Refusals with a text of their own in `products:errors.codes` (docs/contracts.md, product
 * extras), by the answer's `error`.
 */
const CODED = new Set([
  'version_conflict',
  'version_not_draft',
  'in_use',
  'name_taken',
  'slug_taken',
  'default_object',
  'no_translations',
  'language_exists',
  'too_many',
  'invalid_file',
  'payload_too_large',
  'invalid_expression',
  'no_premium_formulas',
  'reorder_breaks_formula',
]);

/**
 * The message for a refused request, in the user's language: a product refusal by its code, a
 * missing record or a refusal of access in the editor's words, any other code as the API's
 * errors say it (`errors:api.*`). The service's English `message` is never shown.
 */
export function useFailureMessage(): (error: unknown) => string {
  const { t } = useTranslation(['products', 'errors']);
  const { t: tErrors } = useTranslation('errors');
  return (error) => {
    if (!(error instanceof ApiError)) return t('errors.generic');
    // A formula refused at save or a version at activation: what, where, in which formula.
    const formula = formulaRefusalText(tErrors, error);
    if (formula) return formula;
    if (CODED.has(error.code)) {
      const formula = (error.body as { formula?: unknown } | null)?.formula;
      return t(`errors.codes.${error.code}` as 'errors.codes.in_use', {
        formula: typeof formula === 'string' ? formula : '',
      });
    }
    if (error.status === 403) return t('errors.forbidden');
    if (error.status === 404) return t('errors.not_found');
    // A field the answer names (`issues[].path`) with its rule is said by the API's texts too:
    // the product forms check every field as the service does before they send.
    return t('errors.refused', { message: t(apiErrorKey(error)) });
  };
}

export function LinkButton({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
    >
      {children}
    </Link>
  );
}

/**
 * What a product page says when its product did not load (client/ui/load-problem.tsx shows it):
 * a missing product, or a failure to try again.
 */
export function productLoadTexts(t: TFunction<'products'>) {
  return { notFound: t('errors.product_not_found'), failed: t('errors.load_failed') };
}

export function Loading() {
  const { t } = useTranslation('products');
  return <Spinner label={t('loading')} />;
}

/** The header row of a product table: one column heading per label. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="border-b border-slate-300 text-slate-700">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="py-2 pr-4 align-top">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The confirm texts of deleting one thing of a kind (`{kind}.delete_title`, ...). */
export function useDeleteTexts() {
  const { t } = useTranslation('products');
  // The keys are built from the kind, so they are looked up as plain strings.
  const text = t as unknown as (key: string, values?: Record<string, string>) => string;
  return (kind: 'factors' | 'ranges' | 'objects' | 'funnels', values: Record<string, string>) => ({
    title: text(`${kind}.delete_title`),
    message: text(`${kind}.delete_message`, values),
    done: text(`${kind}.deleted`, values),
  });
}
