import { assign, fromPromise, setup } from 'xstate';
import {
  basedOnDraft,
  canPerform,
  type PolicyAction,
  type PolicyStatus,
} from '#common/policy-lifecycle.ts';

/** What the machine needs of a policy; the screen's policy object carries more and may be given. */
export interface LifecyclePolicy {
  id: number;
  status: PolicyStatus;
  currentVersionId: number | null;
  draftVersionId: number | null;
}

/**
 * What the action sends besides the version it is based on: `terminationDate` and `reason` to
 * terminate, `reason` to withdraw, `versionId` to restore, `policyObjects` (and `effectiveFrom`)
 * to patch a draft; nothing for the other actions.
 */
export type LifecycleParams = Record<string, unknown>;

/** The input of the `submitAction` actor: one call of the insurance service. */
export interface LifecycleSubmission {
  action: PolicyAction;
  policyId: number;
  basedOnVersionId: number | null;
  params: LifecycleParams;
}

/** What a failed call tells the screen; the client's ApiError carries all of it. */
export interface LifecycleError {
  status: number;
  code: string;
  message: string;
  /** 400: the issues at their fields, so the dialog can show them and keep the input. */
  issues: { path: string; code: string }[];
}

export type PolicyLifecycleContext = {
  policy: LifecyclePolicy;
  action: PolicyAction | null;
  params: LifecycleParams;
  /** The current policy a 409 version_conflict answered with, until the user reloads. */
  conflict: LifecyclePolicy | null;
  error: LifecycleError | null;
};

export type PolicyLifecycleEvent =
  /** The screen (re)loaded the policy: the allowed actions follow its status and draft. */
  | { type: 'policy.loaded'; policy: LifecyclePolicy }
  | { type: 'action.choose'; action: PolicyAction }
  /** The dialog's confirm button, with what the dialog collected. */
  | { type: 'action.confirm'; params?: LifecycleParams }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.dismiss' }
  /** After a conflict: continue with the policy as it is now. */
  | { type: 'policy.reload' };

export type PolicyLifecycleInput = { policy: LifecyclePolicy };

/** What the calls reject with: the client's ApiError has status, code, message and body. */
type CallError =
  | {
      status?: unknown;
      code?: unknown;
      message?: unknown;
      body?: { policy?: unknown; issues?: unknown } | null;
    }
  | null
  | undefined;

function errorOf(error: unknown): LifecycleError {
  const e = error as CallError;
  return {
    status: typeof e?.status === 'number' ? e.status : 0,
    code: typeof e?.code === 'string' && e.code ? e.code : 'unknown',
    message: typeof e?.message === 'string' ? e.message : '',
    issues: Array.isArray(e?.body?.issues) ? (e.body.issues as LifecycleError['issues']) : [],
  };
}

const conflictPolicyOf = (error: unknown): LifecyclePolicy | null => {
  const policy = (error as CallError)?.body?.policy;
  return policy && typeof policy === 'object' ? (policy as LifecyclePolicy) : null;
};

const statusOf = (error: unknown) => errorOf(error).status;

/**
 * One lifecycle action on a policy detail screen: choose it (only what `common/policy-lifecycle`
 * allows for the policy's status and draft), confirm it in a dialog (cancel returns), submit it,
 * then one of:
 * - `done`: the service answered the changed policy, now in `context.policy`;
 * - `conflict`: 409 `version_conflict`, somebody changed the policy meanwhile; the current policy
 *   is in `context.conflict` and `policy.reload` continues with it;
 * - `refused`: 403, 404 or another 409 (an illegal transition), with the service's message;
 * - `failed`: no answer or a 5xx; `action.retry` sends the same call again.
 * A 400 or 422 goes back to `confirming` with the error, so the dialog shows it at its fields and
 * keeps what the user typed.
 *
 * Every write names the version it builds on (`basedOnVersionId`): the draft for the draft
 * actions, else the current version (docs/contracts.md, "Policy writes").
 *
 * Provide: actor `submitAction` (input {@link LifecycleSubmission}, resolves the changed policy,
 * rejects with the client's ApiError); action `notifyDone` (e.g. a toast and a reload of lists).
 */
