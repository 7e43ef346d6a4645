import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { createOrganization, type OrganizationAddress } from '#client/api/organizations-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { SaveFooter } from '#client/entities/record/record-edit-form.tsx';
import { CustomFormFields, type FormValues } from '#client/ui/form/custom-form-fields.tsx';
import {
  buildCustomSchema,
  validateForm,
  type FieldErrors,
} from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { AddressFields, useFormLabels } from './address-fields.tsx';
import { emptyAddress, MAX_LENGTH, organizationSchema, withoutEmpty } from './organization-form.ts';
import { useServiceCall } from './use-service-call.ts';
import {
  useOrganizationAbilities,
  useOrganizationCustomFields,
} from './use-organization-context.ts';
import { BackLink } from '#client/ui/record-page.tsx';

/**
 * A new organisation: the name (chosen once, read-only afterwards), the address and the tenant's
 * custom fields, whose required ones the service enforces too. On success it opens the new
 * organisation; a failure keeps everything typed.
 */
export default function OrganizationNewPage() {
  const { t } = useTranslation(['admin_organizations', 'common']);
  usePageTitle(t('new.title'));
  const navigate = useNavigate();
  const toast = useToast();
  const labels = useFormLabels();
  const { accountIndex } = useOrganizationAbilities();
  const schemaState = useOrganizationCustomFields(accountIndex);
  const schema = useMemo(() => organizationSchema(labels), [labels]);
  const customForm = useMemo(
    () => buildCustomSchema(schemaState.status === 'ready' ? schemaState.value : []),
    [schemaState],
  );
  const [name, setName] = useState('');
  const [address, setAddress] = useState<OrganizationAddress>(emptyAddress);
  const [custom, setCustom] = useState<FormValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [customErrors, setCustomErrors] = useState<FieldErrors>({});
  const { busy, failure, fieldErrors, clearFailure, run } = useServiceCall();
  const listPath = `/u/${accountIndex}/admin/organizations`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const main = validateForm(schema, { name, ...address });
    const extra = validateForm(customForm.schema, custom);
    setErrors(main.errors);
    setCustomErrors(extra.errors);
    if (!main.success || !extra.success) return;
    const created = await run(() =>
      createOrganization(accountIndex, {
        ...main.output,
        customFields: withoutEmpty(extra.output as Record<string, unknown>),
      }),
    );
    if (!created.ok) return;
    const { organization } = created.value;
    toast({ message: t('messages.created', { name: organization.name }), tone: 'success' });
    void navigate(`${listPath}/${organization.id}`);
  };

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink to={listPath}>{t('detail.back')}</BackLink>
      <h1 className="text-2xl font-bold text-slate-900">{t('new.title')}</h1>
      {schemaState.status === 'loading' ? (
        <Spinner label={t('common:status.loading')} />
      ) : schemaState.status === 'failed' ? (
        // Without the schema the required custom fields are unknown: the save would only fail.
        <AlertBar tone="danger" dismissible={false}>
          {t('new.schema_failed')}
        </AlertBar>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
          <TextInput
            name="name"
            label={labels.name}
            hint={t('new.name_hint')}
            value={name}
            errors={errors.name ?? fieldErrors.name}
            maxLength={MAX_LENGTH.name}
            required
            disabled={busy}
            onChange={setName}
          />
          <AddressFields
            values={address}
            errors={{ ...fieldErrors, ...errors }}
            required
            disabled={busy}
            onChange={(field, value) => setAddress((current) => ({ ...current, [field]: value }))}
          />
          {customForm.fields.length > 0 ? (
            <fieldset className="flex flex-col gap-4">
              <legend className="mb-2 text-sm font-medium text-slate-800">{t('new.custom')}</legend>
              <CustomFormFields
                fields={customForm.fields}
                values={custom}
                errors={customErrors}
                disabled={busy}
                onChange={(field, value) =>
                  setCustom((current) => ({ ...current, [field]: value }))
                }
              />
            </fieldset>
          ) : null}
          <SaveFooter
            failure={failure}
            onDismiss={clearFailure}
            busy={busy}
            submitLabel={busy ? t('actions.saving') : t('new.create')}
            actions={
              <Link
                to={listPath}
                className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
              >
                {t('common:actions.cancel')}
              </Link>
            }
          />
        </form>
      )}
    </div>
  );
}
