import { useEffect, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductField } from '#client/api/products-client.ts';
import { getPartner } from '#client/api/partners-client.ts';
import { CustomFormFields } from '#client/ui/form/custom-form-fields.tsx';
import { formatDate, formatDateTime } from '#client/ui/form/dates.ts';
import { translateMessage } from '#client/ui/form/messages.ts';
import { PartnerSelector, type PartnerChoice } from '#client/entities/partner/partner-selector.tsx';
import {
  controlOf,
  fieldAt,
  fieldPath,
  formatNumber,
  issueMessage,
  optionsOf,
  optionTextKey,
  type ApplicationObject,
  type ApplicationValues,
} from './application-values.ts';
import type { ApplicationFormState } from './use-application-form.ts';

/** The system fields of the 'default' object (spec, section 3) have texts in every language. */
const SYSTEM_FIELD_KEYS: Readonly<Record<string, string>> = {
  policyStartDate: 'policy_start_date',
  policyDurationUnit: 'policy_duration_unit',
  policyDurationValue: 'policy_duration_value',
  billingFrequencyUnit: 'billing_frequency_unit',
  billingFrequencyValue: 'billing_frequency_value',
  policyRenewalFrequency: 'policy_renewal_frequency',
  recurringBillingDay: 'recurring_billing_day',
  recurringPaymentDay: 'recurring_payment_day',
  billingMethod: 'billing_method',
  isRecurringBilling: 'is_recurring_billing',
  brokerID: 'broker_id',
};

/** Labels, options, hints and messages of the generated controls, in the reader's language. */
export function useFieldTexts() {
  const { t, i18n } = useTranslation('applications');
  // Encoded messages name `ui` keys (fieldRequired) or carry their namespace (`applications:`).
  const { t: tUi } = useTranslation('ui');
  const language = i18n.language;
  const translate = (message: string) =>
    translateMessage((key, values) => tUi(key as never, values), message);
  const sectionTitle = (object: ApplicationObject) =>
    object.name === 'default' ? t('sections.policy') : object.label;
  const fieldLabel = (object: ApplicationObject, field: ProductField) => {
    const key =
      object.name === 'default' && Object.hasOwn(SYSTEM_FIELD_KEYS, field.name)
        ? SYSTEM_FIELD_KEYS[field.name]
        : undefined;
    return key ? t(`system_fields.${key}` as 'system_fields.policy_start_date') : field.label;
  };
  const optionLabel = (field: ProductField, value: string) =>
    t(optionTextKey(field.kind ?? '', value), { defaultValue: value });
  const rangeHint = (field: ProductField): string | undefined => {
    const { minimum: min, maximum: max } = field;
    if (min !== null && max !== null) {
      return t('hints.between', {
        min: formatNumber(min, language),
        max: formatNumber(max, language),
      });
    }
    if (min !== null) return t('hints.at_least', { min: formatNumber(min, language) });
    if (max !== null) return t('hints.at_most', { max: formatNumber(max, language) });
    return undefined;
  };
  /** A stored or typed value in the reader's formats (view mode, read-only fields). */
  const valueText = (field: ProductField, value: string | boolean | undefined): string => {
    if (typeof value === 'boolean') return value ? t('view.yes') : t('view.no');
    if (!value) return t('view.empty');
    switch (controlOf(field)) {
      case 'number':
        return Number.isFinite(Number(value)) ? formatNumber(Number(value), language) : value;
      case 'date':
        return formatDate(value) || value;
      case 'dateTime':
        return formatDateTime(value) || value;
      case 'select':
        return optionLabel(field, value);
      default:
        return value;
    }
  };
  /**
   * An issue the form shows apart from the inputs (at a read-only field, an object, another part
   * of the body) as one line: the field's label and the message, or the message alone.
   */
  const issueLine = (
    objects: readonly ApplicationObject[],
    issue: { path: string; code: string; limit?: number },
  ): string => {
    const found = fieldAt(objects, issue.path);
    if (!found) {
      const field = { type: 'string' as const, label: issue.path };
      return translate(issueMessage(issue.code, field, language, issue.limit));
    }
    const label = fieldLabel(found.object, found.field);
    const message = issueMessage(issue.code, { ...found.field, label }, language, issue.limit);
    return `${label}: ${translate(message)}`;
  };
  return {
    t,
    language,
    translate,
    sectionTitle,
    fieldLabel,
    optionLabel,
    rangeHint,
    valueText,
    issueLine,
  };
}

/**
 * The controls of an application, one section per insured object ('default', the policy,
 * first), generated from the product version's fields. A field shows the shared check's verdict
 * once the user has left it, or after a submit. Fields the caller marks read-only (a policy
 * draft's contract term) show their value, not a control.
 */