export const policyLifecycleMachine = setup({
  types: {
    context: {} as PolicyLifecycleContext,
    events: {} as PolicyLifecycleEvent,
    input: {} as PolicyLifecycleInput,
  },
  actors: {
    submitAction: fromPromise<LifecyclePolicy, LifecycleSubmission>(async () => {
      throw new Error('policyLifecycleMachine: provide the submitAction actor');
    }),
  },
  actions: {
    notifyDone: () => {},
  },
  guards: {
    isAllowed: ({ context, event }) =>
      event.type === 'action.choose' &&
      canPerform(event.action, {
        status: context.policy.status,
        hasDraft: context.policy.draftVersionId !== null,
      }),
    isConflict: (_, params: { error: unknown }) =>
      statusOf(params.error) === 409 &&
      errorOf(params.error).code === 'version_conflict' &&
      conflictPolicyOf(params.error) !== null,
    isRefused: (_, params: { error: unknown }) => [403, 404, 409].includes(statusOf(params.error)),
    isInvalid: (_, params: { error: unknown }) => [400, 422].includes(statusOf(params.error)),
  },
}).createMachine({
  id: 'policyLifecycle',
  context: ({ input }) => ({
    policy: input.policy,
    action: null,
    params: {},
    conflict: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'policy.loaded': { actions: assign({ policy: ({ event }) => event.policy }) },
        'action.choose': {
          guard: 'isAllowed',
          target: 'confirming',
          actions: assign({ action: ({ event }) => event.action, params: {}, error: null }),
        },
      },
    },
    confirming: {
      on: {
        'action.confirm': {
          target: 'submitting',
          actions: assign({ params: ({ event }) => event.params ?? {}, error: null }),
        },
        'action.cancel': {
          target: 'idle',
          actions: assign({ action: null, params: {}, error: null }),
        },
      },
    },
    submitting: {
      invoke: {
        id: 'submitAction',
        src: 'submitAction',
        input: ({ context }): LifecycleSubmission => {
          // Set when the action was chosen; submitting is reached only after that.
          const action = context.action!;
          return {
            action,
            policyId: context.policy.id,
            basedOnVersionId: basedOnDraft(action)
              ? context.policy.draftVersionId
              : context.policy.currentVersionId,
            params: context.params,
          };
        },
        onDone: {
          target: 'done',
          actions: [assign({ policy: ({ event }) => event.output, error: null }), 'notifyDone'],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: assign({
              conflict: ({ event }) => conflictPolicyOf(event.error),
              error: ({ event }) => errorOf(event.error),
            }),
          },
          {
            guard: { type: 'isInvalid', params: ({ event }) => ({ error: event.error }) },
            target: 'confirming',
            actions: assign({ error: ({ event }) => errorOf(event.error) }),
          },
          {
            guard: { type: 'isRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'refused',
            actions: assign({ error: ({ event }) => errorOf(event.error) }),
          },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => errorOf(event.error) }),
          },
        ],
      },
    },
    done: {
      on: {
        'action.dismiss': {
          target: 'idle',
          actions: assign({ action: null, params: {}, error: null }),
        },
      },
    },
    conflict: {
      on: {
        'policy.reload': {
          target: 'idle',
          actions: assign({
            policy: ({ context }) => context.conflict ?? context.policy,
            conflict: null,
            action: null,
            params: {},
            error: null,
          }),
        },
      },
    },
    refused: {
      on: {
        'action.dismiss': {
          target: 'idle',
          actions: assign({ action: null, params: {}, error: null }),
        },
      },
    },
    failed: {
      on: {
        'action.retry': { target: 'submitting', actions: assign({ error: null }) },
        'action.cancel': {
          target: 'idle',
          actions: assign({ action: null, params: {}, error: null }),
        },
      },
    },
  },
});

const active: LifecyclePolicy = {
  id: 7,
  status: 'ACTIVE',
  currentVersionId: 70,
  draftVersionId: null,
};

/** Sample events and input for the paths script and the model-based test. */
export const pathsInput: PolicyLifecycleInput = { policy: active };

export const pathEvents = {
  'policy.loaded': [{ type: 'policy.loaded', policy: { ...active, draftVersionId: 71 } }],
  'action.choose': [
    { type: 'action.choose', action: 'terminate' },
    { type: 'action.choose', action: 'applyDraft' },
  ],
  'action.confirm': [
    { type: 'action.confirm', params: { terminationDate: '2025-08-15', reason: 'sold' } },
  ],
  'action.cancel': [{ type: 'action.cancel' }],
  'action.retry': [{ type: 'action.retry' }],
  'action.dismiss': [{ type: 'action.dismiss' }],
  'policy.reload': [{ type: 'policy.reload' }],
  'xstate.done.actor.submitAction': [
    {
      type: 'xstate.done.actor.submitAction',
      output: { ...active, status: 'TERMINATED', currentVersionId: 72 },
    },
  ],
  'xstate.error.actor.submitAction': [
    {
      type: 'xstate.error.actor.submitAction',
      error: {
        status: 409,
        code: 'version_conflict',
        message: 'the policy was changed meanwhile',
        body: { policy: { ...active, currentVersionId: 73 } },
      },
    },
    {
      type: 'xstate.error.actor.submitAction',
      error: {
        status: 409,
        code: 'illegal_transition',
        message: 'a TERMINATED policy cannot be terminated',
      },
    },
    {
      type: 'xstate.error.actor.submitAction',
      error: {
        status: 400,
        code: 'validation_error',
        message: 'terminationDate: after_end',
        body: { issues: [{ path: 'terminationDate', code: 'after_end' }] },
      },
    },
    { type: 'xstate.error.actor.submitAction', error: { status: 403, code: 'forbidden' } },
    {
      type: 'xstate.error.actor.submitAction',
      error: { status: 502, code: 'upstream_unavailable' },
    },
    // No answer at all: the fetch itself failed.
    { type: 'xstate.error.actor.submitAction', error: { message: 'Failed to fetch' } },
  ],
} as const;
