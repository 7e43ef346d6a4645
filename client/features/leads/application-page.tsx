import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import {
  displayNameOf,
  getAccount,
  listAccounts,
  type Account,
} from '#client/api/accounts-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  createLead,
  getLead,
  updateLead,
  type Lead,
  type LeadErrorBody,
  type LeadHolder,
} from '#client/api/leads-client.ts';
import { getProduct, type InsuredObject, type Product } from '#client/api/products-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { ConflictPanel } from '#client/ui/conflict-panel.tsx';
import { conflictRowsOf, type ConflictRow } from '#client/ui/conflict-rows.ts';
import { CustomFormFields, type FormValues } from '#client/ui/form/custom-form-fields.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import {
  checkApplication,
  fieldKey,
  fieldsOf,
  formFieldsOf,
  formObjects,
  initialValues,
  issueErrors,
  nextMonthStart,
} from './application-form.ts';
import { applicantName } from '#common/party-name.ts';
import { PolicyDataView, PremiumView } from './lead-views.tsx';
import { useLeadAbilities } from './use-lead-abilities.ts';
import { useTariff } from './use-tariff.ts';

type Mode = 'create' | 'edit' | 'view';

interface Loaded {
  product: Product;
  lead: Lead | null;
  /** The customer the application is made for, when the route names one. */
  customer: Account | null;
}

/**
 * The application (spec routes /leads/create-application/{productId}/{productVersionId?}/{bfCode?},
 * /leads/{leadCode}/edit-application/... and /view-application/..., and the customer's
 * /customers/{customerCode}/create-application/...): a simple form with one input per product
 * field, grouped by insured object. The booking funnel code is accepted and not used yet.
 */
export default function ApplicationPage() {
  const { t } = useTranslation('leads');
  const params = useParams();
  const { pathname } = useLocation();
  const abilities = useLeadAbilities();
  const { accountIndex } = abilities;
  const leadCode = params.leadCode ?? null;
  const mode: Mode = leadCode
    ? pathname.includes('/edit-application/')
      ? 'edit'
      : 'view'
    : 'create';
  const productId = params.productId ?? '';
  const customerCode = params.customerCode ?? null;

  const load = useCallback(
    async (signal: AbortSignal): Promise<Loaded> => {
      const [product, lead, customer] = await Promise.all([
        getProduct(accountIndex, productId, signal),
        leadCode ? getLead(accountIndex, leadCode, signal) : Promise.resolve(null),
        customerCode
          ? getAccount(accountIndex, customerCode, signal).then((r) => r.account)
          : Promise.resolve(null),
      ]);
      return { product, lead, customer };
    },
    [accountIndex, productId, leadCode, customerCode],
  );
  const { state, retry } = useLoad(load, 'application');
  const loaded = state.kind === 'ready' ? state.value : null;
  const versionId = loaded
    ? Number(params.productVersionId) ||
      loaded.lead?.productVersionId ||
      loaded.product.versions?.find((v) => v.status === 'active')?.id ||
      null
    : null;
  const version = loaded?.product.versions?.find((v) => v.id === versionId) ?? null;
  const tariff = useTariff(accountIndex, version?.id ?? null, true);
  usePageTitle(t(`application.title_${mode}`));

  const backTo = leadCode
    ? `/u/${accountIndex}/leads/${leadCode}`
    : customerCode
      ? `/u/${accountIndex}/customers/${customerCode}`
      : `/u/${accountIndex}/leads`;

  const frame = (body: React.ReactNode) => (
    <div className="flex flex-col gap-6">
      <Link
        to={backTo}
        className="self-start text-sm text-blue-800 underline-offset-2 hover:underline"
      >
        {leadCode
          ? t('application.back_to_lead')
          : customerCode
            ? t('application.back_to_customer')
            : t('detail.back')}
      </Link>
      <h1 className="text-2xl font-bold text-slate-900">
        {t(`application.title_${mode}`)}
        {loaded ? ` · ${loaded.product.name}` : ''}
      </h1>
      {body}
    </div>
  );

  if (state.kind === 'loading' || (state.kind === 'ready' && tariff.kind === 'loading')) {
    return frame(<Spinner label={t('loading')} />);
  }
  if (state.kind === 'failed' || tariff.kind === 'failed') {
    const missing =
      state.kind === 'failed' && state.error instanceof ApiError && state.error.status === 404;
    return frame(
      <div className="flex flex-col items-start gap-3">
        <AlertBar tone={missing ? 'warning' : 'danger'} dismissible={false}>
          {missing ? t('application.not_found') : t('errors.load_failed')}
        </AlertBar>
        {missing ? null : (
          <Button variant="secondary" onClick={state.kind === 'failed' ? retry : tariff.retry}>
            {t('actions.retry')}
          </Button>
        )}
      </div>,
    );
  }
  const ready = state.value;
  const known = tariff.kind === 'ready' ? tariff.value : null;
  if (!version || !known || (ready.lead && ready.lead.productId !== ready.product.id)) {
    return frame(
      <AlertBar tone="warning" dismissible={false}>
        {t('application.no_version')}
      </AlertBar>,
    );
  }
  const objects = formObjects(known.objects);

  if (mode === 'view' && ready.lead) {
    const lead = ready.lead;
    return frame(
      <div className="flex flex-col gap-6">
        <p className="text-sm text-slate-700">
          {t('application.view_note', { number: lead.leadNumber, applicant: applicantName(lead) })}
        </p>
        <PolicyDataView objects={lead.policy.policyObjects} tariff={known} idPrefix="view" />
        <PremiumView premium={lead.premium} tariff={known} />
        {abilities.canUpdate ? (
          <Link
            to={`/u/${accountIndex}/leads/${lead.code}/edit-application/${lead.productId}/${lead.productVersionId}`}
            className="self-start rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
          >
            {t('application.edit')}
          </Link>
        ) : null}
      </div>,
    );
  }

  return frame(
    <ApplicationForm
      key={`${version.id}-${ready.lead?.code ?? ''}`}
      mode={mode === 'edit' ? 'edit' : 'create'}
      accountIndex={accountIndex}
      product={ready.product}
      versionId={version.id}
      onSale={version.status === 'active'}
      objects={objects}
      lead={ready.lead}
      customer={ready.customer}
      canPickCustomer={abilities.canViewCustomers}
    />,
  );
}

