import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  deleteUser,
  listUsers,
  userBatch,
  usersParams,
  type AdminUser,
  type RoleRef,
  type UserAction,
  type UserStatus,
} from '#client/api/tenant-admin-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { formatDate } from '#client/ui/form/dates.ts';
import { RowButton } from '#client/ui/row-button.tsx';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { ListActions } from '#client/entities/list-view/list-views.tsx';
import { serviceOrder, type TableSort } from '#client/ui/table-sort.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { useToast } from '#client/ui/toast.tsx';
import type { BatchOutcome } from './batch-summary.ts';
import { errorKey } from './user-errors.ts';
import { RolesDialog } from './roles-dialog.tsx';
import type { AdminAbilities } from './use-admin-context.ts';
import { UserTooltip } from './user-tooltip.tsx';
import { useBatchDialog } from './batch-dialog.tsx';
import { CreateUserDialog } from './create-user-dialog.tsx';
import { useRoleNames } from '#client/i18n/translated-text.ts';

// The spec names the legacy permission in the 403 warning of the users list.
const USERS_VIEW_PERMISSION_NAME = 'eis.users.view';
const STATUSES: UserStatus[] = ['active', 'disabled', 'invited'];
// The table sorts by column id; the service knows the fields.
const ORDER_FIELDS: Record<string, string> = { email: 'email', name: 'lastName' };
const SORT_COLUMNS = Object.keys(ORDER_FIELDS);

/** The service's query for the list's filters and sort (the CSV export sends the same). */
function usersQuery(
  filters: { search: string; status: string; role: string },
  sort: TableSort,
  page?: number,
) {
  return {
    ...(page ? { page } : {}),
    status: (filters.status || undefined) as UserStatus | undefined,
    roleId: filters.role ? Number(filters.role) : undefined,
    search: filters.search,
    order: serviceOrder(sort, ORDER_FIELDS),
  };
}

export function useBatchReport() {
  const { t } = useTranslation('admin_users');
  const toast = useToast();
  return useCallback(
    (outcome: BatchOutcome, describe: (key: string) => string) => {
      const summary = t('result.summary', { done: outcome.done, failed: outcome.failed });
      const reasons = outcome.failures.map((f) =>
        t('result.failure', { who: describe(f.key), reason: t(errorKey(f.error)) }),
      );
      toast({
        message: [summary, ...reasons].join(' · '),
        tone: outcome.failed === 0 ? 'success' : outcome.done === 0 ? 'danger' : 'warning',
      });
    },
    [t, toast],
  );
}

/**
 * The actions column as wide as its buttons in the current language, no wider: every row is a
 * grid of its own, so `max-content` cannot line the rows up, and a fixed width either clips the
 * German labels or, at 1366 px, pushes the column out of the table. `ch` of the text sizes used
 * (xs buttons, sm link), plus each button's padding and border and the cell's padding.
 */
function actionsWidth(buttons: readonly string[], link: string): string {
  const chars = buttons.reduce((sum, label) => sum + label.length, 0);
  return `calc(${chars * 0.38}rem + ${buttons.length * 1.4}rem + ${link.length * 0.45}rem + 2.5rem)`;
}

/**
 * A text column's share of the room left, but never narrower than its header in the current
 * language (semibold sm, the cell's padding, a sort mark): German's "Organisation" broke
 * mid-word at 1366 px (issue 16, defect 10).
 */
function textWidth(header: string, share: number, sortable = false): string {
  return `minmax(calc(${header.length * 0.56}rem + ${sortable ? 2.6 : 1.6}rem), ${share}fr)`;
}

