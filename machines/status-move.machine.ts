import { assign, fromPromise, setup } from 'xstate';
import { isFinalRefusal, refusalOf, refusedOrFailed } from './failure-code.ts';

/** One row of a tenant's status transition rules, as the service lists them. */
export interface MoveRule {
  fromStatus: string;
  toStatus: string;
}

/** Why the service refused a move: its status and `error` code (never its English message). */
export interface MoveRefusal {
  status: number;
  code: string;
}

export interface StatusMoveContext {
  /** The record's status as last read. */
  status: string;
  /** The tenant's rules as the service answered them; empty until read. */
  rules: readonly MoveRule[];
  /** Targets the screen never offers as a plain move (a lead becomes converted by its policy). */
  excluded: readonly string[];
  /** The move chosen, from `move.choose` until the flow returns to `idle`. */
  target: string | null;
  refusal: MoveRefusal | null;
}

export type StatusMoveEvent =
  /** The service's rules were read (again). */
  | { type: 'rules.loaded'; rules: readonly MoveRule[] }
  /** The page has the record as it is now (after a reload, or another part of it saved it). */
  | { type: 'record.changed'; status: string }
  | { type: 'move.choose'; to: string }
  | { type: 'move.confirm' }
  | { type: 'move.cancel' }
  /** Closes the outcome of a move (refused or failed). */
  | { type: 'move.dismiss' };

export interface StatusMoveInput {
  status: string;
  rules?: readonly MoveRule[];
  excluded?: readonly string[];
}

/** The statuses the rules allow from `status`, in the rules' order, without repeats. */
export function allowedTargets(
  rules: readonly MoveRule[],
  status: string,
  excluded: readonly string[] = [],
): string[] {
  const targets = rules
    .filter((rule) => rule.fromStatus === status && rule.toStatus !== status)
    .map((rule) => rule.toStatus)
    .filter((to) => !excluded.includes(to));
  return [...new Set(targets)];
}

/**
 * Moving a record's status under the tenant's rules (leads, claims): the moves offered are those
 * the service's rules allow from the current status; choosing one asks for confirmation
 * (`confirming`, cancel returns), `moving` calls the service, then
 * - `moved` with the new status (`notifyMoved`), from where the next move may be chosen,
 * - `refused` (403, 404 or 409: an illegal transition, a version conflict, a closed record), with
 *   the service's `error` code for the screen to translate; `notifyRefused` lets the page read
 *   the record again, which brings the allowed moves up to date;
 * - `failed` (no answer, 5xx): the dialog stays, `move.confirm` tries again.
 *
 * Provide: actor `moveStatus` (input `{ to }`, answers the new status, rejects with the client's
 * ApiError or anything with `status` and `code`); actions `notifyMoved` (params `{ to }`) and
 * `notifyRefused` (params the refusal).
 */
export const statusMoveMachine = setup({
  types: {
    context: {} as StatusMoveContext,
    events: {} as StatusMoveEvent,
    input: {} as StatusMoveInput,
  },
  actors: {
    moveStatus: fromPromise<string, { to: string }>(async () => {
      throw new Error('statusMoveMachine: provide the moveStatus actor');
    }),
  },
  actions: {
    notifyMoved: (_, _params: { to: string }) => {},
    notifyRefused: (_, _params: MoveRefusal) => {},
    keepRefusal: assign({ refusal: (_, params: { error: unknown }) => refusalOf(params.error) }),
  },
  guards: {
    isAllowed: ({ context }, params: { to: string }) =>
      allowedTargets(context.rules, context.status, context.excluded).includes(params.to),
    isFinalRefusal: (_, params: { error: unknown }) => isFinalRefusal(params.error),
  },
}).createMachine({
  id: 'statusMove',
  context: ({ input }) => ({
    status: input.status,
    rules: input.rules ?? [],
    excluded: input.excluded ?? [],
    target: null,
    refusal: null,
  }),
  initial: 'ready',
  on: {
    'rules.loaded': { actions: assign({ rules: ({ event }) => event.rules }) },
    'record.changed': { actions: assign({ status: ({ event }) => event.status }) },
  },
  states: {
    ready: {
      initial: 'idle',
      on: {
        'move.choose': {
          guard: { type: 'isAllowed', params: ({ event }) => ({ to: event.to }) },
          target: 'confirming',
          actions: assign({ target: ({ event }) => event.to, refusal: null }),
        },
      },
      states: {
        idle: {},
        // After a move the service took: the screen says so until the next choice.
        moved: {},
      },
    },
    confirming: {
      on: {
        'move.confirm': 'moving',
        'move.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    moving: {
      // The record the page holds may change under a move in flight; the answer decides.
      on: { 'record.changed': {} },
      invoke: {
        id: 'moveStatus',
        src: 'moveStatus',
        // Set by `move.choose`, the only way here.
        input: ({ context }) => ({ to: context.target! }),
        onDone: {
          target: 'ready.moved',
          actions: [
            assign({ status: ({ event }) => event.output, target: null, refusal: null }),
            { type: 'notifyMoved', params: ({ event }) => ({ to: event.output }) },
          ],
        },
        onError: refusedOrFailed,
      },
    },
    refused: {
      on: { 'move.dismiss': { target: 'ready', actions: assign({ target: null, refusal: null }) } },
    },
    failed: {
      on: {
        'move.confirm': { target: 'moving', actions: assign({ refusal: null }) },
        'move.dismiss': { target: 'ready', actions: assign({ target: null, refusal: null }) },
      },
    },
  },
});

/** Sample input and events for `npm run paths -- status-move` and the tests. */
export const pathsInput: StatusMoveInput = {
  status: 'new',
  rules: [
    { fromStatus: 'new', toStatus: 'in_progress' },
    { fromStatus: 'new', toStatus: 'declined' },
    { fromStatus: 'in_progress', toStatus: 'converted' },
  ],
  excluded: ['converted'],
};

export const pathEvents = {
  'move.choose': [
    { type: 'move.choose', to: 'in_progress' },
    // Not a move from `new`: refused by the guard, nothing happens.
    { type: 'move.choose', to: 'converted' },
  ],
  'xstate.done.actor.moveStatus': [{ type: 'xstate.done.actor.moveStatus', output: 'in_progress' }],
  'xstate.error.actor.moveStatus': [
    {
      type: 'xstate.error.actor.moveStatus',
      error: { status: 409, code: 'version_conflict' },
    },
    { type: 'xstate.error.actor.moveStatus', error: { status: 502, code: 'upstream_unavailable' } },
  ],
  'rules.loaded': [
    { type: 'rules.loaded', rules: [{ fromStatus: 'new', toStatus: 'in_progress' }] },
  ],
  'record.changed': [{ type: 'record.changed', status: 'in_progress' }],
} as const;
