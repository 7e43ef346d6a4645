import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  deleteOrganizationInvitation,
  listOrganizationInvitations,
  organizationInvitationsParams,
  type OrganizationInvitation,
} from '#client/api/organizations-client.ts';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { RowButton } from '#client/ui/row-button.tsx';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { InvitationDialog } from './invitation-dialog.tsx';
import { isExpired } from '#common/registration-fields.ts';
import { errorKey } from './organization-form.ts';
import { ReinviteDialog } from './reinvite-dialog.tsx';
import { ListActions } from '#client/entities/list-view/list-views.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { keepInAddress, orderOf, pageQuery } from './table-order.ts';
import type { OrganizationAbilities } from './use-organization-context.ts';
import { useRoleNames } from '#client/i18n/translated-text.ts';

const ORDER_FIELDS: Record<string, string> = { name: 'name', expires: 'expiresAt' };
const SORT_COLUMNS = Object.keys(ORDER_FIELDS);

/**
 * Open invitations for organisations to register: roles and expiry (expired ones marked), a new
 * invitation, re-invite (a new link by e-mail) and delete behind the confirm dialog.
 */
export function InvitationsTab({ abilities }: { abilities: OrganizationAbilities }) {
  const { t } = useTranslation('admin_organizations');
  const roleNames = useRoleNames();
  const confirm = useConfirm();
  const toast = useToast();
  const { accountIndex, canCreate, canDelete } = abilities;
  const [reloadKey, setReloadKey] = useState(0);
  const [creating, setCreating] = useState(false);
  const [reinviting, setReinviting] = useState<OrganizationInvitation | null>(null);
  const reload = () => setReloadKey((k) => k + 1);
  // The name column's filter (the service's search) and the sort live in the address under their
  // own names: the organisations tab beside it keeps `search` and `sort`.
  const filters = useUrlFilters(['invitationSearch'], {
    sortColumns: SORT_COLUMNS,
    sortParam: 'invitationSort',
  });
  const search = filters.values.invitationSearch;
  const { set, keepSort, sort } = filters;

  const loadPage = useCallback<LoadTablePage<OrganizationInvitation>>(
    async (input, signal) => {
      keepInAddress(input, 'name', {
        search,
        set: (v) => set('invitationSearch', v),
        keepSort,
      });
      const page = await listOrganizationInvitations(
        accountIndex,
        pageQuery(input, ORDER_FIELDS, 'name'),
        signal,
      );
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, search, set, keepSort],
  );

  const remove = async (invitation: OrganizationInvitation) => {
    const deleted = await confirm({
      title: t('confirm.delete_title'),
      message: t('confirm.delete_message', { name: invitation.name, email: invitation.email }),
      confirmLabel: t('actions.delete'),
      tone: 'danger',
      action: async () => {
        try {
          await deleteOrganizationInvitation(accountIndex, invitation.id);
        } catch (error) {
          // The dialog stays open and shows this text (spec: confirm action error).
          throw new Error(t(errorKey(error instanceof ApiError ? error.code : undefined)), {
            cause: error,
          });
        }
      },
    });
    if (!deleted) return;
    toast({ message: t('messages.deleted', { name: invitation.name }), tone: 'success' });
    reload();
  };

  const columns: TableColumn<OrganizationInvitation>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sortable: true,
      filterable: true,
      width: '2fr',
      cell: (inv) => inv.name,
    },
    { id: 'email', header: t('columns.contact'), width: '2fr', cell: (inv) => inv.email },
    {
      id: 'roles',
      header: t('columns.roles'),
      width: '1.5fr',
      cell: (inv) => roleNames(inv.roles) || t('table.none'),
    },
    {
      id: 'expires',
      header: t('columns.expires'),
      sortable: true,
      width: '14rem',
      cell: (inv) => (
        <span className="flex items-center gap-2">
          {formatDateTime(inv.expiresAt)}
          {isExpired(inv.expiresAt) ? (
            <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
              {t('status.expired')}
            </span>
          ) : null}
        </span>
      ),
    },
  ];
  if (canCreate || canDelete) {
    columns.push({
      id: 'actions',
      header: t('columns.actions'),
      width: '11rem',
      cell: (inv) => (
        <div className="flex gap-1">
          {canCreate ? (
            <RowButton
              label={t('actions.reinvite')}
              name={t('actions.reinvite_for', { name: inv.name })}
              onClick={() => setReinviting(inv)}
            />
          ) : null}
          {canDelete ? (
            <RowButton
              label={t('actions.delete')}
              name={t('actions.delete_for', { name: inv.name })}
              onClick={() => void remove(inv)}
            />
          ) : null}
        </div>
      ),
    });
  }

  return (
    <div className="flex flex-col gap-4">
      {canCreate ? (
        <div>
          <Button onClick={() => setCreating(true)}>{t('actions.invite')}</Button>
        </div>
      ) : null}
      <ListActions
        accountIndex={accountIndex}
        list="organization-invitations"
        query={filters.viewQuery}
        onApply={filters.apply}
        exportQuery={organizationInvitationsParams({ search, order: orderOf(sort, ORDER_FIELDS) })}
      />
      <InfiniteTable
        key={filters.generation}
        initialQuery={{ filters: search ? { name: search } : {}, sort }}
        label={t('table.invitations')}
        columns={columns}
        loadPage={loadPage}
        rowKey={(inv) => String(inv.id)}
        emptyMessage={t('table.empty_invitations')}
        reloadKey={reloadKey}
      />
      {creating ? (
        <InvitationDialog
          accountIndex={accountIndex}
          canViewRoles={abilities.canViewRoles}
          onClose={(created) => {
            setCreating(false);
            if (!created) return;
            toast({ message: t('messages.invited', { email: created.email }), tone: 'success' });
            reload();
          }}
        />
      ) : null}
      {reinviting ? (
        <ReinviteDialog
          accountIndex={accountIndex}
          invitation={reinviting}
          onClose={(sentTo) => {
            setReinviting(null);
            if (sentTo === null) return;
            toast({ message: t('messages.reinvited', { email: sentTo }), tone: 'success' });
            reload();
          }}
        />
      ) : null}
    </div>
  );
}
