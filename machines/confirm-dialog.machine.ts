import { assign, fromPromise, setup } from 'xstate';

export type ConfirmDialogContext = {
  title: string;
  message: string;
  /** Which action `runAction` performs (e.g. `users.disable`); null when there is none. */
  action: string | null;
  /** True after a failed action, until the dialog is closed or reopened. */
  hasError: boolean;
  /** The failure's own text; null with `hasError` means "show the generic error text". */
  errorMessage: string | null;
};

export type ConfirmDialogEvent =
  | { type: 'confirm.open'; title: string; message: string; action?: string }
  | { type: 'confirm.accept' }
  | { type: 'confirm.cancel' }
  | { type: 'confirm.close' };

/**
 * The spec: "errorMessage shown if a string, else generic text". A thrown string and an error
 * whose `message` is a non-empty string count; anything else shows the generic text.
 */
export function errorMessageOf(error: unknown): string | null {
  if (typeof error === 'string') return error === '' ? null : error;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error as { message: unknown };
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
}

const closedContext: ConfirmDialogContext = {
  title: '',
  message: '',
  action: null,
  hasError: false,
  errorMessage: null,
};

/**
 * Confirm dialog: `closed`, `open` (idle) and `busy` while the confirmed action runs.
 *
 * Buttons are disabled while busy, so `busy` accepts neither `confirm.cancel` nor `confirm.close`
 * (ask `state.can(...)` to disable them): the action is already under way and closing would hide
 * its outcome. A failed action returns to `open` with the error, so the user can retry or
 * cancel; opening the dialog again starts without the previous error.
 *
 * Provide: actor `runAction` (input `{ action }`), action `notifyDone` (the action succeeded and
 * the dialog closed, e.g. reload the list).
 */
export const confirmDialogMachine = setup({
  types: {
    context: {} as ConfirmDialogContext,
    events: {} as ConfirmDialogEvent,
  },
  actors: {
    runAction: fromPromise<unknown, { action: string | null }>(async () => {
      throw new Error('confirmDialogMachine: provide the runAction actor');
    }),
  },
  actions: {
    notifyDone: () => {},
  },
}).createMachine({
  id: 'confirmDialog',
  context: closedContext,
  initial: 'closed',
  states: {
    closed: {
      on: {
        'confirm.open': {
          target: 'open',
          actions: assign(({ event }) => ({
            title: event.title,
            message: event.message,
            action: event.action ?? null,
            hasError: false,
            errorMessage: null,
          })),
        },
      },
    },
    open: {
      on: {
        'confirm.accept': 'busy',
        'confirm.cancel': { target: 'closed', actions: assign(closedContext) },
        'confirm.close': { target: 'closed', actions: assign(closedContext) },
      },
    },
    busy: {
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({ action: context.action }),
        onDone: {
          target: 'closed',
          actions: [assign(closedContext), 'notifyDone'],
        },
        onError: {
          target: 'open',
          actions: assign({
            hasError: true,
            errorMessage: ({ event }) => errorMessageOf(event.error),
          }),
        },
      },
    },
  },
});

/** Sample events for `npm run paths -- confirm-dialog` and the model-based test. */
export const pathEvents = {
  'confirm.open': [
    {
      type: 'confirm.open',
      title: 'Disable user',
      message: 'Disable this user?',
      action: 'users.disable',
    },
  ],
  'xstate.error.actor.runAction': [
    { type: 'xstate.error.actor.runAction', error: { message: 'User is already disabled' } },
    { type: 'xstate.error.actor.runAction', error: { status: 500 } },
  ],
} as const;
