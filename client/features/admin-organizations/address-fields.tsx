import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrganizationAddress } from '#client/api/organizations-client.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { EMAIL_ADDRESS_MAX } from '#common/email-address.ts';
import { ADDRESS_FIELDS, MAX_LENGTH, type FormLabels } from './organization-form.ts';

/** The translated labels; the schemas put them into the 'field required' messages. */
export function useFormLabels(): FormLabels {
  const { t } = useTranslation('admin_organizations');
  return useMemo(
    () => ({
      name: t('fields.name'),
      street: t('fields.street'),
      houseNumber: t('fields.house_number'),
      zipCode: t('fields.zip_code'),
      city: t('fields.city'),
      country: t('fields.country'),
      email: t('fields.email'),
      slug: t('fields.slug'),
    }),
    [t],
  );
}

/** Street, house number, postcode, city, country: one input each, in the spec's order. */
export function AddressFields({
  values,
  errors,
  onChange,
  required,
  readOnly = false,
  disabled = false,
}: {
  values: OrganizationAddress;
  errors: FieldErrors;
  onChange: (field: keyof OrganizationAddress, value: string) => void;
  required: boolean;
  readOnly?: boolean;
  disabled?: boolean;
}) {
  const labels = useFormLabels();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {ADDRESS_FIELDS.map((field) => (
        <TextInput
          key={field}
          name={field}
          label={labels[field]}
          value={values[field]}
          errors={errors[field]}
          maxLength={MAX_LENGTH[field]}
          required={required && !readOnly}
          readOnly={readOnly}
          disabled={disabled}
          onChange={(value) => onChange(field, value)}
        />
      ))}
    </div>
  );
}

/** The address an invitation's registration link goes to (on inviting, and corrected on re-inviting). */
export function InvitationEmailInput({
  hint,
  value,
  errors,
  disabled,
  onChange,
}: {
  hint?: string;
  value: string;
  errors: readonly string[] | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const labels = useFormLabels();
  return (
    <TextInput
      name="email"
      type="email"
      label={labels.email}
      hint={hint}
      value={value}
      errors={errors}
      maxLength={EMAIL_ADDRESS_MAX}
      required
      disabled={disabled}
      onChange={onChange}
    />
  );
}
