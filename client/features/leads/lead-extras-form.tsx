import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { fieldIssues } from '#client/api/error-text.ts';
import { updateLead, type Lead, type LeadErrorBody } from '#client/api/leads-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { RecordEditForm } from '#client/entities/record/record-edit-form.tsx';
import { useVersionedSave } from '#client/entities/record/use-record-edit.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { RowButton } from '#client/ui/row-button.tsx';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { PAYMENT_METHOD_TYPES } from '#common/leads.ts';
import {
  changedExtras,
  extrasChangesOf,
  extrasConflictRows,
  extrasValuesOf,
  type ExtrasField,
  type ExtrasInput,
  type ExtrasValues,
} from './lead-extras.ts';

const LABEL_KEYS: Record<
  ExtrasField,
  'form.payment_type' | 'form.iban' | 'form.holder_name' | 'form.custom_data'
> = {
  paymentType: 'form.payment_type',
  iban: 'form.iban',
  holderName: 'form.holder_name',
  customData: 'form.custom_data',
};

/** The service's 400 names the field and the rule (`paymentMethod.sepa.iban`, `invalid_iban`). */
function serverFieldError(error: ApiError): FieldErrors | null {
  const [issue] = fieldIssues(error);
  if (!issue) return null;
  const { path } = issue;
  const field = path.endsWith('.iban')
    ? 'iban'
    : path.endsWith('.holderName')
      ? 'holderName'
      : 'customData';
  return { [field]: [`leads:form.errors.${issue.code}`] };
}

/**
 * How the premium is paid and the lead's free data. Saves on top of the version it was loaded
 * with; when somebody saved in between, the service refuses (409) and the form shows what they
 * changed, keeps what this user typed, and lets the user load the saved lead or save over it
 * knowingly (the customer form's flow, with the same panel).
 */
export function LeadExtrasForm({
  lead,
  accountIndex,
  onSaved,
  onReload,
}: {
  lead: Lead;
  accountIndex: number;
  onSaved: (lead: Lead) => void;
  /** Loads the saved lead into the page (its versions too). */
  onReload: () => void;
}) {
  const { t } = useTranslation('leads');
  const form = useVersionedSave({
    record: lead,
    valuesOf: extrasValuesOf,
    validate: extrasChangesOf,
    // Only the part the user changed goes: another user's change to the other part stays.
    send: (input: ExtrasInput, version, changed) =>
      updateLead(accountIndex, lead.code, { ...changedExtras(input, changed), version }),
    conflictRows: extrasConflictRows,
    conflictOf: (error) =>
      error instanceof ApiError && error.code === 'version_conflict'
        ? ((error.body as LeadErrorBody | undefined)?.lead ?? null)
        : null,
    ...useSaveOutcome({
      fieldErrors: (error) => (error instanceof ApiError ? serverFieldError(error) : null),
      failure: (error) => {
        if (error instanceof ApiError && error.code === 'lead_closed') {
          return t('errors.lead_closed');
        }
        if (!(error instanceof ApiError)) console.error('lead save failed', error);
        return t('errors.generic');
      },
      onSaved,
      savedMessage: () => t('messages.saved'),
    }),
  });
  const { base, setBase, values, setValues, errors, busy } = form;

  // A newer lead from the page (this user moved its status, or the page reloaded it): when its
  // payment and custom data are what this form was based on, it becomes the base, and what is
  // typed stays; other changes replace an untouched form, and meet a touched one as a conflict.
  // In an effect: the form's state lives in its statechart, which must not change in a render.
  const seen = useRef(lead);
  useEffect(() => {
    if (lead === seen.current) return;
    seen.current = lead;
    if (lead.version > base.version) {
      const untouched = JSON.stringify(values) === JSON.stringify(extrasValuesOf(base));
      if (!extrasConflictRows(base, values, lead).length) setBase(lead);
      else if (untouched) form.loadSaved(lead);
    }
  }, [lead, base, values, form, setBase]);

  const set = <K extends keyof ExtrasValues>(field: K, value: ExtrasValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const setEntry = (row: number, part: 'key' | 'value', text: string) =>
    set(
      'custom',
      values.custom.map((entry, i) => (i === row ? { ...entry, [part]: text } : entry)),
    );

  const label = (field: ExtrasField) => t(LABEL_KEYS[field]);
  const shown = (field: ExtrasField, value: string) => {
    if (value === '') return t('values.empty');
    if (field === 'paymentType') return t(`payment.${value as 'sepa'}`);
    return value;
  };

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <RecordEditForm
        form={form}
        translate={(key, values) => t(key, values)}
        label={label}
        shown={shown}
        onLoadSaved={onReload}
        ariaLabel={t('form.title')}
        submitLabel={busy ? t('actions.saving') : t('actions.save')}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectInput
            name="paymentType"
            label={label('paymentType')}
            value={values.paymentType}
            disabled={busy}
            options={PAYMENT_METHOD_TYPES.map((type) => ({
              value: type,
              label: t(`payment.${type}`),
            }))}
            onChange={(value) => set('paymentType', value as ExtrasValues['paymentType'])}
          />
          <span aria-hidden="true" />
          {values.paymentType === 'sepa' ? (
            <>
              <TextInput
                name="iban"
                label={label('iban')}
                value={values.iban}
                required
                disabled={busy}
                errors={errors.iban}
                hint={t('form.iban_hint')}
                onChange={(value) => set('iban', value)}
              />
              <TextInput
                name="holderName"
                label={label('holderName')}
                value={values.holderName}
                disabled={busy}
                errors={errors.holderName}
                onChange={(value) => set('holderName', value)}
              />
            </>
          ) : null}
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-semibold text-slate-900">
            {label('customData')}
          </legend>
          {values.custom.map((entry, row) => (
            <div key={row} className="flex flex-wrap items-start gap-2">
              <div className="w-48">
                <TextInput
                  name={`customKey${row}`}
                  label={t('form.custom_key', { n: row + 1 })}
                  value={entry.key}
                  disabled={busy}
                  errors={errors[`custom.${row}`]}
                  onChange={(value) => setEntry(row, 'key', value)}
                />
              </div>
              <div className="min-w-64 flex-1">
                <TextInput
                  name={`customValue${row}`}
                  label={t('form.custom_value', { n: row + 1 })}
                  value={entry.value}
                  disabled={busy}
                  onChange={(value) => setEntry(row, 'value', value)}
                />
              </div>
              <div className="pt-7">
                <RowButton
                  label={t('form.custom_remove')}
                  name={t('form.custom_remove_named', { n: row + 1 })}
                  onClick={() =>
                    set(
                      'custom',
                      values.custom.filter((_, i) => i !== row),
                    )
                  }
                />
              </div>
            </div>
          ))}
          {Object.keys(values.kept).length ? (
            <p className="text-xs text-slate-600">
              {t('form.custom_kept', { keys: Object.keys(values.kept).join(', ') })}
            </p>
          ) : null}
          {errors.customData ? (
            <AlertBar tone="danger" dismissible={false}>
              {errors.customData.map((key) => t(key as 'errors.generic')).join(' ')}
            </AlertBar>
          ) : null}
          <div>
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => set('custom', [...values.custom, { key: '', value: '' }])}
            >
              {t('form.custom_add')}
            </Button>
          </div>
        </fieldset>
      </RecordEditForm>
    </div>
  );
}
