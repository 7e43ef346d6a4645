import { useCallback, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTranslatedText } from '#client/i18n/translated-text.ts';
import { Link } from 'react-router';
import { listRoles, rolesParams, type Role } from '#client/api/roles-client.ts';
import { ListActions } from '#client/entities/list-view/list-views.tsx';
import { ROLES_PAGE_SIZE } from '#client/api/tenant-admin-client.ts';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { filterableModules, roleIsListed, visibleModules } from '#common/permission-catalogue.ts';
import { useCatalogueLabel } from './labels.ts';
import { summarizePermissions } from './role-matrix.ts';
import { useRoleAbilities } from './use-role-abilities.ts';

// The service sorts roles by these; the table sorts by column id.
const ORDER_FIELDS: Record<string, string> = { label: 'label', code: 'code' };
const SORT_COLUMNS = Object.keys(ORDER_FIELDS);
// Pages fetched for one table page at most while filtering leaves none: a safety stop.
const MAX_SKIPPED_PAGES = 20;

const codesOf = (role: Role) => role.permissions.map((p) => p.code);

/**
 * The tenant's roles (issue 3, roles list): limited to the modules the signed-in user may see
 * (`visibleModules`), roles without permissions hidden (they grant nothing), a module filter
 * that asks the service (`module`), and a link to each role's editor.
 */
export default function RolesPage() {
  const { t } = useTranslation('admin_roles');
  usePageTitle(t('title'));
  const id = useId();
  const label = useCatalogueLabel();
  const translated = useTranslatedText();
  const { accountIndex, held, canCreate } = useRoleAbilities();
  const visible = useMemo(() => visibleModules(held), [held]);
  const modules = useMemo(() => filterableModules(visible), [visible]);
  // The module filter and the sort live in the address: a reload, a link and a saved view repeat them.
  const filters = useUrlFilters(['module'], { sortColumns: SORT_COLUMNS });
  const { module } = filters.values;
  const { sort: sortKept, keepSort } = filters;

  const loadPage = useCallback<LoadTablePage<Role>>(
    async (input, signal) => {
      const sort = input.query.sort;
      keepSort(sort);
      let page = input.pageToken ? Number(input.pageToken) : 1;
      // A page whose roles are all hidden would leave the table with nothing to scroll to the
      // next page with, so read on until a page shows something or the list ends.
      for (let skipped = 0; ; skipped++) {
        const result = await listRoles(
          accountIndex,
          {
            page,
            module: module || undefined,
            order: serviceOrder(sort, ORDER_FIELDS),
          },
          signal,
        );
        const rows = result.items.filter((role) => roleIsListed(codesOf(role), visible));
        if (rows.length > 0 || !result.nextPageToken || skipped >= MAX_SKIPPED_PAGES) {
          return { rows, nextPageToken: result.nextPageToken };
        }
        page = Number(result.nextPageToken);
      }
    },
    [accountIndex, module, visible, keepSort],
  );

  const columns: TableColumn<Role>[] = [
    {
      id: 'label',
      header: t('list.columns.label'),
      sortable: true,
      width: '1.5fr',
      cell: (role) => (
        <Link
          to={`/u/${accountIndex}/admin/roles/${role.id}`}
          className="font-medium text-blue-800 underline"
        >
          {translated(role.label, role.labels)}
        </Link>
      ),
    },
    {
      id: 'code',
      header: t('list.columns.code'),
      sortable: true,
      width: '1fr',
      cell: (role) => <span className="font-mono text-sm">{role.code}</span>,
    },
    {
      id: 'description',
      header: t('list.columns.description'),
      width: '2fr',
      cell: (role) => (
        <span
          className="block truncate"
          title={translated(role.description, role.descriptionLabels)}
        >
          {translated(role.description, role.descriptionLabels) || t('list.none')}
        </span>
      ),
    },
    {
      id: 'permissions',
      header: t('list.columns.permissions'),
      width: '2.5fr',
      cell: (role) => {
        const summary = summarizePermissions(codesOf(role));
        const text = summary.all
          ? t('summary.all')
          : t('summary.some', {
              count: summary.total,
              modules: summary.modules
                .map((m) =>
                  t('summary.module', { module: label('modules', m.module), count: m.count }),
                )
                .join(', '),
            });
        return (
          <span className="block truncate text-sm" title={text}>
            {text}
          </span>
        );
      },
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-module`} className="text-sm font-medium text-slate-800">
            {t('list.module')}
          </label>
          <select
            id={`${id}-module`}
            value={module}
            onChange={(event) => filters.set('module', event.target.value)}
            className="rounded-md border border-slate-400 px-3 py-2"
          >
            <option value="">{t('list.all_modules')}</option>
            {modules.map((m) => (
              <option key={m} value={m}>
                {label('modules', m)}
              </option>
            ))}
          </select>
        </div>
        {canCreate ? (
          <Link
            to={`/u/${accountIndex}/admin/roles/new`}
            className="bg-brand inline-flex items-center rounded-md px-4 py-2 text-sm font-semibold text-slate-950 hover:brightness-95"
          >
            {t('list.new_role')}
          </Link>
        ) : null}
      </div>
      {visible === 'all' ? null : (
        <p className="text-sm text-slate-700">
          {t('list.limited', { modules: modules.map((m) => label('modules', m)).join(', ') })}
        </p>
      )}
      <ListActions
        accountIndex={accountIndex}
        list="roles"
        query={filters.viewQuery}
        onApply={filters.apply}
        exportQuery={rolesParams({
          module: module || undefined,
          order: serviceOrder(sortKept, ORDER_FIELDS),
        })}
      />
      <InfiniteTable
        // A new module filter or an applied view is a new query: the table starts over, keeping
        // the sort.
        key={`${module}:${filters.generation}`}
        initialQuery={{ filters: {}, sort: sortKept }}
        label={t('list.table')}
        columns={columns}
        loadPage={loadPage}
        pageSize={ROLES_PAGE_SIZE}
        rowKey={(role) => String(role.id)}
        emptyMessage={t('list.empty')}
      />
    </div>
  );
}
