import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createOrganizationInvitation,
  type OrganizationAddress,
  type OrganizationInvitation,
} from '#client/api/organizations-client.ts';
import { useTenantRoles } from '#client/api/use-account-access.ts';
import { useLocalizedFields } from '#client/i18n/translated-text.ts';
import { Alert } from '#client/ui/alert.tsx';
import { CheckboxGroup } from '#client/ui/form/checkbox-group.tsx';
import { CustomFormFields, type FormValues } from '#client/ui/form/custom-form-fields.tsx';
import {
  buildCustomSchema,
  validateForm,
  type FieldErrors,
} from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { AddressFields, InvitationEmailInput, useFormLabels } from './address-fields.tsx';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import {
  asProposal,
  emptyAddress,
  invitationSchema,
  MAX_LENGTH,
  SLUG_MAX_LENGTH,
  slugify,
  withoutEmpty,
} from './organization-form.ts';
import { useServiceCall } from './use-service-call.ts';
import { useOrganizationCustomFields } from './use-organization-context.ts';

/**
 * "Invite an organisation": its name and slug, the contact person's e-mail, a proposed address
 * and custom values, and the roles its users get. The service e-mails the registration link.
 * A failed send keeps every value in the form.
 */
export function InvitationDialog({
  accountIndex,
  canViewRoles,
  onClose,
}: {
  accountIndex: number;
  /** Without the roles permission the invitation goes out without roles. */
  canViewRoles: boolean;
  onClose: (created: OrganizationInvitation | null) => void;
}) {
  const { t } = useTranslation(['admin_organizations', 'common']);
  const labels = useFormLabels();
  const roles = useLocalizedFields(useTenantRoles(accountIndex, canViewRoles));
  const schemaState = useOrganizationCustomFields(accountIndex);
  const customFields = schemaState.status === 'ready' ? schemaState.value : null;
  const [name, setName] = useState('');
  // The slug follows the name until it is edited by hand.
  const [slugText, setSlugText] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [address, setAddress] = useState<OrganizationAddress>(emptyAddress);
  const [custom, setCustom] = useState<FormValues>({});
  const [roleIds, setRoleIds] = useState<ReadonlySet<number>>(new Set());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [customErrors, setCustomErrors] = useState<FieldErrors>({});
  const { busy, failure, fieldErrors, run } = useServiceCall();
  // The form's own errors, then those the service named (a name already taken).
  const shown: FieldErrors = { ...fieldErrors, ...errors };
  const slug = slugText ?? slugify(name);

  const schema = useMemo(() => invitationSchema(labels), [labels]);
  const customForm = useMemo(
    () => buildCustomSchema(asProposal(customFields ?? [])),
    [customFields],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const main = validateForm(schema, { name, slug, email, ...address });
    const extra = validateForm(customForm.schema, custom);
    setErrors(main.errors);
    setCustomErrors(extra.errors);
    if (!main.success || !extra.success) return;
    const result = await run(() =>
      createOrganizationInvitation(accountIndex, {
        ...main.output,
        roleIds: [...roleIds],
        customFields: withoutEmpty(extra.output as Record<string, unknown>),
      }),
    );
    if (result.ok) onClose(result.value.invitation);
  };

  return (
    <FormDialog
      title={t('invitation_dialog.title')}
      busy={busy}
      onDismiss={() => onClose(null)}
      wide
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            name="name"
            label={labels.name}
            value={name}
            errors={shown.name}
            maxLength={MAX_LENGTH.name}
            required
            disabled={busy}
            onChange={setName}
          />
          <TextInput
            name="slug"
            label={labels.slug}
            hint={t('invitation_dialog.slug_hint')}
            value={slug}
            errors={shown.slug}
            maxLength={SLUG_MAX_LENGTH}
            required
            disabled={busy}
            onChange={setSlugText}
          />
          <InvitationEmailInput
            hint={t('invitation_dialog.email_hint')}
            value={email}
            errors={shown.email}
            disabled={busy}
            onChange={setEmail}
          />
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-slate-800">
            {t('invitation_dialog.address')}
          </legend>
          <p className="text-xs text-slate-600">{t('invitation_dialog.address_hint')}</p>
          <AddressFields
            values={address}
            errors={shown}
            required={false}
            disabled={busy}
            onChange={(field, value) => setAddress((current) => ({ ...current, [field]: value }))}
          />
        </fieldset>
        {schemaState.status === 'loading' ? (
          <Spinner label={t('common:status.loading')} />
        ) : schemaState.status === 'failed' ? (
          <Alert tone="warning">{t('invitation_dialog.custom_failed')}</Alert>
        ) : customForm.fields.length > 0 ? (
          <fieldset className="flex flex-col gap-4">
            <legend className="mb-2 text-sm font-medium text-slate-800">
              {t('invitation_dialog.custom')}
            </legend>
            <CustomFormFields
              fields={customForm.fields}
              values={custom}
              errors={customErrors}
              disabled={busy}
              onChange={(field, value) => setCustom((current) => ({ ...current, [field]: value }))}
            />
          </fieldset>
        ) : null}
        <CheckboxGroup
          legend={t('invitation_dialog.roles')}
          options={roles ?? []}
          value={roleIds}
          onChange={setRoleIds}
          disabled={busy}
        >
          {roles === null ? <Spinner label={t('common:status.loading')} /> : null}
          {roles?.length === 0 ? (
            <p className="text-sm text-slate-600">{t('invitation_dialog.no_roles')}</p>
          ) : null}
        </CheckboxGroup>
        <FormDialogFooter
          failure={failure}
          busy={busy}
          cancelLabel={t('common:actions.cancel')}
          submitLabel={t('invitation_dialog.send')}
          busyLabel={t('invitation_dialog.sending')}
          onCancel={() => onClose(null)}
        />
      </form>
    </FormDialog>
  );
}
