import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ProductVersionStatus } from '#common/products.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { Spinner } from '#client/ui/spinner.tsx';

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
 * The message for a refused request: what the service says about bad input or a conflict (its
 * validation text names the field or the formula position), a translated text for the rest.
 */
/** Refusals with a text of their own (docs/contracts.md, product extras); others show the service's. */
const CODED = new Set([
  'version_conflict',
  'version_not_draft',
  'in_use',
  'name_taken',
  'default_object',
  'no_translations',
  'language_exists',
  'too_many',
  'invalid_file',
  'payload_too_large',
]);

export function useFailureMessage(): (error: unknown) => string {
  const { t } = useTranslation('products');
  return (error) => {
    if (error instanceof ApiError && CODED.has(error.code)) {
      const formula = (error.body as { formula?: unknown } | null)?.formula;
      return t(`errors.codes.${error.code}` as 'errors.codes.in_use', {
        formula: typeof formula === 'string' ? formula : '',
      });
    }
    if (
      error instanceof ApiError &&
      (error.status === 400 || error.status === 409) &&
      error.message
    ) {
      return t('errors.refused', { message: error.message });
    }
    if (error instanceof ApiError && error.status === 403) return t('errors.forbidden');
    if (error instanceof ApiError && error.status === 404) return t('errors.not_found');
    return t('errors.generic');
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