export function ApplicationFields({
  accountIndex,
  form,
  disabled = false,
  readOnly,
}: {
  accountIndex: number;
  form: ApplicationFormState;
  disabled?: boolean;
  readOnly?: (object: ApplicationObject, field: ProductField) => boolean;
}) {
  const texts = useFieldTexts();
  const { language } = texts;
  // Any control of the section reports its name (the field's path) when the user leaves it.
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (name) form.touch(name);
  };
  return (
    <div className="flex flex-col gap-6">
      {form.objects.map((object) => {
        const headingId = `application-object-${object.id}`;
        const fixed = readOnly ? object.productFields.filter((f) => readOnly(object, f)) : [];
        const editable = object.productFields.filter((f) => !fixed.includes(f));
        return (
          <section
            key={object.id}
            aria-labelledby={headingId}
            className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
            onBlur={onBlur}
          >
            <h2 id={headingId} className="text-lg font-semibold text-slate-900">
              {texts.sectionTitle(object)}
            </h2>
            {fixed.length ? (
              <FieldValues
                accountIndex={accountIndex}
                texts={texts}
                object={object}
                fields={fixed}
                values={form.values}
              />
            ) : null}
            <div className="grid gap-4 sm:grid-cols-2">
              {editable.map((field) => {
                const path = fieldPath(object.name, field.name);
                const label = texts.fieldLabel(object, field);
                const issue = form.shownIssue(path);
                const message = issue
                  ? issueMessage(issue.code, { ...field, label }, language, issue.limit)
                  : null;
                const control = controlOf(field);
                if (control === 'partner') {
                  return (
                    <PartnerField
                      key={path}
                      accountIndex={accountIndex}
                      name={path}
                      label={label}
                      required={field.isRequired}
                      disabled={disabled}
                      code={typeof form.values[path] === 'string' ? form.values[path] : ''}
                      error={message ? texts.translate(message) : undefined}
                      onChange={(value) => {
                        form.setValue(path, value);
                        form.touch(path);
                      }}
                    />
                  );
                }
                const hint = control === 'number' ? texts.rangeHint(field) : undefined;
                return (
                  <CustomFormFields
                    key={path}
                    fields={[
                      {
                        name: path,
                        label,
                        control,
                        required: field.isRequired,
                        ...(control === 'select'
                          ? {
                              options: optionsOf(field).map((value) => ({
                                value,
                                label: texts.optionLabel(field, value),
                              })),
                            }
                          : {}),
                        ...(hint ? { hint } : {}),
                      },
                    ]}
                    values={form.values}
                    errors={message ? { [path]: [message] } : {}}
                    disabled={disabled}
                    onChange={(name, value) => {
                      form.setValue(name, value as string | boolean);
                      // A choice is complete at once; typed text is judged when the user leaves.
                      if (control === 'select' || control === 'checkbox') form.touch(name);
                    }}
                  />
                );
              })}
            </div>
          </section>
        );
      })}
    </div>
  );
}

/** The partner selector for a field holding a partner's code; the name is looked up once. */
function PartnerField({
  accountIndex,
  name,
  label,
  required,
  disabled,
  code,
  error,
  onChange,
}: {
  accountIndex: number;
  name: string;
  label: string;
  required: boolean;
  disabled: boolean;
  code: string;
  error: string | undefined;
  onChange: (code: string) => void;
}) {
  const { t } = useTranslation('applications');
  const [choice, setChoice] = usePartnerChoice(accountIndex, code);
  return (
    <PartnerSelector
      accountIndex={accountIndex}
      name={name}
      value={choice}
      required={required}
      disabled={disabled}
      error={error}
      onChange={(partner) => {
        setChoice(partner);
        onChange(partner?.code ?? '');
      }}
      texts={{
        label,
        placeholder: t('partner.placeholder'),
        open: t('partner.open', { field: label }),
        loading: t('partner.loading'),
        noOptions: t('partner.no_options'),
        loadMore: t('partner.load_more'),
        clear: t('partner.clear', { field: label }),
        error: t('forms.messages.error'),
      }}
    />
  );
}

/** The partner of a code with its display name (the code itself when it cannot be read). */
function usePartnerChoice(accountIndex: number, code: string) {
  const [choice, setChoice] = useState<PartnerChoice | null>(null);
  const known = choice?.code === code;
  useEffect(() => {
    if (!code || known) return;
    const controller = new AbortController();
    getPartner(accountIndex, code, controller.signal)
      .then(({ partner }) => setChoice({ code: partner.code, displayName: partner.displayName }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('partner failed', error);
        setChoice({ code, displayName: code });
      });
    return () => controller.abort();
  }, [accountIndex, code, known]);
  return [code ? choice : null, setChoice] as const;
}

/**
 * The application read-only (view mode): each section as a description list of the fields'
 * values in the reader's formats.
 */
export function ApplicationSummary({
  accountIndex,
  objects,
  values,
}: {
  accountIndex: number;
  objects: readonly ApplicationObject[];
  values: ApplicationValues;
}) {
  const texts = useFieldTexts();
  return (
    <div className="flex flex-col gap-6">
      {objects.map((object) => {
        const headingId = `application-summary-${object.id}`;
        return (
          <section
            key={object.id}
            aria-labelledby={headingId}
            className="rounded-lg border border-slate-200 bg-white p-4"
          >
            <h2 id={headingId} className="text-lg font-semibold text-slate-900">
              {texts.sectionTitle(object)}
            </h2>
            <div className="mt-3">
              <FieldValues
                accountIndex={accountIndex}
                texts={texts}
                object={object}
                fields={object.productFields}
                values={values}
              />
            </div>
          </section>
        );
      })}
    </div>
  );
}

/** Fields by label with their values in the reader's formats; a partner by name. */
function FieldValues({
  accountIndex,
  texts,
  object,
  fields,
  values,
}: {
  accountIndex: number;
  texts: ReturnType<typeof useFieldTexts>;
  object: ApplicationObject;
  fields: readonly ProductField[];
  values: ApplicationValues;
}) {
  return (
    <dl className="grid grid-cols-[minmax(10rem,max-content)_1fr] gap-x-6 gap-y-2 text-sm">
      {fields.map((field) => {
        const path = fieldPath(object.name, field.name);
        const value = values[path];
        return (
          <div key={path} className="contents">
            <dt className="font-medium text-slate-700">{texts.fieldLabel(object, field)}</dt>
            <dd className="text-slate-900">
              {controlOf(field) === 'partner' && value ? (
                <PartnerName accountIndex={accountIndex} code={String(value)} />
              ) : (
                texts.valueText(field, value)
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function PartnerName({ accountIndex, code }: { accountIndex: number; code: string }) {
  const [choice] = usePartnerChoice(accountIndex, code);
  return <>{choice?.displayName ?? code}</>;
}
