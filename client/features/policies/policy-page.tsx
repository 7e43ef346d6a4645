import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PolicyBillingSection } from '#client/entities/invoice/billing-section.tsx';
import { BackLink, RecordPage, standardRecordTexts } from '#client/ui/record-page.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  HistorySection,
  historyKey,
  useFieldLabels,
} from '#client/entities/history/history-tab.tsx';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { partyName } from '#common/party-name.ts';
import type { Policy, PolicyVersion } from '#client/api/policies-client.ts';
import { policyQueries } from '#client/api/policies-queries.ts';
import { usePolicyAbilities } from '#client/api/use-policy-abilities.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { PageSection } from '#client/ui/page-section.tsx';
import { parseHashPairs, withHashPair } from '#client/ui/hash-params.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { formatUtcDate } from '#client/entities/policy/policy-display.ts';
import { formatDateTime } from '#client/ui/form/dates.ts';
import {
  PolicyStatusBadge,
  policyStatusKey,
  RevisionStatusBadge,
} from '#client/entities/policy/policy-status-badge.tsx';
import { isPolicyStatus } from '#client/api/policies-client.ts';
import { useTariff, type Tariff } from '#client/entities/product/use-tariff.ts';
import { optionTextKey } from '#client/entities/application/application-values.ts';
import { loadStateOf, type LoadState } from '#client/ui/load-state.ts';
import { tariffLabels, type TariffLabels } from './tariff-labels.ts';
import { usePolicyActions } from './policy-actions.tsx';
import { VersionTimeline } from './version-timeline.tsx';
import { PolicyPaymentMethodSection } from './policy-payment-method.tsx';
import { PolicyDocumentsSection } from './policy-documents.tsx';

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';
const cell = 'py-2 pr-4 align-middle';

/** The list the user came from (with its filters), or the plain list. */
function backPath(state: unknown, list: string): string {
  const from = (state as { policyList?: unknown } | null)?.policyList;
  return typeof from === 'string' && (from === list || from.startsWith(`${list}?`)) ? from : list;
}

/** The version shown: the one named in the hash (`#version=`), else the applied one. */
function selectedVersion(policy: Policy, hash: string): PolicyVersion | null {
  const versions = policy.versions ?? [];
  const wanted = parseHashPairs(hash).version;
  return (
    versions.find((v) => String(v.id) === wanted) ??
    versions.find((v) => v.isCurrent) ??
    versions[0] ??
    null
  );
}

/**
 * One policy (spec route /policies/{policyCode}): number, status, product, holder and start;
 * its versions newest first; the selected version's timeline with premiums and policy objects.
 */
export default function PolicyPage() {
  // The documents section's namespace too: loaded with the page's own, so that the section does
  // not suspend the page once it is shown.
  const { t, i18n } = useTranslation(['policies', 'applications', 'documents']);
  const { policyCode = '' } = useParams();
  const location = useLocation();
  const { accountIndex, canViewProducts } = usePolicyAbilities();

  const queryClient = useQueryClient();
  const query = useQuery(policyQueries.detail(accountIndex, policyCode));
  const loaded = loadStateOf(query);
  const retry = () => void query.refetch();
  // Every lifecycle write answers the policy as stored. Stable: the lifecycle hook's effect
  // depends on it.
  // The history below the versions is shown all along: it is read again with the change. A
  // version in force gets its schedule, which the document service issues just after the
  // answer and tells the workspace's sockets of (the documents section follows those).
  const replace = useCallback(
    (saved: Policy) => {
      queryClient.setQueryData(policyQueries.detail(accountIndex, policyCode).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: historyKey(accountIndex) });
    },
    [queryClient, accountIndex, policyCode],
  );
  const policy = loaded.kind === 'ready' ? loaded.value : null;
  usePageTitle(
    policy ? t('detail.title_number', { number: policy.policyNumber }) : t('detail.title'),
  );

  const productVersionId = policy?.productVersionId ?? null;
  const tariff = useTariff(accountIndex, productVersionId, canViewProducts);
  const labels = useMemo(
    () =>
      tariffLabels(tariff.kind === 'ready' ? tariff.value : null, {
        language: i18n.language,
        yes: t('values.yes'),
        no: t('values.no'),
        option: (kind, value) =>
          i18n.exists(`applications:${optionTextKey(kind, value)}`)
            ? t(`applications:${optionTextKey(kind, value)}`)
            : undefined,
      }),
    [tariff, i18n, t],
  );

  const listPath = backPath(location.state, `/u/${accountIndex}/policies`);
  return (
    <RecordPage
      state={loaded}
      back={<BackLink to={listPath}>{t('detail.back')}</BackLink>}
      texts={standardRecordTexts(t)}
      onRetry={retry}
    >
      {(record) => (
        <PolicyDetail policy={record} tariff={tariff} labels={labels} onChanged={replace} />
      )}
    </RecordPage>
  );
}

