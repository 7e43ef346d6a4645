import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Account } from '#client/api/accounts-client.ts';
import { customerQueries } from '#client/api/accounts-queries.ts';
import { createPolicy, issuesOf } from '#client/api/applications-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { formulaRefusalText } from '#client/entities/product/formula-issue.ts';
import type { Product, ProductVersion } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { AlertBar, type AlertTone } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { allLoaded, loadStateOf, retryFailed } from '#client/ui/load-state.ts';
import { ApplicationForm } from '#client/entities/application/application-form.tsx';
import { initialValues, splitIssues } from '#client/entities/application/application-values.ts';
import {
  useApplicationForm,
  useFieldFocus,
} from '#client/entities/application/use-application-form.ts';
import {
  useApplicationTariff,
  type ApplicationTariff,
} from '#client/entities/application/use-application-tariff.ts';
import { BackLink } from '#client/ui/record-page.tsx';

const holderName = (account: Account) =>
  account.type === 'org'
    ? (account.companyName ?? '')
    : [account.title, account.firstName, account.lastName].filter(Boolean).join(' ');

/** Only an active version sells (the service answers 409 otherwise); the newest first. */
const sellableVersions = (product: Product): ProductVersion[] =>
  (product.versions ?? [])
    .filter((version) => version.status === 'active')
    .sort((a, b) => b.version - a.version);

/**
 * /customers/{customerCode}/create-policy/{productId} (spec, section 2): a policy sold to a
 * customer, who holds it. The form is generated from the product's active version (a chooser
 * when there are several, kept in `?version=`), shows the premium as it is filled in, and creates
 * the policy, which then opens.
 */
