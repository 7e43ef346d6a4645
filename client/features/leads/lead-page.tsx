import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { CreatedPolicy } from '#client/api/applications-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { formulaRefusalText } from '#client/entities/product/formula-issue.ts';
import {
  updateLead,
  type Lead,
  type LeadErrorBody,
  type LeadStatus,
  type TransitionRule,
} from '#client/api/leads-client.ts';
import { leadQueries } from '#client/api/leads-queries.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { useFieldLabels } from '#client/entities/history/history-tab.tsx';
import { DetailPage } from '#client/entities/record/detail-page.tsx';
import { standardRecordTexts } from '#client/ui/record-page.tsx';
import { LeadStatusBadge, useLeadStatusLabel } from '#client/entities/lead/lead-status.tsx';
import { useMoneyFormat } from '#client/ui/money.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useStatusMove } from '#client/ui/status-move.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { allLoaded, loadStateOf, mapLoaded, retryFailed } from '#client/ui/load-state.ts';
import { LEAD_CONVERTED_STATUS } from '#common/leads.ts';
import { LeadDataTab } from './lead-data-tab.tsx';
import { LeadDocumentsTab } from './lead-documents-tab.tsx';
import { createPolicyFromLead, pastStartOf } from './lead-conversion.ts';
import { NewStartDialog } from './new-start-dialog.tsx';
import { applicantName } from '#common/party-name.ts';
import { LeadVersionsTab } from './lead-versions-tab.tsx';
import { useLeadAbilities } from './use-lead-abilities.ts';

// A lead becomes converted by the policy created from it, never by a plain move.
const EXCLUDED_MOVES = [LEAD_CONVERTED_STATUS];

interface Workflow {
  statuses: LeadStatus[];
  rules: TransitionRule[];
}

/**
 * One lead by code (spec route /leads/{leadCode}): its number, status and applicant; the moves its
 * status allows (the tenant's rules, behind the confirm dialog); tabs for the data, the versions
 * and the documents. The move to converted is no plain move: a lead becomes converted by the
 * policy created from it ("Create policy", with the permission to create policies), so that a
 * converted lead always has its policy.
 */
