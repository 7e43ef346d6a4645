import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { createUser, type AdminUser, type RoleRef } from '#client/api/tenant-admin-client.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { RoleChoice } from './roles-dialog.tsx';
import { refusalText } from './user-errors.ts';
import { UserFields } from './user-fields.tsx';
import { userFieldErrors, userFieldLabelKey, validateUser, type UserField } from './user-form.ts';

/**
 * Creates a user directly (issue 16; besides the invitation): name, address and roles. The user
 * sets a password through the link the service e-mails.
 */
export function CreateUserDialog({
  accountIndex,
  roles,
  onClose,
}: {
  accountIndex: number;
  roles: readonly RoleRef[] | null;
  onClose: (created: AdminUser | null) => void;
}) {
  const { t } = useTranslation(['admin_users', 'common']);
  const toast = useToast();
  const [values, setValues] = useState({ firstName: '', lastName: '', email: '' });
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [errors, setErrors] = useState<FieldErrors>({});
  const label = (field: UserField) => t(userFieldLabelKey(field));

  return (
    <SubmitDialog
      title={t('user_page.create.title')}
      submitLabel={t('user_page.create.submit')}
      cancelLabel={t('common:actions.cancel')}
      submit={() => {
        const checked = validateUser(values, label);
        if (!checked.ok) {
          setErrors(checked.errors);
          return false;
        }
        setErrors({});
        return createUser(accountIndex, { ...checked.input, roleIds: [...chosen] }).then(
          (user) => {
            toast({
              message: t('user_page.create.created', { email: user.email }),
              tone: 'success',
            });
            onClose(user);
          },
          (error: unknown) => {
            // A refusal at a field shows there; the dialog's alert says what it was about.
            const fields = userFieldErrors(error, label);
            if (fields) setErrors(fields);
            throw error;
          },
        );
      }}
      failureMessage={(error) =>
        userFieldErrors(error, label)
          ? t('user_page.errors.email_taken')
          : refusalText(t, error instanceof ApiError ? error.code : '')
      }
      onCancel={() => onClose(null)}
    >
      <p className="text-sm text-slate-700">{t('user_page.create.hint')}</p>
      <UserFields
        values={values}
        errors={errors}
        onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
      />
      <RoleChoice roles={roles} shown={roles ?? []} chosen={chosen} onChange={setChosen} />
    </SubmitDialog>
  );
}
