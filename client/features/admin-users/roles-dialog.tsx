import { Dialog, DialogPanel, DialogTitle } from '#client/ui/dialog.tsx';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { errorKey } from './user-errors.ts';
import { assignRoles, type AdminUser, type RoleRef } from '#client/api/tenant-admin-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { CheckboxGroup } from '#client/ui/form/checkbox-group.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';

/** Role checkboxes for one user; saving replaces the user's roles (assign-roles). */
export function RolesDialog({
  accountIndex,
  user,
  roles,
  onClose,
}: {
  accountIndex: number;
  user: AdminUser;
  /** null while the roles load. */
  roles: readonly RoleRef[] | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation(['admin_users', 'common']);
  const toast = useToast();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(
    () => new Set((user.roles ?? []).map((r) => r.id)),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Roles the list hides (no permissions) but the user holds stay shown: unticking is a choice.
  const shown = [
    ...(roles ?? []),
    ...(user.roles ?? []).filter((held) => !roles?.some((r) => r.id === held.id)),
  ];
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await assignRoles(accountIndex, user.id, [...chosen]);
      toast({ message: t('roles_dialog.saved', { email: user.email }), tone: 'success' });
      onClose(true);
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && errorKey(failure.code) !== 'errors.generic') {
        setError(t(errorKey(failure.code)));
      } else {
        console.error('assign roles failed', failure);
        setError(t('errors.generic'));
      }
    }
  };

  return (
    <Dialog open onClose={() => (busy ? undefined : onClose(false))} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl" aria-busy={busy}>
          <DialogTitle className="text-lg font-bold text-slate-900">
            {t('roles_dialog.title', { name })}
          </DialogTitle>
          <form onSubmit={(event) => void submit(event)} className="mt-4 flex flex-col gap-4">
            <CheckboxGroup
              legend={t('roles_dialog.roles')}
              options={shown}
              value={chosen}
              onChange={setChosen}
              disabled={busy}
            >
              {roles === null ? <Spinner label={t('roles_dialog.loading')} /> : null}
            </CheckboxGroup>
            {error ? <Alert tone="danger">{error}</Alert> : null}
            <div className="flex justify-end gap-3">
              <Button variant="secondary" disabled={busy} onClick={() => onClose(false)}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit" disabled={busy}>
                {t('common:actions.save')}
              </Button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