export function UsersTab({
  abilities,
  roles,
}: {
  abilities: AdminAbilities;
  roles: RoleRef[] | null;
}) {
  const { t } = useTranslation('admin_users');
  const roleNames = useRoleNames();
  const id = useId();
  const { accountIndex, canUpdate, canDelete, canCreate } = abilities;
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  // The filters, search and sort live in the address: a reload, a link and a saved view repeat them.
  const filters = useUrlFilters(['search', 'status', 'role'], {
    typed: ['search'],
    sortColumns: SORT_COLUMNS,
  });
  const { search, status, role } = filters.values;
  const { sort: sortKept, keepSort } = filters;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [forbidden, setForbidden] = useState(false);
  const [rolesFor, setRolesFor] = useState<AdminUser | null>(null);

  // The toolbar filters live outside the table: a change remounts it (new query, no selection),
  // and so does an applied view.
  const queryKey = JSON.stringify({ search, status, role, generation: filters.generation });
  useEffect(() => setSelected(new Set()), [queryKey]);
  const [reloadKey, setReloadKey] = useState(0);

  const loadPage = useCallback<LoadTablePage<AdminUser>>(
    async (input, signal) => {
      keepSort(input.query.sort);
      try {
        const page = await listUsers(
          accountIndex,
          usersQuery(
            { search, status, role },
            input.query.sort,
            input.pageToken ? Number(input.pageToken) : 1,
          ),
          signal,
        );
        setForbidden(false);
        return { rows: page.items, nextPageToken: page.nextPageToken };
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) setForbidden(true);
        // Other failures: the table's retry button; the details go to the log only (spec).
        else if (!signal.aborted) console.error('users list failed', error);
        throw error;
      }
    },
    [accountIndex, status, role, search, keepSort],
  );

  // The rows seen so far by id: the selection reports keys, the bulk actions need the users.
  const rowsByKey = useRef(new Map<string, AdminUser>());
  const trackedLoad = useCallback<LoadTablePage<AdminUser>>(
    async (input, signal) => {
      const page = await loadPage(input, signal);
      for (const row of page.rows) rowsByKey.current.set(String(row.id), row);
      return page;
    },
    [loadPage],
  );
  const selectedUsers = () =>
    [...selected].flatMap((key) => {
      const user = rowsByKey.current.get(key);
      return user ? [user] : [];
    });

  // A remount (not the table's reloadKey) after an action: it also clears the table's own
  // checkboxes, so no row stays selected for a second bulk action by accident.
  const reload = () => {
    setSelected(new Set());
    setReloadKey((k) => k + 1);
  };

  const toast = useToast();
  const batch = useBatchDialog({
    runChunk: async ({ action, ids }) => {
      const kind = action as UserAction;
      if (kind === 'delete' && ids.length === 1) {
        // The single delete answers 204 or an error; shape it like a batch of one.
        try {
          await deleteUser(accountIndex, ids[0]!);
          return [{ id: ids[0]!, ok: true }];
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          return [{ id: ids[0]!, ok: false, error: error.code }];
        }
      }
      const { results } = await userBatch(accountIndex, kind, ids);
      return results;
    },
    onChanged: () => reload(),
    onAllDone: (outcome) =>
      toast({
        message: t('result.summary', { done: outcome.done, failed: outcome.failed }),
        tone: 'success',
      }),
    errorKey,
  });
  const runAction = (action: UserAction, users: readonly AdminUser[]) => batch.start(action, users);

  const columns: TableColumn<AdminUser>[] = [
    {
      id: 'email',
      header: t('columns.email'),
      sortable: true,
      width: textWidth(t('columns.email'), 1.5, true),
      cell: (user) => (
        <UserTooltip
          user={{
            email: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            organizationName: user.organization?.name ?? null,
          }}
        >
          {user.email}
        </UserTooltip>
      ),
    },
    {
      id: 'name',
      header: t('columns.name'),
      sortable: true,
      width: textWidth(t('columns.name'), 1.2, true),
      // The way into the user page (issue 16): everything about one user in one place.
      cell: (user) => (
        <Link
          to={`/u/${accountIndex}/admin/users/${user.id}`}
          aria-label={t('user_page.open_for', { email: user.email })}
          className="text-blue-800 underline"
        >
          {`${user.firstName} ${user.lastName}`.trim() || user.email}
        </Link>
      ),
    },
    {
      id: 'organization',
      header: t('columns.organization'),
      width: textWidth(t('columns.organization'), 1.3),
      cell: (user) => user.organization?.name ?? t('table.none'),
    },
    {
      id: 'roles',
      header: t('columns.roles'),
      width: textWidth(t('columns.roles'), 1.2),
      cell: (user) => roleNames(user.roles) || t('table.none'),
    },
    {
      id: 'status',
      header: t('columns.status'),
      width: '5.5rem',
      cell: (user) => t(`status.${user.status}`),
    },
    {
      id: 'created',
      header: t('columns.created'),
      width: '6.5rem',
      cell: (user) => formatDate(user.createdAt),
    },
  ];
  // One actions column: every reader may open a user's effective permissions; changing buttons
  // only for those who may change. Fewer fixed columns leave the text columns room to show.
  const actionLabels = [
    ...(canUpdate ? [t('actions.disable'), t('actions.roles')] : []),
    ...(canDelete ? [t('actions.delete')] : []),
  ];
  columns.push({
    id: 'actions',
    header: t('columns.actions'),
    width: actionsWidth(actionLabels, t('actions.permissions')),
    cell: (user) => (
      <div className="flex items-center gap-1">
        {canUpdate ? (
          <>
            <RowButton
              label={t(user.status === 'disabled' ? 'actions.enable' : 'actions.disable')}
              name={t(user.status === 'disabled' ? 'actions.enable_for' : 'actions.disable_for', {
                email: user.email,
              })}
              onClick={() => runAction(user.status === 'disabled' ? 'enable' : 'disable', [user])}
            />
            <RowButton
              label={t('actions.roles')}
              name={t('actions.roles_for', { email: user.email })}
              onClick={() => setRolesFor(user)}
            />
          </>
        ) : null}
        {canDelete ? (
          <RowButton
            label={t('actions.delete')}
            name={t('actions.delete_for', { email: user.email })}
            onClick={() => runAction('delete', [user])}
          />
        ) : null}
        <Link
          to={`/u/${accountIndex}/admin/users/${user.id}/permissions`}
          aria-label={t('actions.permissions_for', { email: user.email })}
          className="px-1 text-sm text-blue-800 underline"
        >
          {t('actions.permissions')}
        </Link>
      </div>
    ),
  });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-search`} className="text-sm font-medium text-slate-800">
            {t('toolbar.search')}
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={filters.drafts.search}
            onChange={(event) => filters.setDraft('search', event.target.value)}
            className="w-64 rounded-md border border-slate-400 px-3 py-2"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-status`} className="text-sm font-medium text-slate-800">
            {t('toolbar.status')}
          </label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(event) => filters.set('status', event.target.value)}
            className="rounded-md border border-slate-400 px-3 py-2"
          >
            <option value="">{t('toolbar.all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        {roles && roles.length > 0 ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-role`} className="text-sm font-medium text-slate-800">
              {t('toolbar.role')}
            </label>
            <select
              id={`${id}-role`}
              value={role}
              onChange={(event) => filters.set('role', event.target.value)}
              className="rounded-md border border-slate-400 px-3 py-2"
            >
              <option value="">{t('toolbar.all')}</option>
              {roles.map((role) => (
                <option key={role.id} value={String(role.id)}>
                  {role.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>

      {canUpdate || canDelete || canCreate ? (
        <div className="flex flex-wrap gap-2">
          {canCreate ? (
            <Button onClick={() => setCreating(true)}>{t('user_page.create.button')}</Button>
          ) : null}
          {canUpdate ? (
            <>
              <Button
                variant="secondary"
                disabled={selected.size === 0}
                onClick={() => runAction('enable', selectedUsers())}
              >
                {t('actions.enable_selected')}
              </Button>
              <Button
                variant="secondary"
                disabled={selected.size === 0}
                onClick={() => runAction('disable', selectedUsers())}
              >
                {t('actions.disable_selected')}
              </Button>
            </>
          ) : null}
          {canDelete ? (
            <Button
              variant="danger"
              disabled={selected.size === 0}
              onClick={() => runAction('delete', selectedUsers())}
            >
              {t('actions.delete_selected')}
            </Button>
          ) : null}
        </div>
      ) : null}

      {forbidden ? (
        <AlertBar tone="warning" dismissible={false}>
          {t('messages.noAccessBackend', { permissionName: USERS_VIEW_PERMISSION_NAME })}
        </AlertBar>
      ) : null}

      <ListActions
        accountIndex={accountIndex}
        list="users"
        query={filters.viewQuery}
        onApply={filters.apply}
        exportQuery={usersParams(usersQuery({ search, status, role }, sortKept))}
      />

      <InfiniteTable
        key={`${queryKey}:${reloadKey}`}
        initialQuery={{ filters: {}, sort: sortKept }}
        label={t('table.users')}
        columns={columns}
        minWidth="56rem"
        loadPage={trackedLoad}
        rowKey={(user) => String(user.id)}
        emptyMessage={t('table.empty_users')}
        rowLabel={(user) => t('table.select_user', { email: user.email })}
        {...(canUpdate || canDelete ? { onSelectionChange: setSelected } : {})}
      />
      {batch.dialog}

      {creating ? (
        <CreateUserDialog
          accountIndex={accountIndex}
          roles={roles}
          onClose={(created) => {
            setCreating(false);
            if (created) void navigate(`/u/${accountIndex}/admin/users/${created.id}`);
          }}
        />
      ) : null}

      {rolesFor ? (
        <RolesDialog
          accountIndex={accountIndex}
          user={rolesFor}
          roles={roles}
          onClose={(saved) => {
            setRolesFor(null);
            if (saved) reload();
          }}
        />
      ) : null}
    </div>
  );
}
