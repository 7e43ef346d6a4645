import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CLAIM_TYPES } from '#client/api/claims-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { CustomFormFields } from '#client/ui/form/custom-form-fields.tsx';
import type { FieldErrors, FormField } from '#client/ui/form/custom-schema.ts';
import { DateInput, SelectInput, TextareaInput, TextInput } from '#client/ui/form/fields.tsx';
import { useFocusFirstInvalid } from '#client/ui/form/use-focus-first-invalid.ts';
import { DESCRIPTION_MAX, TITLE_MAX } from '#common/claims.ts';
import { customErrorsOf, type ClaimField, type ClaimValues } from './claim-form.ts';

const LABEL_KEYS = {
  title: 'fields.title',
  claimType: 'fields.claim_type',
  damageDate: 'fields.damage_date',
  notificationDate: 'fields.notification_date',
  description: 'fields.description',
  customFields: 'fields.custom_fields',
} as const satisfies Record<ClaimField, string>;

/** The label of a claim field in the user's language. */
export function useClaimFieldLabel(): (field: ClaimField) => string {
  const { t } = useTranslation('claims');
  return (field) => t(LABEL_KEYS[field]);
}

/** What a claim form needs of `useRecordSave` / `useVersionedSave`. */
export interface ClaimFormState {
  values: ClaimValues;
  setValues: (update: (current: ClaimValues) => ClaimValues) => void;
  errors: FieldErrors;
  busy: boolean;
  failure: string | null;
  dismissFailure: () => void;
  save: () => void;
}

/**
 * The form of a new claim: its editable fields (`ClaimFields`), what failed below them, then the
 * caller's buttons. The claim's data tab has the same fields in the versioned `RecordEditForm`.
 */
export function ClaimForm({
  label: formLabel,
  form,
  customFields,
  before,
  after,
  actions,
}: {
  label: string;
  form: ClaimFormState;
  customFields: readonly FormField[];
  before?: ReactNode;
  /** Below the fields, above a failure and the buttons (the cover override of a new claim). */
  after?: ReactNode;
  actions: ReactNode;
}) {
  const { failure } = form;
  const formRef = useFocusFirstInvalid(form.errors, form.busy);
  return (
    <form
      ref={formRef}
      noValidate
      aria-label={formLabel}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        form.save();
      }}
      className="flex flex-col gap-4"
    >
      <ClaimFields form={form} customFields={customFields} before={before} after={after} />
      {failure ? (
        <AlertBar tone="danger" onDismiss={form.dismissFailure}>
          {failure}
        </AlertBar>
      ) : null}
      <div className="flex gap-3">{actions}</div>
    </form>
  );
}

/**
 * A claim's editable fields, shared by the new claim and the claim's data tab: title, type, the
 * two dates, the description and the tenant's claim custom fields (the form kit). `before` stands
 * above the fields (the policy), `after` below them.
 */
export function ClaimFields({
  form,
  customFields,
  before,
  after,
}: {
  form: Pick<ClaimFormState, 'values' | 'setValues' | 'errors' | 'busy'>;
  customFields: readonly FormField[];
  before?: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation('claims');
  const label = useClaimFieldLabel();
  const { values, errors, busy: disabled } = form;
  const onChange = form.setValues;
  const set = <K extends keyof ClaimValues>(field: K, value: ClaimValues[K]) =>
    onChange((current) => ({ ...current, [field]: value }));
  return (
    <>
      {before}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <TextInput
            name="title"
            label={label('title')}
            value={values.title}
            required
            maxLength={TITLE_MAX}
            disabled={disabled}
            errors={errors.title}
            onChange={(value) => set('title', value)}
          />
        </div>
        <SelectInput
          name="claimType"
          label={label('claimType')}
          value={values.claimType}
          required
          disabled={disabled}
          errors={errors.claimType}
          options={CLAIM_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
          onChange={(value) => set('claimType', value as ClaimValues['claimType'])}
        />
        <span aria-hidden="true" />
        <DateInput
          name="damageDate"
          label={label('damageDate')}
          value={values.damageDate}
          required
          disabled={disabled}
          errors={errors.damageDate}
          onChange={(value) => set('damageDate', value)}
        />
        <DateInput
          name="notificationDate"
          label={label('notificationDate')}
          value={values.notificationDate}
          required
          disabled={disabled}
          errors={errors.notificationDate}
          onChange={(value) => set('notificationDate', value)}
        />
        <div className="sm:col-span-2">
          <TextareaInput
            name="description"
            label={label('description')}
            value={values.description}
            hint={t('fields.description_hint', { max: DESCRIPTION_MAX })}
            disabled={disabled}
            errors={errors.description}
            onChange={(value) => set('description', value)}
          />
        </div>
      </div>
      {customFields.length ? (
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-sm font-semibold text-slate-900">
            {label('customFields')}
          </legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <CustomFormFields
              fields={customFields}
              values={values.custom}
              errors={customErrorsOf(errors)}
              disabled={disabled}
              onChange={(name, value) =>
                onChange((current) => ({
                  ...current,
                  custom: { ...current.custom, [name]: value },
                }))
              }
            />
          </div>
        </fieldset>
      ) : null}
      {after}
    </>
  );
}
