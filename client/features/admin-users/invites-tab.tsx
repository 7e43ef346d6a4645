import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteInvite,
  deleteInvites,
  invitesParams,
  listInvites,
  type Invite,
  type RoleRef,
} from '#client/api/tenant-admin-client.ts';
import { Button } from '#client/ui/button.tsx';
import { formatDate } from '#client/ui/form/dates.ts';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { RowButton } from '#client/ui/row-button.tsx';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { ListActions } from '#client/entities/list-view/list-views.tsx';
import { ToolbarInput } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { summarizeBatch, type BatchOutcome } from './batch-summary.ts';
import { InviteDialog } from './invite-dialog.tsx';
import type { AdminAbilities } from './use-admin-context.ts';
import { useBatchReport } from './users-tab.tsx';
import { useRoleNames } from '#client/i18n/translated-text.ts';

/** Pending invitations: list, delete one or several, and the "Invite users" dialog. */
export function InvitesTab({
  abilities,
  roles,
}: {
  abilities: AdminAbilities;
  roles: RoleRef[] | null;
}) {
  const { t } = useTranslation('admin_users');
  const roleNames = useRoleNames();
  const confirm = useConfirm();
  const report = useBatchReport();
  const { accountIndex, canCreate, canDelete } = abilities;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [reloadKey, setReloadKey] = useState(0);
  const [inviting, setInviting] = useState(false);
  const rowsByKey = useRef(new Map<string, Invite>());
  // The search lives in the address under its own name: the users tab beside it keeps `search`.
  const filters = useUrlFilters(['inviteSearch'], { typed: ['inviteSearch'] });
  const search = filters.values.inviteSearch;

  const loadPage = useCallback<LoadTablePage<Invite>>(
    async (input, signal) => {
      const page = await listInvites(
        accountIndex,
        input.pageToken ? Number(input.pageToken) : 1,
        signal,
        search,
      );
      for (const row of page.items) rowsByKey.current.set(String(row.id), row);
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, search],
  );

  // A remount also clears the table's own checkboxes (see the users tab).
  const reload = () => {
    setSelected(new Set());
    setReloadKey((k) => k + 1);
  };

  const remove = async (invites: readonly Invite[]) => {
    let outcome: BatchOutcome | null = null;
    const confirmed = await confirm({
      title: t('confirm.delete_invites_title'),
      message:
        invites.length === 1
          ? t('confirm.delete_invite_one_message', { email: invites[0]!.email })
          : t('confirm.delete_invites_message', { count: invites.length }),
      confirmLabel: t('actions.delete'),
      tone: 'danger',
      action: async () => {
        if (invites.length === 1) {
          await deleteInvite(accountIndex, invites[0]!.id);
          outcome = summarizeBatch([{ id: invites[0]!.id, ok: true }]);
          return;
        }
        const { results } = await deleteInvites(
          accountIndex,
          invites.map((i) => i.id),
        );
        outcome = summarizeBatch(results);
      },
    });
    if (!confirmed || outcome === null) return;
    const byId = new Map(invites.map((i) => [String(i.id), i.email]));
    report(outcome, (key) => byId.get(key) ?? key);
    reload();
  };

  const columns: TableColumn<Invite>[] = [
    { id: 'email', header: t('columns.email'), width: '2fr', cell: (invite) => invite.email },
    {
      id: 'roles',
      header: t('columns.roles'),
      width: '1.5fr',
      cell: (invite) => roleNames(invite.roles) || t('table.none'),
    },
    {
      id: 'organization',
      header: t('columns.organization'),
      width: '1.5fr',
      cell: (invite) => invite.organization?.name ?? t('table.none'),
    },
    {
      id: 'expires',
      header: t('columns.expires'),
      width: '12rem',
      cell: (invite) => (
        <span className="flex items-center gap-2">
          {formatDate(invite.expiresOn)}
          {invite.isExpired ? (
            <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
              {t('status.expired')}
            </span>
          ) : null}
        </span>
      ),
    },
  ];
  if (canDelete) {
    columns.push({
      id: 'actions',
      header: t('columns.actions'),
      width: '7rem',
      cell: (invite) => (
        <RowButton
          label={t('actions.delete')}
          name={t('actions.delete_invite_for', { email: invite.email })}
          onClick={() => void remove([invite])}
        />
      ),
    });
  }

  const selectedInvites = () =>
    [...selected].flatMap((key) => {
      const invite = rowsByKey.current.get(key);
      return invite ? [invite] : [];
    });

  return (
    <div className="flex flex-col gap-4">
      <ToolbarInput
        label={t('toolbar.search_invites')}
        value={filters.drafts.inviteSearch}
        onChange={(v) => filters.setDraft('inviteSearch', v)}
      />
      {canCreate || canDelete ? (
        <div className="flex flex-wrap gap-2">
          {canCreate ? (
            <Button onClick={() => setInviting(true)}>{t('actions.invite')}</Button>
          ) : null}
          {canDelete ? (
            <Button
              variant="danger"
              disabled={selected.size === 0}
              onClick={() => void remove(selectedInvites())}
            >
              {t('actions.delete_selected')}
            </Button>
          ) : null}
        </div>
      ) : null}
      <ListActions
        accountIndex={accountIndex}
        list="user-invites"
        query={filters.viewQuery}
        onApply={filters.apply}
        exportQuery={invitesParams({ search })}
      />
      <InfiniteTable
        key={JSON.stringify([reloadKey, search, filters.generation])}
        label={t('table.invitations')}
        columns={columns}
        loadPage={loadPage}
        rowKey={(invite) => String(invite.id)}
        emptyMessage={t('table.empty_invitations')}
        rowLabel={(invite) => t('table.select_user', { email: invite.email })}
        {...(canDelete ? { onSelectionChange: setSelected } : {})}
      />
      {inviting ? (
        <InviteDialog
          accountIndex={accountIndex}
          roles={roles ?? []}
          onClose={(invited) => {
            setInviting(false);
            if (invited) reload();
          }}
        />
      ) : null}
    </div>
  );
}
