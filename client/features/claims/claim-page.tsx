import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Claim, ClaimStatus } from '#client/api/claims-client.ts';
import { claimQueries } from '#client/api/claims-queries.ts';
import type { TransitionRule } from '#client/api/leads-client.ts';
import type { Policy } from '#client/api/policies-client.ts';
import { policyQueries } from '#client/api/policies-queries.ts';
import { ClaimDocumentsPanel } from '#client/entities/claim/claim-documents-panel.tsx';
import { formatDate, formatDateTime } from '#client/ui/form/dates.ts';
import { usePersonNames } from '#client/entities/person/person-name.ts';
import { useFieldLabels } from '#client/entities/history/history-tab.tsx';
import { DetailPage } from '#client/entities/record/detail-page.tsx';
import { standardRecordTexts } from '#client/ui/record-page.tsx';
import { useMoneyFormat } from '#client/ui/money.ts';
import { partyName } from '#common/party-name.ts';
import { withLabelNames } from '#common/name-labels.ts';
import {
  allLoaded,
  loadStateOf,
  mapLoaded,
  retryFailed,
  type LoadState,
} from '#client/ui/load-state.ts';
import { ClaimDataTab } from './claim-data-tab.tsx';
import { ClaimStatusBadge } from './claim-status.tsx';
import { ClaimPartnersTab } from './claim-partners-tab.tsx';
import { SettlementsTab } from './settlements-tab.tsx';
import { useClaimAbilities } from './use-claim-abilities.ts';
import { useObjectTitles } from './object-titles.ts';
import { useClaimFormContext } from './use-claim-form-context.ts';
import { CUSTOM_ERROR_PREFIX as CUSTOM_PREFIX, errorKey } from './claim-form.ts';

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

export interface ClaimWorkflow {
  statuses: ClaimStatus[];
  rules: TransitionRule[];
}

/** What the tabs share: the claim, how to show a newer one, and what was read beside it. */
export interface ClaimTabProps {
  claim: Claim;
  /** Shows the claim the service answered (after a save or a refusal carrying it). */
  onChanged: (claim: Claim) => void;
  /** Reads the claim again (its totals after a settlement, its status after a refusal). */
  onReload: () => void;
  /** The claim's policy (its first day, its insured objects); null without the permission. */
  policy: LoadState<Policy | null>;
  statusName: (slug: string) => string;
  /** An insured object of the policy by its title in the reader's language. */
  objectTitle: (name: string) => string;
}

/**
 * One claim by code (spec route /claims/{claimCode}): its number, title, status, policy and
 * holder; tabs in the hash for the data (edit, status moves, delete), the settlements with their
 * totals, the partners and the documents. A 404 says that the claim does not exist.
 */