interface FormProps {
  mode: 'create' | 'edit';
  accountIndex: number;
  product: Product;
  versionId: number;
  onSale: boolean;
  objects: InsuredObject[];
  lead: Lead | null;
  customer: Account | null;
  canPickCustomer: boolean;
}

function ApplicationForm({
  mode,
  accountIndex,
  product,
  versionId,
  onSale,
  objects,
  lead,
  customer,
  canPickCustomer,
}: FormProps) {
  const { t } = useTranslation('leads');
  const navigate = useNavigate();
  const toast = useToast();
  const unitLabel = (unit: string) => t(`application.units.${unit as 'day'}`);
  const [base, setBase] = useState(lead);
  const [values, setValues] = useState<FormValues>(() =>
    initialValues(objects, lead?.policy.policyObjects ?? null, {
      start: nextMonthStart(new Date()),
      durationDays: product.contractDurationDays,
    }),
  );
  const [applicant, setApplicant] = useState<Applicant>(() =>
    customer
      ? { kind: 'customer', accountCode: customer.code }
      : { kind: canPickCustomer ? 'customer' : 'prospect', accountCode: '' },
  );
  const [holder, setHolder] = useState<
    Required<Pick<LeadHolder, 'firstName' | 'lastName' | 'email'>>
  >({
    firstName: '',
    lastName: '',
    email: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ saved: Lead; rows: ConflictRow<string>[] } | null>(
    null,
  );

  const labels = new Map(
    objects.flatMap((o) =>
      fieldsOf(o).map((f) => [fieldKey(o.id, f.name), `${o.label}: ${f.label}`] as const),
    ),
  );
  const asText = (policyObjects: Lead['policy']['policyObjects']) => {
    const text: Record<string, string> = {};
    for (const o of objects) {
      const data = policyObjects.find((p) => p.insuredObjectId === o.id)?.data ?? {};
      for (const f of fieldsOf(o))
        text[fieldKey(o.id, f.name)] = data[f.name] === undefined ? '' : String(data[f.name]);
    }
    return text;
  };

  const save = async (leadVersion: number | null) => {
    const checked = checkApplication(objects, values);
    // An application being edited keeps its applicant; only a new one names one.
    const applicantErrors = mode === 'edit' ? {} : applicantCheck(applicant, holder);
    setErrors({ ...(checked.ok ? {} : checked.errors), ...applicantErrors });
    if (!checked.ok || Object.keys(applicantErrors).length) return;
    setFailure(null);
    setBusy(true);
    try {
      let saved: Lead;
      if (mode === 'edit' && base && leadVersion !== null) {
        saved = await updateLead(accountIndex, base.code, {
          version: leadVersion,
          policy: {
            productVersionId: versionId,
            accountCode: base.accountCode,
            holder: base.policy.holder,
            policyObjects: checked.policyObjects,
          },
        });
        toast({ message: t('application.saved'), tone: 'success' });
      } else {
        const prospect = applicant.kind === 'prospect';
        saved = await createLead(accountIndex, {
          ...(prospect ? {} : { accountCode: applicant.accountCode }),
          policy: {
            productVersionId: versionId,
            ...(prospect
              ? {
                  holder: {
                    type: 'person' as const,
                    firstName: holder.firstName.trim(),
                    lastName: holder.lastName.trim(),
                    ...(holder.email.trim() ? { email: holder.email.trim() } : {}),
                  },
                }
              : {}),
            policyObjects: checked.policyObjects,
          },
        });
        toast({ message: t('application.created', { number: saved.leadNumber }), tone: 'success' });
      }
      void navigate(`/u/${accountIndex}/leads/${saved.code}`);
    } catch (error) {
      // What was typed stays in the form in every case below, so that nothing is lost.
      const body =
        error instanceof ApiError ? (error.body as LeadErrorBody | undefined) : undefined;
      if (error instanceof ApiError && error.code === 'version_conflict' && body?.lead && base) {
        const saved = body.lead;
        setConflict({
          saved,
          rows: conflictRowsOf(
            [...labels.keys()],
            asText(base.policy.policyObjects),
            Object.fromEntries(
              [...labels.keys()].map((k) => [k, values[k] === undefined ? '' : String(values[k])]),
            ),
            asText(saved.policy.policyObjects),
          ),
        });
      } else if (error instanceof ApiError && body?.issues?.length) {
        setErrors(issueErrors(objects, body.issues));
      } else if (error instanceof ApiError) {
        setFailure(
          error.code === 'lead_closed'
            ? t('errors.lead_closed')
            : error.status === 400 || error.status === 409
              ? t('application.refused', { message: error.message })
              : error.status === 403
                ? t('errors.forbidden')
                : t('errors.generic'),
        );
      } else {
        console.error('application save failed', error);
        setFailure(t('errors.generic'));
      }
    } finally {
      setBusy(false);
    }
  };

  const overwrite = (saved: Lead) => {
    setBase(saved);
    void save(saved.version);
  };
  const loadSaved = (saved: Lead) => {
    setBase(saved);
    setValues(initialValues(objects, saved.policy.policyObjects, { start: '', durationDays: 0 }));
    setErrors({});
    setConflict(null);
  };

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      {onSale ? null : (
        <AlertBar tone="warning" dismissible={false}>
          {t('application.not_on_sale')}
        </AlertBar>
      )}
      {conflict ? (
        <ConflictPanel
          translate={(key, values) => t(key, values)}
          conflict={conflict}
          label={(key) => labels.get(key) ?? key}
          shown={(_key, value) => (value === '' ? t('values.empty') : value)}
          busy={busy}
          testIdPrefix="application-conflict"
          onLoadSaved={loadSaved}
          onOverwrite={overwrite}
        />
      ) : null}
      <form
        noValidate
        aria-label={t(`application.title_${mode}`)}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void save(base?.version ?? null);
        }}
        className="flex flex-col gap-6"
      >
        <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 p-4">
          <legend className="px-1 font-semibold text-slate-900">
            {t('application.applicant')}
          </legend>
          {mode === 'edit' && base ? (
            <p className="text-sm text-slate-800">{applicantName(base)}</p>
          ) : customer ? (
            <p className="text-sm text-slate-800">
              {displayNameOf(customer)} ({customer.accountNumber})
            </p>
          ) : (
            <ApplicantFields
              accountIndex={accountIndex}
              canPickCustomer={canPickCustomer}
              applicant={applicant}
              holder={holder}
              errors={errors}
              disabled={busy}
              onApplicant={setApplicant}
              onHolder={setHolder}
            />
          )}
        </fieldset>
        {objects.map((object) => (
          <fieldset
            key={object.id}
            className="flex flex-col gap-3 rounded-md border border-slate-300 p-4"
          >
            <legend className="px-1 font-semibold text-slate-900">{object.label}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <CustomFormFields
                fields={formFieldsOf(object, unitLabel)}
                values={values}
                errors={errors}
                disabled={busy}
                onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
              />
            </div>
          </fieldset>
        ))}
        {errors[''] ? (
          <AlertBar tone="danger" dismissible={false}>
            {t('application.object_issues')}
          </AlertBar>
        ) : null}
        {failure ? (
          <AlertBar tone="danger" onDismiss={() => setFailure(null)}>
            {failure}
          </AlertBar>
        ) : null}
        <div>
          <Button type="submit" disabled={busy || !onSale}>
            {busy
              ? t('actions.saving')
              : t(mode === 'edit' ? 'application.save' : 'application.submit')}
          </Button>
        </div>
      </form>
    </div>
  );
}

