import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '#client/api/fetch-json.ts';
import { accountKey } from '#client/api/query-keys.ts';
import { roleQueries } from '#client/api/roles-queries.ts';
import {
  endUserSession,
  getUser,
  listUserSessions,
  sendPasswordReset,
  setChangePasswordRequired,
  updateUser,
  type AdminUser,
} from '#client/api/tenant-admin-client.ts';
import { useFieldLabels } from '#client/entities/history/history-tab.tsx';
import { DetailPage } from '#client/entities/record/detail-page.tsx';
import { ConflictPanel } from '#client/entities/record/conflict-panel.tsx';
import { SaveFooter } from '#client/entities/record/record-edit-form.tsx';
import { useVersionedSave } from '#client/entities/record/use-record-edit.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { RolesDialog } from './roles-dialog.tsx';
import { UserFields } from './user-fields.tsx';
import { useAdminAbilities, useRoles, type AdminAbilities } from './use-admin-context.ts';
import { refusalText } from './user-errors.ts';
import {
  USER_FIELDS,
  userFieldErrors,
  userFieldLabelKey,
  validateUser,
  type UserField,
  type UserValues,
} from './user-form.ts';
import { useRoleNames } from '#client/i18n/translated-text.ts';

const userKey = (accountIndex: number, userId: string) =>
  [...accountKey(accountIndex), 'admin-user', userId] as const;

const displayName = (user: AdminUser) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/**
 * One user in one place (issue 16, as a Keycloak administrator expects): details with the
 * required action and a password reset, the sign-in sessions, and roles with the permissions
 * they grant. The sections are tabs so that further ones (a history) slot in beside them.
 */
export default function UserPage() {
  const { t } = useTranslation(['admin_users', 'common']);
  const { userId = '' } = useParams();
  const abilities = useAdminAbilities();
  const { accountIndex } = abilities;
  const queryClient = useQueryClient();
  const key = userKey(accountIndex, userId);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getUser(accountIndex, Number(userId), signal),
  });
  const historyFields = useFieldLabels([
    'admin_users:user_page.fields.',
    'admin_users:user_page.history_fields.',
  ]);
  // The saved user is the service's answer: shown without asking again; the lists show it too.
  const replace = (user: AdminUser) => {
    queryClient.setQueryData(key, user);
    void queryClient.invalidateQueries({ queryKey: roleQueries.all(accountIndex) });
  };

  return (
    <DetailPage
      query={query}
      back={{ to: `/u/${accountIndex}/admin/users`, label: t('user_page.back') }}
      texts={{
        loading: t('common:status.loading'),
        title: t('user_page.title'),
        notFound: t('user_page.not_found'),
        failed: t('errors.generic'),
      }}
      pageTitle={displayName}
    >
      {(user) => ({
        title: displayName(user),
        tabs: {
          label: t('user_page.tabs.label'),
          items: [
            {
              id: 'details',
              label: t('user_page.tabs.details'),
              content: (
                <DetailsTab key={user.id} user={user} abilities={abilities} onSaved={replace} />
              ),
            },
            {
              id: 'sessions',
              label: t('user_page.tabs.sessions'),
              content: <SessionsTab user={user} abilities={abilities} />,
            },
            {
              id: 'access',
              label: t('user_page.tabs.access'),
              content: (
                <AccessTab
                  user={user}
                  abilities={abilities}
                  onChanged={() => void query.refetch()}
                />
              ),
            },
          ],
          history: {
            accountIndex,
            record: `tenantservice/v1/users/${user.id}`,
            labelOf: historyFields,
          },
        },
      })}
    </DetailPage>
  );
}

const valuesOf = (user: AdminUser): UserValues => ({
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
});

