import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import {
  USER_FIELDS,
  USER_FIELD_MAX,
  userFieldLabelKey,
  type UserField,
  type UserValues,
} from './user-form.ts';

/** Name and e-mail of a user, as the user page edits them and the create dialog asks for them. */
export function UserFields({
  values,
  errors,
  onChange,
  readOnly = false,
  disabled = false,
}: {
  values: UserValues;
  errors: FieldErrors;
  onChange: (field: UserField, value: string) => void;
  readOnly?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation('admin_users');
  return USER_FIELDS.map((field) => (
    <TextInput
      key={field}
      name={field}
      type={field === 'email' ? 'email' : 'text'}
      label={t(userFieldLabelKey(field))}
      value={values[field]}
      required
      // The limits of the service's schema (common/contracts/tenant.ts, the e-mail rule).
      maxLength={USER_FIELD_MAX[field]}
      readOnly={readOnly}
      disabled={disabled}
      errors={errors[field]}
      onChange={(value) => onChange(field, value)}
    />
  ));
}
