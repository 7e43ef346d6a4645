import { assign, fromPromise, setup } from 'xstate';
import { isFinalRefusal, refusalOf, refusedOrFailed, type Refusal } from './failure-code.ts';

/** What a user may do to a workflow instance from the monitor. */
export type InstanceActionKind = 'cancel' | 'retry' | 'complete';

/** The instance as the actions need it: its status and the user tasks it waits in. */
export interface InstanceActionState {
  status: string;
  /** The keys of the user tasks the instance waits in (started, not ended). */
  waitingTasks: readonly string[];
}

/** Why the service refused: its HTTP status and `error` code (never its English message). */
export type ActionRefusal = Refusal;

export interface InstanceActionsContext extends InstanceActionState {
  /** The action chosen, from its choice until the flow is back in `idle`. */
  action: InstanceActionKind | null;
  /** The user task a `complete` is for. */
  taskKey: string | null;
  refusal: ActionRefusal | null;
}

export type InstanceActionsEvent =
  /** The page has the instance as it is now (a load, a reload after a refusal). */
  | { type: 'instance.loaded'; status: string; waitingTasks: readonly string[] }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.complete'; taskKey: string }
  | { type: 'action.confirm' }
  /** Closes the dialog: before the call (no), or after a refusal or a failure. */
  | { type: 'action.dismiss' };

/** The spec's rules (section 4) as the service applies them (workflow-routes.ts). */
export const mayCancel = (status: string) => status === 'active' || status === 'failed';
export const mayRetry = (status: string) => status === 'failed';
export const mayComplete = (state: InstanceActionState, taskKey: string) =>
  state.status === 'active' && state.waitingTasks.includes(taskKey);

/**
 * Cancel, retry and "complete task" on a workflow instance (the monitor's instance page): a
 * choice the instance's status allows asks for confirmation (`confirming.<action>`, dismiss
 * returns), `acting` calls the service, then
 * - `done` with the instance's new state (`notifyDone`), from where the next action may be chosen;
 * - `refused` (403, 404, 409: another user cancelled or retried first), with the service's code;
 *   `notifyRefused` lets the page read the instance again;
 * - `failed` (no answer, 5xx): the dialog stays and `action.confirm` tries again.
 *
 * Provide: actor `act` (input `{ action, taskKey }`, answers the instance's new state, rejects
 * with the client's ApiError or anything with `status` and `code`); actions `notifyDone`
 * (params the new state) and `notifyRefused` (params the refusal).
 */
export const workflowInstanceActionsMachine = setup({
  types: {
    context: {} as InstanceActionsContext,
    events: {} as InstanceActionsEvent,
    input: {} as InstanceActionState,
  },
  actors: {
    act: fromPromise<InstanceActionState, { action: InstanceActionKind; taskKey: string | null }>(
      async () => {
        throw new Error('workflowInstanceActionsMachine: provide the act actor');
      },
    ),
  },
  actions: {
    notifyDone: (_, _params: InstanceActionState) => {},
    notifyRefused: (_, _params: ActionRefusal) => {},
    keepRefusal: assign({ refusal: (_, params: { error: unknown }) => refusalOf(params.error) }),
  },
  guards: {
    canCancel: ({ context }) => mayCancel(context.status),
    canRetry: ({ context }) => mayRetry(context.status),
    canComplete: ({ context }, params: { taskKey: string }) => mayComplete(context, params.taskKey),
    isFinalRefusal: (_, params: { error: unknown }) => isFinalRefusal(params.error),
  },
}).createMachine({
  id: 'workflowInstanceActions',
  context: ({ input }) => ({
    status: input.status,
    waitingTasks: input.waitingTasks,
    action: null,
    taskKey: null,
    refusal: null,
  }),
  initial: 'idle',
  on: {
    'instance.loaded': {
      actions: assign({
        status: ({ event }) => event.status,
        waitingTasks: ({ event }) => event.waitingTasks,
      }),
    },
  },
  states: {
    idle: {
      on: {
        'action.cancel': {
          guard: 'canCancel',
          target: 'confirming.cancel',
          actions: assign({ action: 'cancel', taskKey: null, refusal: null }),
        },
        'action.retry': {
          guard: 'canRetry',
          target: 'confirming.retry',
          actions: assign({ action: 'retry', taskKey: null, refusal: null }),
        },
        'action.complete': {
          guard: { type: 'canComplete', params: ({ event }) => ({ taskKey: event.taskKey }) },
          target: 'confirming.complete',
          actions: assign({
            action: 'complete',
            taskKey: ({ event }) => event.taskKey,
            refusal: null,
          }),
        },
      },
    },
    confirming: {
      on: {
        'action.confirm': 'acting',
        'action.dismiss': { target: 'idle', actions: assign({ action: null, taskKey: null }) },
      },
      // Entered by target (`confirming.cancel`, ...) only; `initial` is xstate's requirement.
      initial: 'cancel',
      states: { cancel: {}, retry: {}, complete: {} },
    },
    acting: {
      // The page may read the instance while the call runs; the answer decides.
      on: { 'instance.loaded': {} },
      invoke: {
        id: 'act',
        src: 'act',
        // Set by the choice, the only way here.
        input: ({ context }) => ({ action: context.action!, taskKey: context.taskKey }),
        onDone: {
          target: 'done',
          actions: [
            assign({
              status: ({ event }) => event.output.status,
              waitingTasks: ({ event }) => event.output.waitingTasks,
              refusal: null,
            }),
            { type: 'notifyDone', params: ({ event }) => event.output },
          ],
        },
        onError: refusedOrFailed,
      },
    },
    // The action went through: the page says what it did until the next choice.
    done: {
      on: {
        'action.cancel': {
          guard: 'canCancel',
          target: 'confirming.cancel',
          actions: assign({ action: 'cancel', taskKey: null }),
        },
        'action.retry': {
          guard: 'canRetry',
          target: 'confirming.retry',
          actions: assign({ action: 'retry', taskKey: null }),
        },
        'action.complete': {
          guard: { type: 'canComplete', params: ({ event }) => ({ taskKey: event.taskKey }) },
          target: 'confirming.complete',
          actions: assign({ action: 'complete', taskKey: ({ event }) => event.taskKey }),
        },
      },
    },
    refused: {
      on: {
        'action.dismiss': {
          target: 'idle',
          actions: assign({ action: null, taskKey: null, refusal: null }),
        },
      },
    },
    failed: {
      on: {
        'action.confirm': { target: 'acting', actions: assign({ refusal: null }) },
        'action.dismiss': {
          target: 'idle',
          actions: assign({ action: null, taskKey: null, refusal: null }),
        },
      },
    },
  },
});

/** Sample input and events for `npm run paths -- workflow-instance-actions` and the tests. */
export const pathsInput: InstanceActionState = { status: 'failed', waitingTasks: [] };

export const pathEvents = {
  'action.complete': [{ type: 'action.complete', taskKey: 'assess' }],
  'xstate.done.actor.act': [
    { type: 'xstate.done.actor.act', output: { status: 'completed', waitingTasks: [] } },
  ],
  'xstate.error.actor.act': [
    { type: 'xstate.error.actor.act', error: { status: 409, code: 'illegal_transition' } },
    { type: 'xstate.error.actor.act', error: { status: 502, code: 'upstream_unavailable' } },
  ],
  'instance.loaded': [{ type: 'instance.loaded', status: 'active', waitingTasks: ['assess'] }],
} as const;