export default function LeadPage() {
  const { t } = useTranslation('leads');
  const { t: tErrors } = useTranslation('errors');
  const { leadCode = '' } = useParams();
  const abilities = useLeadAbilities();
  const { accountIndex } = abilities;
  const historyFields = useFieldLabels(['leads:changes.', 'leads:columns.']);
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const statusLabel = useLeadStatusLabel();
  const money = useMoneyFormat();

  const queryClient = useQueryClient();
  const leadQuery = leadQueries.detail(accountIndex, leadCode);
  const query = useQuery(leadQuery);
  const loaded = loadStateOf(query);
  // A save answers the lead as stored: shown without asking again.
  const replace = (saved: Lead) => queryClient.setQueryData(leadQuery.queryKey, saved);
  // Someone else changed the lead (a 409): the page shows it as it is now.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: leadQuery.queryKey });
  const workflowQueries = useQueries({
    queries: [leadQueries.statuses(accountIndex), leadQueries.rules(accountIndex)],
  });
  const [statusesQuery, rulesQuery] = workflowQueries;
  const workflow = mapLoaded(
    allLoaded<[LeadStatus[], TransitionRule[]]>([
      loadStateOf(statusesQuery),
      loadStateOf(rulesQuery),
    ]),
    ([statuses, rules]): Workflow => ({ statuses, rules }),
  );
  const retryWorkflow = () => retryFailed(workflowQueries);
  const lead = loaded.kind === 'ready' ? loaded.value : null;

  const statuses = workflow.kind === 'ready' ? workflow.value.statuses : [];
  const nameOf = (slug: string) =>
    statusLabel(
      slug,
      statuses.find((s) => s.slug === slug),
    );
  const next =
    lead && workflow.kind === 'ready'
      ? workflow.value.rules.filter((r) => r.fromStatus === lead.status).map((r) => r.toStatus)
      : [];
  // A status the rules lead nowhere from is final: the service keeps such a lead as it is.
  const final = workflow.kind === 'ready' && lead !== null && next.length === 0;
  const convertible =
    next.includes(LEAD_CONVERTED_STATUS) && abilities.canUpdate && abilities.canCreatePolicy;

  /** Why a move was refused, in the user's words; a 409 also brings the page up to date. */
  const refusal = (error: unknown, to: string): string => {
    if (!(error instanceof ApiError)) return t('errors.generic');
    const body = error.body as LeadErrorBody | undefined;
    if (error.code === 'illegal_transition' && body?.lead) {
      return t('errors.illegal_transition', { from: nameOf(body.lead.status), to: nameOf(to) });
    }
    if (error.code === 'version_conflict') return t('errors.version_conflict_status');
    if (error.code === 'lead_closed') return t('errors.lead_closed');
    if (error.status === 403) return t('errors.forbidden');
    if (error.status === 404) return t('errors.not_found');
    return t('errors.generic');
  };

  // The lead as shown: the move's call builds on its version.
  const shown = useRef<Lead | null>(lead);
  useEffect(() => {
    shown.current = lead;
  }, [lead]);
  const movesRef = useRef<HTMLDivElement>(null);
  const movesHeadingRef = useRef<HTMLHeadingElement>(null);
  const statusMove = useStatusMove({
    status: lead?.status ?? '',
    rules: workflow.kind === 'ready' ? workflow.value.rules : null,
    excluded: EXCLUDED_MOVES,
    move: async (to) => {
      const current = shown.current!;
      const saved = await updateLead(accountIndex, current.code, {
        version: current.version,
        status: to,
      });
      replace(saved);
      return saved.status;
    },
    onMoved: (to) =>
      toast({ message: t('messages.status_changed', { status: nameOf(to) }), tone: 'success' }),
    // The button of the move just made is gone: the first move left takes focus, or the heading.
    focusAfterMove: () => movesRef.current?.querySelector('button') ?? movesHeadingRef.current,
    // A 409 also brings the page up to date.
    onRefused: (refused) => {
      if (refused.status === 409) refresh();
    },
    reason: (_, error, to) => refusal(error, to),
    dialog: (to) => ({
      title: t('confirm.title', { status: nameOf(to) }),
      message: t('confirm.message', {
        number: shown.current?.leadNumber ?? '',
        from: nameOf(shown.current?.status ?? ''),
        to: nameOf(to),
      }),
      confirmLabel: t('actions.move_to', { status: nameOf(to) }),
      tone: to === 'declined' ? 'danger' : 'primary',
    }),
  });

  /** Why no policy came of the lead; a 409 brings the page up to date as for a move. */
  const conversionRefusal = (error: unknown): string => {
    if (!(error instanceof ApiError)) return t('errors.generic');
    const body = error.body as LeadErrorBody | undefined;
    if (error.status === 409) refresh();
    if (error.code === 'illegal_transition' && body?.lead) {
      return t('errors.convert_illegal', { from: nameOf(body.lead.status) });
    }
    if (error.code === 'lead_converted') return t('errors.lead_converted');
    if (error.code === 'product_version_not_active') return t('errors.product_version_not_active');
    if (error.code === 'validation_error') return t('errors.policy_invalid');
    const formula = formulaRefusalText(tErrors, error);
    if (formula) return formula;
    if (error.status === 403) return t('errors.convert_forbidden');
    return refusal(error, LEAD_CONVERTED_STATUS);
  };

  const onCreated = (policy: CreatedPolicy, current: Lead) => {
    toast({
      message: t('messages.policy_created', {
        policy: policy.policyNumber,
        number: current.leadNumber,
      }),
      tone: 'success',
    });
    void navigate(`/u/${accountIndex}/policies/${encodeURIComponent(policy.code)}`);
  };

  // A lead whose term has begun already is converted with a new start, asked for in a dialog.
  const [newStart, setNewStart] = useState<{ lead: Lead; pastStart: string } | null>(null);
  const [startBusy, setStartBusy] = useState(false);
  const [startError, setStartError] = useState<{ atField: boolean; message: string } | null>(null);
  const convertFrom = (current: Lead, start: string) => {
    setStartBusy(true);
    setStartError(null);
    createPolicyFromLead(accountIndex, current, start)
      .then(
        (policy) => {
          setNewStart(null);
          onCreated(policy, current);
        },
        (error: unknown) =>
          setStartError(
            error instanceof ApiError && error.code === 'term.start_in_past'
              ? { atField: true, message: t('new_start.start_in_past') }
              : { atField: false, message: conversionRefusal(error) },
          ),
      )
      .finally(() => setStartBusy(false));
  };

  const createPolicy = (current: Lead) => {
    const pastStart = pastStartOf(current, Date.now());
    if (pastStart) {
      setStartError(null);
      setNewStart({ lead: current, pastStart });
      return;
    }
    let created: CreatedPolicy | null = null;
    void confirm({
      title: t('convert.title'),
      message: t('convert.message', {
        number: current.leadNumber,
        product: current.productName,
        status: nameOf(LEAD_CONVERTED_STATUS),
      }),
      confirmLabel: t('actions.create_policy'),
      action: () =>
        createPolicyFromLead(accountIndex, current).then(
          (policy) => {
            created = policy;
          },
          (error: unknown) => {
            throw new Error(conversionRefusal(error));
          },
        ),
    }).then((done) => {
      if (!done || created === null) return;
      const policy: CreatedPolicy = created;
      onCreated(policy, current);
    });
  };

  return (
    <DetailPage
      query={query}
      back={{ to: `/u/${accountIndex}/leads`, label: t('detail.back') }}
      texts={standardRecordTexts(t)}
      pageTitle={(record) => t('detail.title_number', { number: record.leadNumber })}
    >
      {(current) => ({
        title: t('detail.title_number', { number: current.leadNumber }),
        summary: (
          <dl className="flex flex-wrap gap-x-8 gap-y-1 text-sm text-slate-700">
            <div className="flex items-center gap-2">
              <dt>{t('detail.status')}</dt>
              <dd data-testid="lead-status">
                <LeadStatusBadge
                  status={current.status}
                  named={statuses.find((s) => s.slug === current.status)}
                />
              </dd>
            </div>
            <div className="flex gap-2">
              <dt>{t('detail.applicant')}</dt>
              <dd className="font-medium text-slate-900">{applicantName(current)}</dd>
            </div>
            <div className="flex gap-2">
              <dt>{t('detail.product')}</dt>
              <dd className="font-medium text-slate-900">{current.productName}</dd>
            </div>
            <div className="flex gap-2">
              <dt>{t('detail.premium')}</dt>
              <dd className="font-medium text-slate-900">
                {money(current.premium.grandTotal, current.premium.currency)}
              </dd>
            </div>
            <div className="flex gap-2">
              <dt>{t('detail.updated')}</dt>
              <dd data-testid="lead-version">
                {t('detail.audit', {
                  version: current.version,
                  at: formatDateTime(current.updatedAt),
                })}
              </dd>
            </div>
          </dl>
        ),
        actions: (
          <>
            {abilities.canUpdate ? (
              <section aria-labelledby="lead-moves" className="flex flex-col gap-2">
                <h2
                  id="lead-moves"
                  ref={movesHeadingRef}
                  tabIndex={-1}
                  className="text-sm font-semibold text-slate-800"
                >
                  {t('detail.moves')}
                </h2>
                {workflow.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
                {workflow.kind === 'failed' ? (
                  <div className="flex flex-wrap items-center gap-3">
                    <AlertBar tone="danger" dismissible={false}>
                      {t('errors.statuses_failed')}
                    </AlertBar>
                    <Button variant="secondary" onClick={retryWorkflow}>
                      {t('actions.retry')}
                    </Button>
                  </div>
                ) : null}
                {workflow.kind === 'ready' ? (
                  statusMove.allowed.length || convertible ? (
                    <div ref={movesRef} className="flex flex-wrap gap-2" data-testid="lead-moves">
                      {convertible ? (
                        <Button variant="primary" onClick={() => createPolicy(current)}>
                          {t('actions.create_policy')}
                        </Button>
                      ) : null}
                      {statusMove.allowed.map((to) => (
                        <Button
                          key={to}
                          variant={to === 'declined' ? 'secondary' : 'primary'}
                          onClick={() => statusMove.choose(to)}
                        >
                          {t('actions.move_to', { status: nameOf(to) })}
                        </Button>
                      ))}
                    </div>
                  ) : (
                    <p className="text-sm text-slate-700">
                      {final ? t('detail.final_status') : t('detail.convert_not_allowed')}
                    </p>
                  )
                ) : null}
              </section>
            ) : null}
            {statusMove.dialog}
          </>
        ),
        tabs: {
          label: t('tabs.label'),
          items: [
            {
              id: 'data',
              label: t('tabs.data'),
              content: (
                <LeadDataTab
                  lead={current}
                  abilities={abilities}
                  editable={!final}
                  onSaved={replace}
                  onReload={refresh}
                />
              ),
            },
            {
              id: 'versions',
              label: t('tabs.versions', { count: current.versions?.length ?? 0 }),
              content: <LeadVersionsTab lead={current} abilities={abilities} />,
            },
            ...(abilities.canViewDocuments
              ? [
                  {
                    id: 'documents',
                    label: t('tabs.documents'),
                    content: (
                      <LeadDocumentsTab accountIndex={accountIndex} leadCode={current.code} />
                    ),
                  },
                ]
              : []),
          ],
          history: {
            accountIndex,
            record: `insuranceservice/v1/leads/${current.code}`,
            labelOf: historyFields,
            // A status as the tenant names it, in the reader's language.
            valueLabel: (field, value) =>
              field === 'status' && typeof value === 'string' ? nameOf(value) : undefined,
          },
        },
        dialogs: newStart ? (
          <NewStartDialog
            leadNumber={newStart.lead.leadNumber}
            pastStart={newStart.pastStart}
            busy={startBusy}
            error={startError}
            onSubmit={(start) => convertFrom(newStart.lead, start)}
            onCancel={() => setNewStart(null)}
          />
        ) : null,
      })}
    </DetailPage>
  );
}