/** Name and e-mail, saved on top of the version shown (the record-edit flow, with conflicts). */
function DetailsTab({
  user,
  abilities,
  onSaved,
}: {
  user: AdminUser;
  abilities: AdminAbilities;
  onSaved: (user: AdminUser) => void;
}) {
  const { t } = useTranslation(['admin_users', 'common']);
  const { accountIndex, canUpdate } = abilities;
  const label = (field: UserField) => t(userFieldLabelKey(field));
  const form = useVersionedSave({
    record: { ...user, updatedAt: String(user.updatedAt) },
    valuesOf,
    validate: (values: UserValues) => validateUser(values, label),
    send: (input: UserValues, version) =>
      updateUser(accountIndex, user.id, { ...input, version }).then((saved) => ({
        ...saved,
        updatedAt: String(saved.updatedAt),
      })),
    conflictRows: (loaded, mine, saved) =>
      conflictRowsOf(USER_FIELDS, valuesOf(loaded), mine, valuesOf(saved)),
    conflictOf: (error) =>
      error instanceof ApiError && error.code === 'version_conflict'
        ? ((error.body as { user?: AdminUser } | undefined)?.user ?? null)
        : null,
    ...useSaveOutcome({
      fieldErrors: (error) => userFieldErrors(error, label),
      failure: (error) => refusalText(t, error instanceof ApiError ? error.code : ''),
      onSaved,
      savedMessage: () => t('user_page.saved'),
    }),
  });
  const { values, setValues, errors, busy, failure, conflict } = form;

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <form noValidate className="flex flex-col gap-4" onSubmit={form.onSubmit}>
        {conflict ? (
          <ConflictPanel
            translate={(key, v) => t(`user_page.${key}`, v)}
            conflict={conflict}
            label={label}
            shown={(_, value) => value || '—'}
            busy={busy}
            onLoadSaved={form.loadSaved}
            onOverwrite={form.overwrite}
            onMerge={form.merge}
            testIdPrefix="user-conflict"
          />
        ) : null}
        <UserFields
          values={values}
          errors={errors}
          readOnly={!canUpdate}
          disabled={busy}
          onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
        />
        <SaveFooter
          failure={failure}
          onDismiss={form.dismissFailure}
          busy={busy}
          submitLabel={busy ? t('user_page.saving') : t('common:actions.save')}
          canSave={canUpdate}
        />
      </form>
      <p className="text-sm text-slate-700">
        {t('user_page.status', { status: t(`status.${user.status}`) })}
      </p>
      {canUpdate ? (
        <AccountActions user={user} accountIndex={accountIndex} onSaved={onSaved} />
      ) : null}
    </div>
  );
}

/** The required action and a reset e-mail, each confirmed (the confirm dialog's statechart). */
function AccountActions({
  user,
  accountIndex,
  onSaved,
}: {
  user: AdminUser;
  accountIndex: number;
  onSaved: (user: AdminUser) => void;
}) {
  const { t } = useTranslation('admin_users');
  const confirm = useConfirm();
  const toast = useToast();
  const name = displayName(user);
  const required = user.mustChangePassword;
  return (
    <section aria-labelledby="user-actions" className="flex flex-col gap-3">
      <h2 id="user-actions" className="text-lg font-semibold text-slate-900">
        {t('user_page.actions.heading')}
      </h2>
      <p className="text-sm text-slate-700" data-testid="required-action">
        {required ? t('user_page.actions.change_required') : t('user_page.actions.none_required')}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            void confirm({
              title: required
                ? t('user_page.actions.unrequire_title')
                : t('user_page.actions.require_title'),
              message: t(
                required
                  ? 'user_page.actions.unrequire_message'
                  : 'user_page.actions.require_message',
                { name },
              ),
              action: async () =>
                onSaved(await setChangePasswordRequired(accountIndex, user.id, !required)),
            })
          }
        >
          {required ? t('user_page.actions.unrequire') : t('user_page.actions.require')}
        </Button>
        <Button
          variant="secondary"
          disabled={user.status !== 'active'}
          onClick={() =>
            void confirm({
              title: t('user_page.actions.reset_title'),
              message: t('user_page.actions.reset_message', { name, email: user.email }),
              action: () => sendPasswordReset(accountIndex, user.id),
            }).then((sent) => {
              if (sent) toast({ message: t('user_page.actions.reset_sent'), tone: 'success' });
            })
          }
        >
          {t('user_page.actions.reset')}
        </Button>
      </div>
    </section>
  );
}