export default function CreatePolicyPage() {
  const { t } = useTranslation(['applications', 'common']);
  const { customerCode = '', productId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const { accountIndex } = useAccountAccess();
  const queryClient = useQueryClient();
  const queries = useQueries({
    queries: [
      customerQueries.detail(accountIndex, customerCode),
      productQueries.detail(accountIndex, productId),
    ],
  });
  const [customerQuery, productQuery] = queries;
  const loaded = allLoaded<[Account, Product]>([
    loadStateOf(customerQuery),
    loadStateOf(productQuery),
  ]);
  const retry = () => retryFailed(queries);
  // The version chosen is no longer on sale: the product's versions as they are now.
  const refresh = () =>
    void queryClient.invalidateQueries({
      queryKey: productQueries.detail(accountIndex, productId).queryKey,
    });
  const product = loaded.kind === 'ready' ? loaded.value[1] : null;
  usePageTitle(product ? t('create.title_for', { product: product.name }) : t('create.title'));
  const customerPath = `/u/${accountIndex}/customers/${encodeURIComponent(customerCode)}`;

  let body = null;
  if (loaded.kind === 'loading') body = <Spinner label={t('common:status.loading')} />;
  if (loaded.kind === 'failed') {
    body = (
      <>
        <h1 className="text-2xl font-bold text-slate-900">{t('create.title')}</h1>
        <LoadFailed error={loaded.error} onRetry={retry} />
      </>
    );
  }
  if (loaded.kind === 'ready') {
    const [customer, product] = loaded.value;
    const sellable = sellableVersions(product);
    const chosen = sellable.find((v) => String(v.id) === search.get('version')) ?? sellable[0];
    body = (
      <>
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold text-slate-900">
            {t('create.title_for', { product: product.name })}
          </h1>
          <p className="text-sm text-slate-700" data-testid="policy-holder">
            {t('create.holder', { name: holderName(customer), number: customer.accountNumber })}
          </p>
        </div>
        {sellable.length > 1 ? (
          <div className="max-w-sm">
            <SelectInput
              name="productVersion"
              label={t('create.version')}
              value={chosen ? String(chosen.id) : ''}
              options={sellable.map((v) => ({
                value: String(v.id),
                label: t('create.version_option', {
                  version: v.version,
                  description: v.description,
                }),
              }))}
              onChange={(id) => setSearch(id ? { version: id } : {}, { replace: true })}
            />
          </div>
        ) : null}
        {chosen ? (
          <TariffForm
            key={chosen.id}
            accountIndex={accountIndex}
            customer={customer}
            productVersionId={chosen.id}
            cancelPath={customerPath}
            onVersionGone={refresh}
          />
        ) : (
          <AlertBar tone="warning" dismissible={false}>
            {t('create.no_active_version')}
          </AlertBar>
        )}
      </>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <BackLink to={customerPath}>{t('create.back')}</BackLink>
      {body}
    </div>
  );
}

/** What did not load: gone (another workspace's, or deleted), or failed with a retry. */
function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('applications');
  return (
    <LoadProblem
      error={error}
      notFound={t('create.not_found')}
      failed={t('forms.messages.error')}
      onRetry={onRetry}
    />
  );
}

function TariffForm(props: {
  accountIndex: number;
  customer: Account;
  productVersionId: number;
  cancelPath: string;
  onVersionGone: () => void;
}) {
  const { t } = useTranslation(['applications', 'common']);
  const { state, retry } = useApplicationTariff(props.accountIndex, props.productVersionId);
  if (state.kind === 'loading') return <Spinner label={t('common:status.loading')} />;
  if (state.kind === 'failed') return <LoadFailed error={state.error} onRetry={retry} />;
  return <NewPolicyForm {...props} tariff={state.value} />;
}

interface Problem {
  tone: AlertTone;
  text: string;
  details?: string[];
  reload?: boolean;
}

/** The generated form with the sale's submit; every value stays whatever the service answers. */
function NewPolicyForm({
  accountIndex,
  customer,
  tariff,
  cancelPath,
  onVersionGone,
}: {
  accountIndex: number;
  customer: Account;
  tariff: ApplicationTariff;
  cancelPath: string;
  onVersionGone: () => void;
}) {
  const { t, i18n } = useTranslation(['applications', 'common']);
  const { t: tErrors } = useTranslation('errors');
  const toast = useToast();
  const navigate = useNavigate();
  const [initial] = useState(() => initialValues(tariff.objects, {}, new Date(), i18n.language));
  const form = useApplicationForm(tariff.objects, initial);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const focusField = useFieldFocus(busy);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    // The form's own check first: its alert counts the marked fields until they are corrected.
    const invalid = form.revealAll();
    if (invalid.length) {
      focusField(invalid[0]!);
      return;
    }
    setBusy(true);
    try {
      const policy = await createPolicy(accountIndex, {
        productVersionId: tariff.productVersionId,
        accountCode: customer.code,
        policyObjects: form.policyObjects,
      });
      toast({ message: t('create.created', { number: policy.policyNumber }), tone: 'success' });
      void navigate(`/u/${accountIndex}/policies/${encodeURIComponent(policy.code)}`);
    } catch (error) {
      setProblem(problemOf(error, tariff, form.showServerIssues, focusField, t, tErrors));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <ApplicationForm accountIndex={accountIndex} tariff={tariff} form={form} disabled={busy}>
        {problem ? (
          <AlertBar tone={problem.tone} dismissible={false}>
            <p>{problem.text}</p>
            {problem.details?.length ? (
              <ul className="mt-1 list-disc pl-5">
                {problem.details.map((detail) => (
                  <li key={detail}>{detail}</li>
                ))}
              </ul>
            ) : null}
            {problem.reload ? (
              <Button variant="secondary" className="mt-2" onClick={onVersionGone}>
                {t('create.reload_product')}
              </Button>
            ) : null}
          </AlertBar>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? t('create.creating') : t('create.submit')}
          </Button>
          <Link
            to={cancelPath}
            className="inline-flex items-center rounded-md px-4 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100"
          >
            {t('create.cancel')}
          </Link>
        </div>
      </ApplicationForm>
    </form>
  );
}

/**
 * What the user is told when the sale is refused: issues of fields at the fields (the first one
 * focused), others listed; a version no longer active with a way to the current one; anything
 * else the generic message. The form keeps every value in each case.
 */
function problemOf(
  error: unknown,
  tariff: ApplicationTariff,
  showServerIssues: (issues: { path: string; code: string }[]) => void,
  focusField: (path: string) => void,
  t: ReturnType<typeof useTranslation<['applications', 'common']>>['t'],
  tErrors: TFunction<'errors'>,
): Problem {
  // A premium formula that cannot be computed over these values names itself and why.
  const formula = formulaRefusalText(tErrors, error);
  if (formula) return { tone: 'danger', text: formula };
  if (error instanceof ApiError && error.status === 400 && issuesOf(error.body).length) {
    const { atFields, others } = splitIssues(tariff.objects, issuesOf(error.body));
    showServerIssues(atFields);
    if (atFields[0]) focusField(atFields[0].path);
    return {
      tone: 'danger',
      text: t('create.refused'),
      details: others.map((issue) =>
        t(`create.issues.${issue.code}` as 'create.issues.unknown_account', {
          defaultValue: t('create.issues.other', { path: issue.path }),
        }),
      ),
    };
  }
  if (
    error instanceof ApiError &&
    error.status === 409 &&
    error.code === 'product_version_not_active'
  ) {
    return { tone: 'warning', text: t('create.version_not_active'), reload: true };
  }
  if (!(error instanceof ApiError)) console.error('policy sale failed', error);
  return { tone: 'danger', text: t('forms.messages.error') };
}