export default function ClaimPage() {
  const { t, i18n } = useTranslation('claims');
  const { claimCode = '' } = useParams();
  const { accountIndex, canViewPolicies, canViewCustomers } = useClaimAbilities();
  const money = useMoneyFormat();
  const ownFields = useFieldLabels([
    'claims:history_fields.',
    'claims:fields.',
    'claims:columns.',
    'claims:settlements.',
  ]);
  // A custom field's change is named by the tenant's label in the user's language (the form
  // context's query is the one the data tab reads, so it is fetched once).
  const { context: formContext } = useClaimFormContext(accountIndex);
  const historyFields = (field: string) =>
    (field.startsWith(CUSTOM_PREFIX)
      ? formContext?.custom.fields.find((f) => f.name === field.slice(CUSTOM_PREFIX.length))?.label
      : undefined) ?? ownFields(field);
  const person = usePersonNames();

  const queryClient = useQueryClient();
  const query = useQuery(claimQueries.detail(accountIndex, claimCode));
  const loaded = loadStateOf(query);
  // Stable, as the tabs' effects may depend on them: the claim a save answered goes in as it is,
  // a reload asks the service again while the claim stays shown.
  const onChanged = useCallback(
    (saved: Claim) =>
      queryClient.setQueryData(claimQueries.detail(accountIndex, claimCode).queryKey, saved),
    [queryClient, accountIndex, claimCode],
  );
  const onReload = useCallback(
    () =>
      void queryClient.invalidateQueries({
        queryKey: claimQueries.detail(accountIndex, claimCode).queryKey,
        exact: true,
      }),
    [queryClient, accountIndex, claimCode],
  );
  const claim = loaded.kind === 'ready' ? loaded.value : null;

  const policyCode = claim?.policyCode ?? null;
  const wantsPolicy = policyCode !== null && policyCode !== '' && canViewPolicies;
  const policyQuery = useQuery({
    ...policyQueries.detail(accountIndex, policyCode ?? ''),
    enabled: wantsPolicy,
  });
  // Without a policy (or the permission to read it) the tabs go on without one.
  const policy: LoadState<Policy | null> = wantsPolicy
    ? loadStateOf(policyQuery)
    : { kind: 'ready', value: null };

  const workflowQueries = useQueries({
    queries: [claimQueries.statuses(accountIndex), claimQueries.rules(accountIndex)],
  });
  const [statusesQuery, rulesQuery] = workflowQueries;
  const workflow = mapLoaded(
    allLoaded<[ClaimStatus[], TransitionRule[]]>([
      loadStateOf(statusesQuery),
      loadStateOf(rulesQuery),
    ]),
    // The statuses named in the user's language (the tenant's labels) for every tab that shows one.
    ([statuses, rules]): ClaimWorkflow => ({
      statuses: withLabelNames(statuses, i18n.language),
      rules,
    }),
  );
  const retryWorkflow = () => retryFailed(workflowQueries);
  const statusList = statusesQuery.data;
  const statuses = useMemo(
    () =>
      workflow.kind === 'ready' && statusList ? withLabelNames(statusList, i18n.language) : [],
    [workflow.kind, statusList, i18n.language],
  );
  const statusName = useCallback(
    (slug: string) => statuses.find((s) => s.slug === slug)?.name ?? slug,
    [statuses],
  );
  const objectTitle = useObjectTitles(accountIndex, policy);
  // The history reads statuses, insured objects and refusal codes as the screens do.
  const historyValue = useCallback(
    (field: string, value: unknown) => {
      if (typeof value !== 'string') return undefined;
      if (field === 'status') return statusName(value);
      if (field === 'coverOverride.codes') return t(errorKey(value) as never);
      if (field.endsWith('.insuredObject')) return objectTitle(value);
      return undefined;
    },
    [statusName, objectTitle, t],
  );

  return (
    <DetailPage
      query={query}
      back={{ to: `/u/${accountIndex}/claims`, label: t('detail.back') }}
      texts={standardRecordTexts(t)}
      pageTitle={(record) => t('detail.title_number', { number: record.claimNumber })}
    >
      {(claim) => {
        const holder = partyName(claim.holder) || claim.accountCode || t('values.empty');
        const tab: ClaimTabProps = {
          claim,
          onChanged,
          onReload,
          policy,
          statusName,
          objectTitle,
        };
        const totals = claim.totals;
        return {
          title: t('detail.title_number', { number: claim.claimNumber }),
          badge: (
            <span data-testid="claim-status">
              <ClaimStatusBadge
                status={claim.status}
                name={statuses.find((s) => s.slug === claim.status)?.name}
              />
            </span>
          ),
          summary: (
            <>
              <p className="text-lg text-slate-800" data-testid="claim-title">
                {claim.title}
              </p>
              <dl className="flex flex-wrap gap-x-8 gap-y-1 text-sm text-slate-700">
                <div className="flex gap-2">
                  <dt>{t('detail.policy')}</dt>
                  <dd>
                    {canViewPolicies ? (
                      <Link
                        to={`/u/${accountIndex}/policies/${claim.policyCode}`}
                        className={linkClass}
                      >
                        {claim.policyNumber}
                      </Link>
                    ) : (
                      <span className="font-medium text-slate-900">{claim.policyNumber}</span>
                    )}
                  </dd>
                </div>
                <div className="flex gap-2">
                  <dt>{t('detail.holder')}</dt>
                  <dd>
                    {canViewCustomers && claim.accountCode ? (
                      <Link
                        to={`/u/${accountIndex}/customers/${claim.accountCode}`}
                        className={linkClass}
                      >
                        {holder}
                      </Link>
                    ) : (
                      <span className="font-medium text-slate-900">{holder}</span>
                    )}
                  </dd>
                </div>
                <div className="flex gap-2">
                  <dt>{t('detail.damage_date')}</dt>
                  <dd className="font-medium text-slate-900">{formatDate(claim.damageDate)}</dd>
                </div>
                <div className="flex gap-2">
                  <dt>{t('detail.paid')}</dt>
                  <dd className="font-medium text-slate-900" data-testid="claim-paid">
                    {money(totals.payment / 100, totals.currency)}
                  </dd>
                </div>
              </dl>
              {/* The audit of issue 15 in words: why the claim was cancelled, why cover was overridden. */}
              {(
                [
                  ['claim-cancellation', 'cancel.info', claim.cancellation],
                  ['claim-cover-override', 'override.info', claim.coverOverride],
                ] as const
              ).map(([testId, key, entry]) =>
                entry ? (
                  <p key={testId} className="text-sm text-slate-800" data-testid={testId}>
                    {t(key, {
                      at: formatDateTime(entry.at),
                      by: entry.byName || person(entry.by).label,
                      reason: entry.reason,
                    })}
                  </p>
                ) : null,
              )}
            </>
          ),
          tabs: {
            label: t('tabs.label'),
            items: [
              {
                id: 'data',
                label: t('tabs.data'),
                content: (
                  <ClaimDataTab {...tab} workflow={workflow} onRetryWorkflow={retryWorkflow} />
                ),
              },
              {
                id: 'settlements',
                label: t('tabs.settlements'),
                content: <SettlementsTab {...tab} />,
              },
              { id: 'partners', label: t('tabs.partners'), content: <ClaimPartnersTab {...tab} /> },
              {
                id: 'documents',
                label: t('tabs.documents'),
                content: (
                  <ClaimDocumentsPanel
                    owner={{
                      id: claim.id,
                      code: claim.code,
                      accountCode: claim.accountCode,
                      policyCode: claim.policyCode,
                    }}
                  />
                ),
              },
            ],
            history: {
              accountIndex,
              record: `claimservice/v1/claims/${claim.code}`,
              labelOf: historyFields,
              actionKeys: ['claims:history_actions.'],
              valueLabel: historyValue,
            },
          },
        };
      }}
    </DetailPage>
  );
}