/** The user's sign-ins in this workspace (decision 007); ending one signs that browser out. */
function SessionsTab({ user, abilities }: { user: AdminUser; abilities: AdminAbilities }) {
  const { t } = useTranslation('admin_users');
  const { accountIndex, canUpdate } = abilities;
  const confirm = useConfirm();
  const toast = useToast();
  const query = useQuery({
    queryKey: [...userKey(accountIndex, String(user.id)), 'sessions'],
    queryFn: ({ signal }) => listUserSessions(accountIndex, user.id, signal),
  });
  const loaded = loadStateOf(query);
  if (loaded.kind === 'loading') return <Spinner label={t('user_page.sessions.loading')} />;
  if (loaded.kind === 'failed') {
    return (
      <LoadProblem
        error={loaded.error}
        failed={t('errors.generic')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!loaded.value.length) return <Alert tone="info">{t('user_page.sessions.none')}</Alert>;
  const when = (iso: string) => formatDateTime(iso);
  return (
    <DataTable
      variant="boxed"
      width="w-full max-w-4xl"
      caption={t('user_page.sessions.caption')}
      rows={loaded.value}
      rowKey={(session) => session.id}
      columns={[
        {
          id: 'started',
          header: t('user_page.sessions.started'),
          cell: (session) => when(session.startedAt),
        },
        {
          id: 'last_refresh',
          header: t('user_page.sessions.last_refresh'),
          cell: (session) => when(session.lastRefreshAt),
        },
        {
          id: 'workspace',
          header: t('user_page.sessions.workspace'),
          cell: (session) => session.workspace,
        },
        canUpdate && {
          id: 'actions',
          header: t('columns.actions'),
          cell: (session) => (
            <Button
              variant="secondary"
              aria-label={t('user_page.sessions.sign_out_for', {
                started: when(session.startedAt),
              })}
              onClick={() =>
                void confirm({
                  title: t('user_page.sessions.sign_out_title'),
                  message: t('user_page.sessions.sign_out_message', {
                    name: displayName(user),
                    started: when(session.startedAt),
                  }),
                  confirmLabel: t('user_page.sessions.sign_out'),
                  tone: 'danger',
                  action: () => endUserSession(accountIndex, user.id, session.id),
                }).then((ended) => {
                  if (!ended) return;
                  toast({ message: t('user_page.sessions.signed_out'), tone: 'success' });
                  void query.refetch();
                })
              }
            >
              {t('user_page.sessions.sign_out')}
            </Button>
          ),
        },
      ]}
    />
  );
}

/** Roles and, beside them, every permission they grant with the roles granting it. */
function AccessTab({
  user,
  abilities,
  onChanged,
}: {
  user: AdminUser;
  abilities: AdminAbilities;
  onChanged: () => void;
}) {
  const { t } = useTranslation('admin_users');
  const roleNames = useRoleNames();
  const { accountIndex, canUpdate } = abilities;
  const roles = useRoles(accountIndex);
  const [editing, setEditing] = useState(false);
  const effective = useQuery(roleQueries.effective(accountIndex, String(user.id)));
  const loaded = loadStateOf(effective);
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="user-roles" className="flex flex-col gap-2">
        <h2 id="user-roles" className="text-lg font-semibold text-slate-900">
          {t('user_page.access.roles')}
        </h2>
        <p data-testid="user-roles">{roleNames(user.roles) || t('table.none')}</p>
        {canUpdate ? (
          <div>
            <Button variant="secondary" onClick={() => setEditing(true)}>
              {t('user_page.access.change_roles')}
            </Button>
          </div>
        ) : null}
      </section>
      <section aria-labelledby="user-permissions" className="flex flex-col gap-2">
        <h2 id="user-permissions" className="text-lg font-semibold text-slate-900">
          {t('user_page.access.permissions')}
        </h2>
        {loaded.kind === 'loading' ? <Spinner label={t('user_page.access.loading')} /> : null}
        {loaded.kind === 'failed' ? (
          <LoadProblem
            error={loaded.error}
            failed={t('errors.generic')}
            onRetry={() => void effective.refetch()}
          />
        ) : null}
        {loaded.kind === 'ready' ? (
          loaded.value.items.length ? (
            <ul className="flex flex-col gap-1 text-sm">
              {loaded.value.items.map((item) => (
                <li key={item.permission}>
                  <span className="font-mono">{item.permission}</span>
                  {' — '}
                  {item.roles.join(', ')}
                </li>
              ))}
            </ul>
          ) : (
            <Alert tone="info">{t('user_page.access.none')}</Alert>
          )
        ) : null}
      </section>
      {editing ? (
        <RolesDialog
          accountIndex={accountIndex}
          user={user}
          roles={roles}
          onClose={(saved) => {
            setEditing(false);
            if (saved) {
              onChanged();
              void effective.refetch();
            }
          }}
        />
      ) : null}
    </div>
  );
}
