import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { errorKey, refusalText } from './user-errors.ts';
import { assignRoles, type AdminUser, type RoleRef } from '#client/api/tenant-admin-client.ts';
import { CheckboxGroup } from '#client/ui/form/checkbox-group.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useTranslatedText } from '#client/i18n/translated-text.ts';

/**
 * Role checkboxes for one user; saving replaces the user's roles (assign-roles). The flow (busy,
 * refused with the ticks kept) is the shared SubmitDialog's statechart.
 */
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
  // Roles the list hides (no permissions) but the user holds stay shown: unticking is a choice.
  const shown = [
    ...(roles ?? []),
    ...(user.roles ?? []).filter((held) => !roles?.some((r) => r.id === held.id)),
  ];
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;

  return (
    <SubmitDialog
      title={t('roles_dialog.title', { name })}
      submitLabel={t('common:actions.save')}
      cancelLabel={t('common:actions.cancel')}
      submit={() =>
        assignRoles(accountIndex, user.id, [...chosen]).then(() => {
          toast({ message: t('roles_dialog.saved', { email: user.email }), tone: 'success' });
          onClose(true);
        })
      }
      failureMessage={(failure) => {
        if (failure instanceof ApiError && errorKey(failure.code) !== 'errors.generic') {
          return refusalText(t, failure.code);
        }
        console.error('assign roles failed', failure);
        return t('errors.generic');
      }}
      onCancel={() => onClose(false)}
    >
      <RoleChoice roles={roles} shown={shown} chosen={chosen} onChange={setChosen} />
    </SubmitDialog>
  );
}

/** The role checkboxes, also on the user page: the roles offered, and a spinner while they load. */
export function RoleChoice({
  roles,
  shown,
  chosen,
  onChange,
  disabled,
}: {
  roles: readonly RoleRef[] | null;
  shown: readonly RoleRef[];
  chosen: ReadonlySet<number>;
  onChange: (chosen: ReadonlySet<number>) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('admin_users');
  const translated = useTranslatedText();
  return (
    <CheckboxGroup
      legend={t('roles_dialog.roles')}
      options={shown.map((role) => ({
        ...role,
        hint: translated(role.description ?? '', role.descriptionLabels),
      }))}
      value={chosen}
      onChange={onChange}
      disabled={disabled ?? false}
    >
      {roles === null ? <Spinner label={t('roles_dialog.loading')} /> : null}
    </CheckboxGroup>
  );
}