/** The loaded policy: its data, versions, timeline and the actions the user may take. */
function PolicyDetail({
  policy: current,
  tariff,
  labels,
  onChanged,
}: {
  policy: Policy;
  tariff: LoadState<Tariff | null>;
  labels: TariffLabels;
  onChanged: (policy: Policy) => void;
}) {
  const { t } = useTranslation('policies');
  const location = useLocation();
  const navigate = useNavigate();
  const { accountIndex, canViewProducts, canViewCustomers, canUpdate } = usePolicyAbilities();
  const historyFields = useFieldLabels(['policies:fields.', 'policies:columns.']);
  const versions = current.versions ?? [];
  const shown = selectedVersion(current, location.hash);
  const holder = partyName(current.holder) || current.accountCode || '';
  const show = (versionId: number | null) =>
    void navigate(
      {
        ...location,
        hash: withHashPair(location.hash, 'version', versionId === null ? null : String(versionId)),
      },
      // The state keeps the way back to the filtered list.
      { replace: true, state: location.state },
    );
  const actions = usePolicyActions({
    accountIndex,
    policy: current,
    tariff: tariff.kind === 'ready' ? (tariff.value?.objects ?? null) : null,
    canUpdate,
    // After a change the screen shows what it made: the draft if there is one, else the
    // current version.
    onChanged: (policy) => {
      onChanged(policy);
      show(policy.draftVersionId ?? policy.currentVersionId);
    },
  });
  const draft = versions.find((v) => v.id === current.draftVersionId) ?? null;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold text-slate-900">
            {t('detail.title_number', { number: current.policyNumber })}
          </h1>
          <PolicyStatusBadge status={current.status} />
        </div>
        {actions.toolbar}
      </div>
      {actions.outlet}
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">{t('columns.product')}</dt>
        <dd>
          {canViewProducts ? (
            <Link
              to={`/u/${accountIndex}/management/product/${current.productId}`}
              className={linkClass}
            >
              {current.product?.name ?? current.productName}
            </Link>
          ) : (
            (current.product?.name ?? current.productName)
          )}
        </dd>
        <dt className="font-medium text-slate-700">{t('columns.holder')}</dt>
        <dd>
          {canViewCustomers && current.accountCode ? (
            <Link to={`/u/${accountIndex}/customers/${current.accountCode}`} className={linkClass}>
              {holder}
            </Link>
          ) : (
            holder || t('detail.no_holder')
          )}
        </dd>
        <dt className="font-medium text-slate-700">{t('columns.start')}</dt>
        <dd>{formatUtcDate(current.policyStartDate)}</dd>
        {current.terminationDate ? (
          <>
            <dt className="font-medium text-slate-700">{t('columns.termination')}</dt>
            <dd>
              {formatUtcDate(current.terminationDate)}
              {current.terminationReason
                ? ` · ${t('detail.termination_reason', { reason: current.terminationReason })}`
                : ''}
            </dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-700">{t('columns.code')}</dt>
        <dd>{current.code}</dd>
        <dt className="font-medium text-slate-700">{t('columns.created')}</dt>
        <dd>{formatDateTime(current.createdAt)}</dd>
      </dl>

      {draft ? (
        <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p>{t('detail.has_draft', { version: draft.versionNumber })}</p>
          {actions.draftPanel}
        </div>
      ) : null}

      <PageSection id="versions" title={t('detail.versions')}>
        {versions.length === 0 ? (
          <p className="text-slate-700">{t('detail.no_versions')}</p>
        ) : (
          // Its own frame scrolls sideways: at 400 px its dates and buttons are wider than the
          // screen, and the whole page scrolled with them. Relative, so that the sr-only caption
          // is placed inside the frame, not against the page.
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('detail.versions')}</caption>
              <thead className="border-b border-slate-300 text-slate-700">
                <tr>
                  <th scope="col" className={cell}>
                    {t('columns.version')}
                  </th>
                  <th scope="col" className={cell}>
                    {t('columns.revision_status')}
                  </th>
                  <th scope="col" className={cell}>
                    {t('columns.created')}
                  </th>
                  <th scope="col" className={cell}>
                    {t('columns.actions')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {versions.map((version) => {
                  const selected = version.id === shown?.id;
                  return (
                    <tr
                      key={version.id}
                      className={`border-b border-slate-200 ${selected ? 'bg-sky-50' : ''}`}
                      aria-current={selected ? 'true' : undefined}
                    >
                      <td className={cell}>
                        {t('detail.version_number', { version: version.versionNumber })}
                      </td>
                      <td className={cell}>
                        <RevisionStatusBadge status={version.revisionStatus} />
                      </td>
                      <td className={cell}>{formatDateTime(version.createdAt)}</td>
                      <td className={`${cell} flex flex-wrap gap-2`}>
                        <Button
                          variant="secondary"
                          aria-pressed={selected}
                          aria-label={t('actions.show_version', { version: version.versionNumber })}
                          onClick={() => show(version.id)}
                        >
                          {t('actions.show')}
                        </Button>
                        {actions.restoreButton(version)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </PageSection>

      {shown ? (
        <PageSection
          id="timeline"
          title={t('detail.timeline_of', { version: shown.versionNumber })}
        >
          {tariff.kind === 'failed' ? (
            <AlertBar tone="warning" dismissible={false}>
              {t('errors.tariff_failed')}
            </AlertBar>
          ) : null}
          {/* Names and labels first: technical names that turn into labels a moment later
              would only flicker. */}
          {tariff.kind === 'loading' ? (
            <Spinner label={t('loading')} />
          ) : (
            <VersionTimeline version={shown} labels={labels} />
          )}
        </PageSection>
      ) : null}

      <PolicyPaymentMethodSection
        policyCode={current.code}
        accountCode={current.accountCode ?? null}
      />

      <PolicyBillingSection policyCode={current.code} />

      <PolicyDocumentsSection policyCode={current.code} policyNumber={current.policyNumber} />

      {/* The policy page has no tabs: its history is a section of its own, below the versions. */}
      <HistorySection
        accountIndex={accountIndex}
        record={`insuranceservice/v1/policies/${current.code}`}
        labelOf={historyFields}
        valueLabel={(field, value) =>
          field === 'status' && isPolicyStatus(value) ? t(policyStatusKey(value)) : undefined
        }
      />
    </>
  );
}
