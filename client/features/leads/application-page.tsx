import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { displayNameOf, listAccounts, type Account } from '#client/api/accounts-client.ts';
import { customerQueries } from '#client/api/accounts-queries.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { formulaRefusalText } from '#client/entities/product/formula-issue.ts';
import { apiErrorKey } from '#client/api/error-text.ts';
import { createLead, updateLead, type Lead, type LeadErrorBody } from '#client/api/leads-client.ts';
import { leadQueries } from '#client/api/leads-queries.ts';
import type { Product } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { useFieldTexts } from '#client/entities/application/application-fields.tsx';
import { ApplicationForm } from '#client/entities/application/application-form.tsx';
import {
  dataByName,
  fieldPath,
  initialValues,
  splitIssues,
  type ApplicationObject,
  type ApplicationValues,
} from '#client/entities/application/application-values.ts';
import {
  useApplicationForm,
  useFieldFocus,
} from '#client/entities/application/use-application-form.ts';
import {
  useApplicationTariff,
  type ApplicationTariff,
} from '#client/entities/application/use-application-tariff.ts';
import { Button } from '#client/ui/button.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { ConflictPanel } from '#client/entities/record/conflict-panel.tsx';
import { conflictRowsOf, type ConflictRow } from '#client/ui/conflict-rows.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { allLoaded, loadStateOf, mapLoaded, retryFailed } from '#client/ui/load-state.ts';
import {
  applicantCheck,
  createBody,
  EMPTY_HOLDER,
  updateBody,
  type Applicant,
  type HolderValues,
} from './application-applicant.ts';
import { applicantName } from '#common/party-name.ts';
import { PremiumView } from './lead-views.tsx';
import { useLeadAbilities } from './use-lead-abilities.ts';
import { BackLink } from '#client/ui/record-page.tsx';

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
 * /customers/{customerCode}/create-application/...): the generated application form of a policy
 * sale (client/entities/application/) with its live premium, and the lead's own part above it, who
 * applies. The booking funnel code is accepted and not used yet.
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

  const queries = useQueries({
    queries: [
      productQueries.detail(accountIndex, productId),
      { ...leadQueries.detail(accountIndex, leadCode ?? ''), enabled: leadCode !== null },
      {
        ...customerQueries.detail(accountIndex, customerCode ?? ''),
        enabled: customerCode !== null,
      },
    ],
  });
  const [productQuery, leadQuery, customerQuery] = queries;
  // A route without a lead or a customer has none to load.
  const none = { kind: 'ready', value: null } as const;
  const state = mapLoaded(
    allLoaded<[Product, Lead | null, Account | null]>([
      loadStateOf(productQuery),
      leadCode !== null ? loadStateOf(leadQuery) : none,
      customerCode !== null ? loadStateOf(customerQuery) : none,
    ]),
    ([product, lead, customer]): Loaded => ({ product, lead, customer }),
  );
  const retry = () => retryFailed(queries);
  const loaded = state.kind === 'ready' ? state.value : null;
  const versionId = loaded
    ? Number(params.productVersionId) ||
      loaded.lead?.productVersionId ||
      loaded.product.versions?.find((v) => v.status === 'active')?.id ||
      null
    : null;
  const version = loaded?.product.versions?.find((v) => v.id === versionId) ?? null;
  usePageTitle(t(`application.title_${mode}`));

  const backTo = leadCode
    ? `/u/${accountIndex}/leads/${leadCode}`
    : customerCode
      ? `/u/${accountIndex}/customers/${customerCode}`
      : `/u/${accountIndex}/leads`;

  const frame = (body: ReactNode) => (
    <div className="flex flex-col gap-6">
      <BackLink to={backTo}>
        {leadCode
          ? t('application.back_to_lead')
          : customerCode
            ? t('application.back_to_customer')
            : t('detail.back')}
      </BackLink>
      <h1 className="text-2xl font-bold text-slate-900">
        {t(`application.title_${mode}`)}
        {loaded ? ` · ${loaded.product.name}` : ''}
      </h1>
      {body}
    </div>
  );

  if (state.kind === 'loading') return frame(<Spinner label={t('loading')} />);
  if (state.kind === 'failed') return frame(<LoadFailed error={state.error} onRetry={retry} />);
  const ready = state.value;
  if (!version || (ready.lead && ready.lead.productId !== ready.product.id)) {
    return frame(
      <AlertBar tone="warning" dismissible={false}>
        {t('application.no_version')}
      </AlertBar>,
    );
  }
  return frame(
    <TariffStep
      key={`${version.id}-${ready.lead?.code ?? ''}`}
      mode={mode}
      accountIndex={accountIndex}
      versionId={version.id}
      onSale={version.status === 'active'}
      lead={ready.lead}
      customer={ready.customer}
      canPickCustomer={abilities.canViewCustomers}
      canUpdate={abilities.canUpdate}
    />,
  );
}

