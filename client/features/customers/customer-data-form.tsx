import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { fieldIssues } from '#client/api/error-text.ts';
import { createAccount, patchAccount, type Account } from '#client/api/accounts-client.ts';
import { getPartner } from '#client/api/partners-client.ts';
import { ACCOUNT_GENDERS, ACCOUNT_TITLES, type AccountInput } from '#common/account-fields.ts';
import { RecordEditForm } from '#client/entities/record/record-edit-form.tsx';
import { usePersonName } from '#client/entities/person/person-name.ts';
import { useRecordSave } from '#client/entities/record/use-record-edit.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { formatDate, formatDateTime } from '#client/ui/form/dates.ts';
import { DateInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { PartnerSelector, type PartnerChoice } from '#client/entities/partner/partner-selector.tsx';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import {
  conflictRows,
  validateCustomer,
  emptyValues,
  valuesOf,
  type CustomerField,
  type CustomerValues,
} from './customer-form.ts';
import type { CustomerAbilities } from './use-customer-abilities.ts';

// Partners carrying this tag are the brokers a customer can be assigned to.
const BROKER_TAGS = ['broker'] as const;

const FIELD_LABEL_KEYS: Record<CustomerField, string> = {
  type: 'fields.type',
  title: 'fields.title',
  firstName: 'fields.first_name',
  lastName: 'fields.last_name',
  companyName: 'fields.company_name',
  email: 'fields.email',
  gender: 'fields.gender',
  street: 'fields.street',
  houseNumber: 'fields.house_number',
  zipCode: 'fields.zip_code',
  city: 'fields.city',
  birthDate: 'fields.birth_date',
  phone: 'fields.phone',
  brokerCode: 'fields.broker',
};

/** The input's fields the user changed: what a PATCH sends. */
function changesOf(input: AccountInput, changed: readonly string[]): Partial<AccountInput> {
  return Object.fromEntries(
    Object.entries(input).filter(([field]) => changed.includes(field)),
  ) as Partial<AccountInput>;
}

/** The service's 400 names the field and the rule (`{path: 'phone', code: 'invalid_phone'}`). */
function serverFieldError(error: ApiError): FieldErrors | null {
  const [issue] = fieldIssues(error);
  return issue ? { [issue.path]: [`customers:form.errors.${issue.code}`] } : null;
}

/**
 * The customer's data; with `account` null, the form for a new customer (saved with create, no
 * version yet). With the update permission it is a form that saves on top of the version
 * it was loaded with; when somebody saved in between, the service refuses (409) and the form
 * shows what they changed, keeps what this user typed, and lets the user load the saved version
 * or save over it knowingly. Without the permission it is a read-only list.
 */
export function CustomerDataForm({
  account,
  abilities,
  onSaved,
}: {
  account: Account | null;
  abilities: CustomerAbilities;
  onSaved: (account: Account) => void;
}) {
  const { t } = useTranslation(['customers', 'common']);
  const { accountIndex, canViewPartners } = abilities;
  const canUpdate = account ? abilities.canUpdate : abilities.canCreate;
  // The record the edit is based on: its version goes with the save.
  const form = useRecordSave({
    record: account,
    valuesOf,
    emptyValues,
    validate: validateCustomer,
    // An edit sends only the fields this user changed (the form's fields are the input's): what
    // another user saved in the others stays.
    send: (input: AccountInput, version, changed) =>
      (account && version !== null
        ? patchAccount(accountIndex, account.code, { ...changesOf(input, changed), version })
        : createAccount(accountIndex, input)
      ).then((r) => r.account),
    conflictRows,
    conflictOf: (error) =>
      error instanceof ApiError && error.status === 409
        ? ((error.body as { account?: Account } | undefined)?.account ?? null)
        : null,
    ...useSaveOutcome({
      fieldErrors: (error) => (error instanceof ApiError ? serverFieldError(error) : null),
      failure: (error) => {
        if (!(error instanceof ApiError)) console.error('customer save failed', error);
        return t('forms.messages.error');
      },
      onSaved,
      savedMessage: () => t('messages.saved'),
    }),
  });
  const { base, values, setValues, errors, busy } = form;
  const [broker, setBroker] = useState<PartnerChoice | null>(null);

  // The assigned broker's name: the account keeps only its code.
  const brokerCode = values.brokerCode;
  useEffect(() => {
    if (!brokerCode || !canViewPartners || broker?.code === brokerCode) return;
    const controller = new AbortController();
    getPartner(accountIndex, brokerCode, controller.signal)
      .then(({ partner }) => setBroker({ code: partner.code, displayName: partner.displayName }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('broker failed', error);
        setBroker({ code: brokerCode, displayName: brokerCode });
      });
    return () => controller.abort();
  }, [accountIndex, brokerCode, canViewPartners, broker?.code]);

  const set = <K extends keyof CustomerValues>(field: K, value: CustomerValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  const shown = (field: CustomerField, value: string): string => {
    if (value === '') return t('conflict.empty');
    if (field === 'type') return t(`types.${value as Account['type']}`);
    if (field === 'gender') return t(`genders.${value as Account['gender']}`);
    if (field === 'birthDate') return formatDate(value);
    if (field === 'brokerCode' && value === broker?.code) return broker.displayName;
    return value;
  };

  const label = (field: CustomerField) => t(FIELD_LABEL_KEYS[field] as 'fields.type');
  const person = values.type === 'person';

  // Every text field of the form is wired the same way.
  const textInput = (
    field:
      | 'firstName'
      | 'lastName'
      | 'companyName'
      | 'email'
      | 'phone'
      | 'street'
      | 'houseNumber'
      | 'zipCode'
      | 'city',
    extra: { required?: boolean; type?: 'email' | 'tel'; hint?: string } = {},
  ) => (
    <TextInput
      name={field}
      label={label(field)}
      value={values[field]}
      disabled={busy}
      errors={errors[field]}
      onChange={(v) => set(field, v)}
      {...extra}
    />
  );

  if (!canUpdate) {
    const fields: CustomerField[] = person
      ? ['title', 'firstName', 'lastName', 'gender', 'birthDate']
      : ['companyName'];
    return (
      <section aria-labelledby="customer-data" className="flex max-w-3xl flex-col gap-4 pt-4">
        <h2 id="customer-data" className="text-xl font-semibold text-slate-900">
          {t('detail.data')}
        </h2>
        <p className="text-sm text-slate-700" data-testid="read-only-note">
          {t('detail.read_only')}
        </p>
        <dl className="grid grid-cols-[minmax(10rem,max-content)_1fr] gap-x-6 gap-y-2 text-sm">
          {[
            ...fields,
            ...(['email', 'phone', 'street', 'houseNumber', 'zipCode', 'city'] as const),
            ...(canViewPartners ? (['brokerCode'] as const) : []),
          ].map((field) => (
            <div key={field} className="contents">
              <dt className="font-medium text-slate-800">{label(field)}</dt>
              <dd className="text-slate-800">{shown(field, values[field])}</dd>
            </div>
          ))}
        </dl>
        {base ? <Audit account={base} /> : null}
      </section>
    );
  }

  return (
    <section aria-labelledby="customer-data" className="flex max-w-3xl flex-col gap-4 pt-4">
      <h2 id="customer-data" className="text-xl font-semibold text-slate-900">
        {t('detail.data')}
      </h2>
      <RecordEditForm
        form={form}
        translate={(key, values) => t(key, values)}
        label={label}
        shown={shown}
        onLoadSaved={onSaved}
        submitLabel={
          busy ? t('actions.saving') : base ? t('common:actions.save') : t('actions.create')
        }
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectInput
            name="type"
            label={label('type')}
            value={values.type}
            required
            disabled={busy}
            errors={errors.type}
            options={(['person', 'org'] as const).map((v) => ({
              value: v,
              label: t(`types.${v}`),
            }))}
            onChange={(v) => set('type', (v || 'person') as Account['type'])}
          />
          {person ? (
            <SelectInput
              name="title"
              label={label('title')}
              value={values.title}
              disabled={busy}
              errors={errors.title}
              options={ACCOUNT_TITLES.filter(Boolean).map((v) => ({ value: v, label: v }))}
              onChange={(v) => set('title', v as Account['title'])}
            />
          ) : (
            textInput('companyName', { required: true })
          )}
          {person ? (
            <>
              {textInput('firstName', { required: true })}
              {textInput('lastName', { required: true })}
              <SelectInput
                name="gender"
                label={label('gender')}
                value={values.gender}
                disabled={busy}
                errors={errors.gender}
                options={ACCOUNT_GENDERS.map((v) => ({ value: v, label: t(`genders.${v}`) }))}
                onChange={(v) => set('gender', (v || 'unspecified') as Account['gender'])}
              />
              <DateInput
                name="birthDate"
                label={label('birthDate')}
                value={values.birthDate}
                disabled={busy}
                errors={errors.birthDate}
                onChange={(v) => set('birthDate', v)}
              />
            </>
          ) : null}
          {textInput('email', { required: true, type: 'email' })}
          {textInput('phone', { type: 'tel', hint: t('fields.phone_hint') })}
          {textInput('street', { required: true })}
          {textInput('houseNumber', { required: true })}
          {textInput('zipCode', { required: true })}
          {textInput('city', { required: true })}
        </div>
        {canViewPartners ? (
          <div className="max-w-md">
            <PartnerSelector
              accountIndex={accountIndex}
              tagSlugs={BROKER_TAGS}
              name="broker"
              disabled={busy}
              value={
                values.brokerCode ? (broker ?? { code: values.brokerCode, displayName: '' }) : null
              }
              onChange={(choice) => {
                setBroker(choice);
                set('brokerCode', choice?.code ?? '');
              }}
              texts={{
                label: label('brokerCode'),
                placeholder: t('partner_selector.placeholder'),
                open: t('partner_selector.open'),
                loading: t('partner_selector.loading'),
                noOptions: t('partner_selector.no_options'),
                loadMore: t('partner_selector.load_more'),
                clear: t('partner_selector.clear'),
                error: t('forms.messages.error'),
              }}
            />
          </div>
        ) : null}
      </RecordEditForm>
      {base ? <Audit account={base} /> : null}
    </section>
  );
}

function Audit({ account }: { account: Account }) {
  const { t } = useTranslation('customers');
  const savedBy = usePersonName(account.updatedBy);
  return (
    <p className="text-xs text-slate-600" data-testid="customer-version" title={savedBy.title}>
      {t('detail.audit', {
        version: account.version,
        at: formatDateTime(account.updatedAt),
        by: savedBy.label,
      })}
    </p>
  );
}
