import { useTranslation } from 'react-i18next';
import { buttonClass } from '#client/ui/button.tsx';

/** The lists the BFF exports (`EXPORT_LISTS` of server/routes/csv-export.ts). */
export type ExportList =
  | 'customers'
  | 'partners'
  | 'policies'
  | 'leads'
  | 'claims'
  | 'invoices'
  // The administration lists (issue 16).
  | 'users'
  | 'roles'
  | 'organizations'
  | 'user-invites'
  | 'organization-invitations'
  // The tenant's activity log (issue 16).
  | 'activity_log';

/**
 * Downloads exactly what a list shows as CSV: the BFF pages through the same upstream query
 * (`/api/{account}/export/{list}.csv`, server/routes/csv-export.ts) and streams the file, so a
 * long list never sits in the browser's memory. The caller passes the query its list sends for
 * the first page; paging is the server's.
 */
export function ExportLink({
  accountIndex,
  list,
  query,
}: {
  accountIndex: number;
  list: ExportList;
  query: string;
}) {
  // A lazy namespace, shared with the saved views beside it: the bundled ui namespace stays small.
  const { t, i18n } = useTranslation('list_views');
  const params = new URLSearchParams(query);
  params.delete('pageSize');
  params.delete('pageToken');
  params.set('lang', i18n.resolvedLanguage ?? 'en');
  return (
    <a
      href={`/api/${accountIndex}/export/${list}.csv?${params}`}
      download
      className={buttonClass('secondary')}
    >
      {t('export')}
    </a>
  );
}
