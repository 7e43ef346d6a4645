import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldIssues } from '#client/api/error-text.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { updateOrganization, type Organization } from '#client/api/organizations-client.ts';
import { RecordEditForm } from '#client/entities/record/record-edit-form.tsx';
import { useVersionedSave } from '#client/entities/record/use-record-edit.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { CustomFormFields, type FormValues } from '#client/ui/form/custom-form-fields.tsx';
import {
  buildCustomSchema,
  validateForm,
  type CustomField,
} from '#client/ui/form/custom-schema.ts';
import { useCustomValueText } from '#client/ui/form/custom-value.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { pickAddress } from './organization-form.ts';

const customOf = (organization: Organization): FormValues => ({ ...organization.customFields });

/**
 * The organisation's answer in a 409 `version_conflict`: the organisation as saved now, beside
 * `error` and `message` in the body (the one error shape, common/contracts/error.ts).
 */
function currentOf(error: unknown): Organization | null {
  if (!(error instanceof ApiError) || error.code !== 'version_conflict') return null;
  return (error.body as { organization?: Organization } | null)?.organization ?? null;
}

/**
 * The organisation's custom data (the tenant's organisation schema), read by everyone and edited
 * after creation by those who may update it, on `record-edit`: saved on top of the version read,
 * so that another administrator's save meanwhile shows as a conflict instead of being undone.
 */
export function OrganizationCustomData({
  organization,
  fields,
  canUpdate,
  accountIndex,
  onSaved,
}: {
  organization: Organization;
  fields: readonly CustomField[];
  canUpdate: boolean;
  accountIndex: number;
  onSaved: (organization: Organization) => void;
}) {
  const { t } = useTranslation('admin_organizations');
  const shown = useCustomValueText();
  const { schema, fields: formFields } = useMemo(() => buildCustomSchema(fields), [fields]);
  const names = fields.map((field) => field.name);
  const fieldOf = (name: string) => fields.find((field) => field.name === name);
  const form = useVersionedSave({
    record: organization,
    valuesOf: customOf,
    validate: (values: FormValues) => {
      const result = validateForm(schema, values);
      return result.success
        ? { ok: true as const, input: result.output as Record<string, unknown> }
        : { ok: false as const, errors: result.errors };
    },
    send: async (input: Record<string, unknown>, version) =>
      (
        await updateOrganization(accountIndex, organization.id, {
          ...pickAddress(organization),
          customFields: input,
          version,
        })
      ).organization,
    conflictRows: (loaded: Organization, mine: FormValues, saved: Organization) =>
      conflictRowsOf<string>(
        names,
        Object.fromEntries(names.map((n) => [n, shown(loaded.customFields[n], fieldOf(n))])),
        Object.fromEntries(names.map((n) => [n, shown(mine[n], fieldOf(n))])),
        Object.fromEntries(names.map((n) => [n, shown(saved.customFields[n], fieldOf(n))])),
      ),
    conflictOf: currentOf,
    ...useSaveOutcome({
      fieldErrors: (error) => {
        // The field a 400 names in its issues (`customFields.<name>`); the message is for logs.
        const field = fieldIssues(error)
          .map((issue) => /^customFields\.(\w+)$/.exec(issue.path)?.[1])
          .find((name) => name !== undefined && names.includes(name));
        return field ? { [field]: ['messages.invalid_value'] } : null;
      },
      failure: () => t('errors.generic'),
      onSaved,
      savedMessage: () => t('custom_data.saved'),
    }),
  });
  const { values, setValues, errors, busy, base } = form;

  // The address form above saved a newer version: this form builds on it, what is typed stays.
  // In an effect: the form's state lives in its statechart, which must not change in a render.
  const seen = useRef(organization);
  useEffect(() => {
    if (organization === seen.current) return;
    seen.current = organization;
    if (organization.version <= base.version) return;
    const untouched = JSON.stringify(values) === JSON.stringify(customOf(base));
    if (untouched) form.loadSaved(organization);
    else form.setBase(organization);
  }, [organization, base, values, form]);

  // The values as saved, to read (for editors too: the form below is what they type); values of
  // a field since removed from the schema are shown, not edited.
  const others = Object.entries(organization.customFields).filter(
    ([name, value]) => !names.includes(name) && value !== null && value !== '',
  );
  const readOnly: (readonly [string, unknown])[] = [
    ...fields.map((f) => [f.name, organization.customFields[f.name]] as const),
    ...others,
  ];

  return (
    <section aria-labelledby="org-custom" className="flex max-w-3xl flex-col gap-3">
      <h2 id="org-custom" className="text-xl font-semibold text-slate-900">
        {t('custom_data.title')}
      </h2>
      {fields.length === 0 && others.length === 0 ? (
        <p className="text-sm text-slate-700">{t('custom_data.none')}</p>
      ) : null}
      {readOnly.length ? (
        <dl
          className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-6 gap-y-1 text-sm"
          data-testid="org-custom-values"
        >
          {readOnly.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-medium text-slate-800">{fieldOf(name)?.label ?? name}</dt>
              <dd className="text-slate-800">{shown(value, fieldOf(name))}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {canUpdate && fields.length > 0 ? (
        <RecordEditForm
          form={form}
          translate={(key, v) => t(key, v)}
          label={(name: string) => fieldOf(name)?.label ?? name}
          shown={(_, value) => value}
          onLoadSaved={onSaved}
          ariaLabel={t('custom_data.title')}
          submitLabel={busy ? t('actions.saving') : t('custom_data.save')}
        >
          <CustomFormFields
            fields={formFields}
            values={values}
            errors={errors}
            disabled={busy}
            onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
          />
        </RecordEditForm>
      ) : null}
    </section>
  );
}