/** What did not load: gone (another workspace's, or deleted), or failed with a retry. */
function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('leads');
  return (
    <LoadProblem
      error={error}
      notFound={t('application.not_found')}
      failed={t('errors.load_failed')}
      onRetry={onRetry}
    />
  );
}

interface StepProps {
  mode: Mode;
  accountIndex: number;
  versionId: number;
  onSale: boolean;
  lead: Lead | null;
  customer: Account | null;
  canPickCustomer: boolean;
  canUpdate: boolean;
}

/** The product version's insured objects and formulas, then the application in its mode. */
function TariffStep(props: StepProps) {
  const { t } = useTranslation('leads');
  const { state, retry } = useApplicationTariff(props.accountIndex, props.versionId);
  if (state.kind === 'loading') return <Spinner label={t('loading')} />;
  if (state.kind === 'failed') return <LoadFailed error={state.error} onRetry={retry} />;
  if (props.mode === 'view' && props.lead) {
    return <ApplicationView {...props} lead={props.lead} tariff={state.value} />;
  }
  return <LeadApplicationForm {...props} tariff={state.value} />;
}

/** The values a lead's application starts with: its saved data, or a new one's proposal. */
const leadValues = (objects: readonly ApplicationObject[], lead: Lead | null, language: string) =>
  initialValues(
    objects,
    lead ? dataByName(lead.policy.policyObjects) : undefined,
    new Date(),
    language,
  );

/**
 * The saved application read-only, beside the lead's premium as it is stored (with the amounts
 * agreed by hand, which a live calculation would not know).
 */
function ApplicationView({
  accountIndex,
  tariff,
  lead,
  canUpdate,
}: StepProps & { lead: Lead; tariff: ApplicationTariff }) {
  const { t, i18n } = useTranslation('leads');
  const [initial] = useState(() => leadValues(tariff.objects, lead, i18n.language));
  const form = useApplicationForm(tariff.objects, initial);
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-slate-700">
        {t('application.view_note', { number: lead.leadNumber, applicant: applicantName(lead) })}
      </p>
      <ApplicationForm
        accountIndex={accountIndex}
        tariff={tariff}
        form={form}
        mode="view"
        premium={
          <section
            aria-labelledby="application-premium"
            className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
          >
            <h2 id="application-premium" className="text-lg font-semibold text-slate-900">
              {t('data.premium')}
            </h2>
            <PremiumView premium={lead.premium} tariff={tariff} />
          </section>
        }
      >
        {canUpdate ? (
          <Link
            to={`/u/${accountIndex}/leads/${lead.code}/edit-application/${lead.productId}/${lead.productVersionId}`}
            className="self-start rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
          >
            {t('application.edit')}
          </Link>
        ) : null}
      </ApplicationForm>
    </div>
  );
}

/** How the last submit ended, shown below the fields (what was typed stays). */
type Problem = { kind: 'issues'; lines: string[] } | { kind: 'failure'; text: string };

