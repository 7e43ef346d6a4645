import { parseIsoDate, type DurationUnit } from './policy-object-data.ts';

/**
 * What may happen to a policy, and from where (spec section 4: a policy can be terminated,
 * withdrawn, kept as a draft (created, patched, deleted) and restored to an earlier version; the
 * allowed transitions are not shown). The sandbox enforces these rules, the policy screens offer
 * only what they allow, and the lifecycle statechart guards its actions with them. The decisions
 * are written in docs/contracts.md, "Insurance: policies", "Lifecycle".
 */

/** EXPIRED: the term ended without a renewal (the renewal run, issue 15 point 6); nothing changes it. */
export const POLICY_STATUSES = [
  'ACTIVE',
  'WITHDRAWN',
  'TERMINATED',
  'SUSPENDED',
  'EXPIRED',
] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

export const isPolicyStatus = (value: unknown): value is PolicyStatus =>
  (POLICY_STATUSES as readonly unknown[]).includes(value);

/** `applied`: the current version; `superseded`: an earlier one; `draft`: a change not yet applied. */
export const REVISION_STATUSES = ['applied', 'superseded', 'draft'] as const;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];

export const POLICY_ACTIONS = [
  'terminate',
  'withdraw',
  'restoreVersion',
  'createDraft',
  'patchDraft',
  'deleteDraft',
  'applyDraft',
] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** A contract in force, or resting (suspended, e.g. a laid-up vehicle), can still change. */
const LIVE: readonly PolicyStatus[] = ['ACTIVE', 'SUSPENDED'];

/**
 * The statuses each action is allowed from. Ending a contract (terminate: from a date on;
 * withdraw: void from the start) needs one that is still live. Changes go through a draft, and
 * only a live contract is changed. Restoring an earlier version corrects the record, which may
 * still matter after a termination (claims of the insured period), but a withdrawn contract never
 * existed, so there is nothing to correct.
 */
export const ACTION_STATUSES: Readonly<Record<PolicyAction, readonly PolicyStatus[]>> = {
  terminate: LIVE,
  withdraw: LIVE,
  restoreVersion: ['ACTIVE', 'SUSPENDED', 'TERMINATED'],
  createDraft: LIVE,
  patchDraft: LIVE,
  deleteDraft: LIVE,
  applyDraft: LIVE,
};

/**
 * The insurance service call of each action, below `/insuranceservice/v1/policies/{id}`. The
 * body always carries `basedOnVersionId` (DELETE: the query may instead); the spec's
 * `PUT /v1/policies/{id}` applies the draft.
 */
export const ACTION_CALLS: Readonly<
  Record<PolicyAction, { method: 'POST' | 'PATCH' | 'PUT' | 'DELETE'; path: string }>
> = {
  terminate: { method: 'POST', path: '/terminate' },
  withdraw: { method: 'POST', path: '/withdraw' },
  restoreVersion: { method: 'POST', path: '/restore-policy-version' },
  createDraft: { method: 'POST', path: '/draft' },
  patchDraft: { method: 'PATCH', path: '/draft' },
  deleteDraft: { method: 'DELETE', path: '/draft' },
  applyDraft: { method: 'PUT', path: '' },
};

/** The status an action leads to; the others keep the policy's status. */
export const ACTION_OUTCOME: Readonly<Partial<Record<PolicyAction, PolicyStatus>>> = {
  terminate: 'TERMINATED',
  withdraw: 'WITHDRAWN',
};

/**
 * The fields of the `default` object that fix the contract term and how it is billed. They are
 * set when the policy is created; a draft cannot change them (another term is another contract),
 * so a form shows them read-only in a draft. The billing fields too (issue 18): the billing run
 * cuts the periods from the start by the frequency and keys each invoice by its period's start
 * (billing/invoice-engine.ts), so another frequency mid-contract would cut anew periods already
 * billed and bill their days twice.
 */