type Applicant = { kind: 'customer' | 'prospect'; accountCode: string };
type HolderValues = { firstName: string; lastName: string; email: string };

function applicantCheck(applicant: Applicant, holder: HolderValues): FieldErrors {
  if (applicant.kind === 'customer') {
    return applicant.accountCode
      ? {}
      : { accountCode: ['leads:application.errors.customer_required'] };
  }
  const errors: FieldErrors = {};
  if (!holder.lastName.trim()) errors.lastName = ['leads:application.errors.last_name_required'];
  if (holder.email.trim() && !v.is(v.pipe(v.string(), v.email()), holder.email.trim())) {
    errors.email = ['leads:application.errors.invalid_email'];
  }
  return errors;
}

const CUSTOMER_RESULTS = 20;

const HOLDER_FIELDS = [
  { name: 'firstName', label: 'application.first_name', required: false, type: 'text' },
  { name: 'lastName', label: 'application.last_name', required: true, type: 'text' },
  { name: 'email', label: 'application.email', required: false, type: 'email' },
] as const;

/** A customer found by search, or the name of a prospect who has no customer account yet. */
function ApplicantFields({
  accountIndex,
  canPickCustomer,
  applicant,
  holder,
  errors,
  disabled,
  onApplicant,
  onHolder,
}: {
  accountIndex: number;
  canPickCustomer: boolean;
  applicant: Applicant;
  holder: HolderValues;
  errors: FieldErrors;
  disabled: boolean;
  onApplicant: (applicant: Applicant) => void;
  onHolder: (holder: HolderValues) => void;
}) {
  const { t } = useTranslation('leads');
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<Account[] | null>(null);
  const [failed, setFailed] = useState(false);
  const wantsCustomer = applicant.kind === 'customer' && canPickCustomer;
  useEffect(() => {
    if (!wantsCustomer) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      listAccounts(
        accountIndex,
        { search: search.trim(), order: { field: 'lastName', direction: 'ASC' } },
        controller.signal,
      )
        .then((page) => {
          setFailed(false);
          setFound(page.items.slice(0, CUSTOMER_RESULTS));
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error('customer search failed', error);
          setFailed(true);
        });
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [accountIndex, search, wantsCustomer]);

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {canPickCustomer ? (
        <SelectInput
          name="applicantKind"
          label={t('application.applicant_kind')}
          value={applicant.kind}
          required
          disabled={disabled}
          options={[
            { value: 'customer', label: t('application.kind_customer') },
            { value: 'prospect', label: t('application.kind_prospect') },
          ]}
          onChange={(value) =>
            onApplicant({ kind: value === 'prospect' ? 'prospect' : 'customer', accountCode: '' })
          }
        />
      ) : null}
      {wantsCustomer ? (
        <>
          <TextInput
            name="customerSearch"
            label={t('application.customer_search')}
            value={search}
            disabled={disabled}
            onChange={setSearch}
          />
          <SelectInput
            name="accountCode"
            label={t('application.customer')}
            value={applicant.accountCode}
            required
            disabled={disabled || found === null}
            errors={errors.accountCode}
            hint={failed ? t('application.customer_search_failed') : undefined}
            options={(found ?? []).map((a) => ({
              value: a.code,
              label: `${displayNameOf(a)} (${a.accountNumber}, ${a.city})`,
            }))}
            onChange={(value) => onApplicant({ kind: 'customer', accountCode: value })}
          />
        </>
      ) : (
        HOLDER_FIELDS.map(({ name, label, required, type }) => (
          <TextInput
            key={name}
            name={name}
            type={type}
            label={t(label)}
            value={holder[name]}
            required={required}
            disabled={disabled}
            errors={errors[name]}
            onChange={(value) => onHolder({ ...holder, [name]: value })}
          />
        ))
      )}
    </div>
  );
}