function LeadApplicationForm({
  mode,
  accountIndex,
  tariff,
  versionId,
  onSale,
  lead,
  customer,
  canPickCustomer,
}: StepProps & { tariff: ApplicationTariff }) {
  const { t, i18n } = useTranslation(['leads', 'errors']);
  const { t: tErrors } = useTranslation('errors');
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const texts = useFieldTexts();
  const { objects } = tariff;
  const [initial] = useState(() => leadValues(objects, lead, i18n.language));
  const form = useApplicationForm(objects, initial);
  const [base, setBase] = useState(lead);
  const [applicant, setApplicant] = useState<Applicant>(() =>
    customer
      ? { kind: 'customer', accountCode: customer.code }
      : { kind: canPickCustomer ? 'customer' : 'prospect', accountCode: '' },
  );
  const [holder, setHolder] = useState<HolderValues>(EMPTY_HOLDER);
  const [applicantErrors, setApplicantErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [conflict, setConflict] = useState<{ saved: Lead; rows: ConflictRow<string>[] } | null>(
    null,
  );
  const focusField = useFieldFocus(busy);

  // The conflict panel compares the fields as the reader sees them, by their paths.
  const paths = objects.flatMap((o) => o.productFields.map((f) => fieldPath(o.name, f.name)));
  const labels = new Map(
    objects.flatMap((o) =>
      o.productFields.map(
        (f) =>
          [
            fieldPath(o.name, f.name),
            `${texts.sectionTitle(o)}: ${texts.fieldLabel(o, f)}`,
          ] as const,
      ),
    ),
  );
  const asTexts = (values: ApplicationValues) =>
    Object.fromEntries(
      objects.flatMap((o) =>
        o.productFields.map((f) => {
          const path = fieldPath(o.name, f.name);
          return [path, texts.valueText(f, values[path])] as const;
        }),
      ),
    );

  const save = async (leadVersion: number | null) => {
    setProblem(null);
    // An application being edited keeps its applicant; only a new one names one.
    const applicantIssues = mode === 'edit' ? {} : applicantCheck(applicant, holder);
    setApplicantErrors(applicantIssues);
    const invalid = [...Object.keys(applicantIssues), ...form.revealAll()];
    if (invalid.length) {
      focusField(invalid[0]!);
      return;
    }
    setBusy(true);
    try {
      let saved: Lead;
      if (mode === 'edit' && base && leadVersion !== null) {
        saved = await updateLead(
          accountIndex,
          base.code,
          updateBody(base, leadVersion, versionId, form.policyObjects),
        );
        toast({ message: t('application.saved'), tone: 'success' });
      } else {
        saved = await createLead(
          accountIndex,
          createBody(versionId, form.policyObjects, applicant, holder),
        );
        toast({ message: t('application.created', { number: saved.leadNumber }), tone: 'success' });
      }
      // The lead page opens on the lead as saved, not on what the cache held before the save.
      queryClient.setQueryData(leadQueries.detail(accountIndex, saved.code).queryKey, saved);
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
            paths,
            asTexts(leadValues(objects, base, i18n.language)),
            asTexts(form.values),
            asTexts(leadValues(objects, saved, i18n.language)),
          ),
        });
      } else if (formulaRefusalText(tErrors, error)) {
        // A premium formula that cannot be computed over these values names itself and why.
        setProblem({ kind: 'failure', text: formulaRefusalText(tErrors, error)! });
      } else if (error instanceof ApiError && body?.issues?.length) {
        const { atFields, others } = splitIssues(objects, body.issues);
        form.showServerIssues(atFields);
        if (atFields[0]) focusField(atFields[0].path);
        setProblem({ kind: 'issues', lines: others.map((i) => texts.issueLine(objects, i)) });
      } else if (error instanceof ApiError) {
        setProblem({
          kind: 'failure',
          text:
            error.code === 'lead_closed'
              ? t('errors.lead_closed')
              : error.status === 400 || error.status === 409
                ? t('application.refused', { message: t(apiErrorKey(error)) })
                : error.status === 403
                  ? t('errors.forbidden')
                  : t('errors.generic'),
        });
      } else {
        console.error('application save failed', error);
        setProblem({ kind: 'failure', text: t('errors.generic') });
      }
    } finally {
      setBusy(false);
    }
  };

  const overwrite = (saved: Lead) => {
    setBase(saved);
    setConflict(null);
    void save(saved.version);
  };
  const loadSaved = (saved: Lead) => {
    setBase(saved);
    form.reset(leadValues(objects, saved, i18n.language));
    setProblem(null);
    setConflict(null);
  };

  const applicantPart = (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <legend className="px-1 font-semibold text-slate-900">{t('application.applicant')}</legend>
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
          errors={applicantErrors}
          disabled={busy}
          onApplicant={(next) => {
            setApplicant(next);
            setApplicantErrors({});
          }}
          onHolder={setHolder}
        />
      )}
    </fieldset>
  );

  return (
    <div className="flex flex-col gap-6">
      {onSale ? null : (
        <AlertBar tone="warning" dismissible={false}>
          {t('application.not_on_sale')}
        </AlertBar>
      )}
      {mode === 'edit' && base?.premiumOverride?.length ? (
        <AlertBar tone="info" dismissible={false}>
          {t('application.override_kept')}
        </AlertBar>
      ) : null}
      {conflict ? (
        <ConflictPanel
          translate={(key, values) => t(key, values)}
          conflict={conflict}
          label={(key) => labels.get(key) ?? key}
          shown={(_key, value) => value}
          busy={busy}
          testIdPrefix="application-conflict"
          onLoadSaved={loadSaved}
          onOverwrite={overwrite}
        />
      ) : null}
      <form
        noValidate
        aria-label={t(`application.title_${mode}`)}
        aria-busy={busy}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void save(base?.version ?? null);
        }}
      >
        <ApplicationForm
          accountIndex={accountIndex}
          tariff={tariff}
          form={form}
          disabled={busy}
          intro={applicantPart}
        >
          {problem?.kind === 'issues' ? (
            <AlertBar tone="danger" dismissible={false}>
              <p>{t('application.refused_fields')}</p>
              {problem.lines.length ? (
                <ul className="mt-1 list-disc pl-5">
                  {problem.lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : null}
            </AlertBar>
          ) : null}
          {problem?.kind === 'failure' ? (
            <AlertBar tone="danger" onDismiss={() => setProblem(null)}>
              {problem.text}
            </AlertBar>
          ) : null}
          <div>
            <Button type="submit" disabled={busy || !onSale}>
              {busy
                ? t('actions.saving')
                : t(mode === 'edit' ? 'application.save' : 'application.submit')}
            </Button>
          </div>
        </ApplicationForm>
      </form>
    </div>
  );
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