export const TERM_FIELDS = [
  'policyStartDate',
  'policyDurationUnit',
  'policyDurationValue',
  'billingFrequencyUnit',
  'recurringBillingDay',
] as const;

/**
 * Draft actions build on the draft, the others on the current version: each write names that
 * version as `basedOnVersionId`, and a stale one is a conflict.
 */
export const basedOnDraft = (action: PolicyAction): boolean => NEEDS_DRAFT.includes(action);

/** Actions that need a draft to exist, and the one that needs none. */
const NEEDS_DRAFT: readonly PolicyAction[] = ['patchDraft', 'deleteDraft', 'applyDraft'];

export interface LifecycleState {
  status: PolicyStatus;
  hasDraft: boolean;
}

/** Why an action is refused: the status forbids it, or the draft is (not) there. */
export type LifecycleRefusal = 'illegal_status' | 'draft_exists' | 'no_draft';

export function lifecycleRefusal(
  action: PolicyAction,
  state: LifecycleState,
): LifecycleRefusal | null {
  if (!ACTION_STATUSES[action].includes(state.status)) return 'illegal_status';
  if (action === 'createDraft' && state.hasDraft) return 'draft_exists';
  if (NEEDS_DRAFT.includes(action) && !state.hasDraft) return 'no_draft';
  return null;
}

export const canPerform = (action: PolicyAction, state: LifecycleState): boolean =>
  lifecycleRefusal(action, state) === null;

/** The actions a policy offers now, in the order of {@link POLICY_ACTIONS}. */
export const allowedActions = (state: LifecycleState): PolicyAction[] =>
  POLICY_ACTIONS.filter((action) => canPerform(action, state));

/**
 * Only a superseded version can be restored: the current one already is the policy, and a draft
 * is applied, not restored.
 */
export function restoreRefusal(target: {
  revisionStatus: RevisionStatus;
}): 'is_current' | 'is_draft' | null {
  if (target.revisionStatus === 'applied') return 'is_current';
  if (target.revisionStatus === 'draft') return 'is_draft';
  return null;
}

const DAY_MS = 86_400_000;

/**
 * The end of a contract term: `value` units after the start (UTC). A month later than 31 January
 * is the last day of February, as a calendar reads, not 3 March.
 */
export function contractEnd(startMs: number, value: number, unit: DurationUnit): number {
  if (unit === 'day') return startMs + value * DAY_MS;
  if (unit === 'week') return startMs + value * 7 * DAY_MS;
  const start = new Date(startMs);
  const months = unit === 'year' ? value * 12 : value;
  const target = new Date(startMs);
  target.setUTCDate(1);
  target.setUTCMonth(start.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return target.getTime();
}

export type TerminationDateRefusal = 'invalid_date' | 'before_start' | 'after_end';

/**
 * A termination takes effect on a date within the contract: not before its start (a contract
 * cannot end before it began) and not after its end (then it has ended anyway). `endMs` null: the
 * contract runs open-ended.
 */
export function terminationDateRefusal(
  terminationDate: unknown,
  contract: { startMs: number; endMs: number | null },
): TerminationDateRefusal | null {
  const ms = parseIsoDate(terminationDate);
  if (ms === null) return 'invalid_date';
  if (ms < contract.startMs) return 'before_start';
  if (contract.endMs !== null && ms > contract.endMs) return 'after_end';
  return null;
}

/**
 * The termination date a form starts with: today, moved into the contract when today lies outside
 * it (its start, or its end for a term that has run out), so that the rule above accepts it.
 */
export function defaultTerminationDate(
  contract: { startMs: number; endMs: number | null },
  todayMs: number,
): string {
  const today = Math.floor(todayMs / DAY_MS) * DAY_MS;
  const start = Number.isNaN(contract.startMs) ? today : contract.startMs;
  const inside = Math.max(start, contract.endMs === null ? today : Math.min(today, contract.endMs));
  return new Date(inside).toISOString().slice(0, 10);
}
