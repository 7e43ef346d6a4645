import { assign, fromPromise, setup } from 'xstate';

export type PasswordResetContext = {
  resetToken: string | null;
  /** The address asked for (request form), or the account's address the link belongs to. */
  email: string;
  /** Error code of the last failed call (`invalid_password`, `rate_limited`, `unknown`, ...). */
  error: string | undefined;
};

export type PasswordResetEvent =
  /** The page tells which address it was opened with: the e-mail link's `resetToken`, or none. */
  | { type: 'page.opened'; resetToken: string | null }
  | { type: 'request.submit'; email: string }
  | { type: 'verify.retry' }
  // The password travels in the event into the call's input only; it is never kept in context.
  | { type: 'reset.submit'; newPassword: string };

/** What the calls reject with: the client's ApiError has both (status 0 or none: no answer). */
type CallError = { status?: unknown; code?: unknown } | null | undefined;

function errorCode(error: unknown): string {
  const code = (error as CallError)?.code;
  return typeof code === 'string' && code ? code : 'unknown';
}

/**
 * Forgot and reset password (`/account/resetpassword`). Starts in `opening` until the page says
 * which address it was opened with (`page.opened`).
 *
 * Without a token: the request form; the request always ends in the same confirmation whatever
 * the address (the upstream answers 204 for every address, so nothing tells whether an account
 * exists). With the token of the e-mail link: verify it, then the new-password form, then done.
 * Spec, error catalogue: a 403 on this route goes to /expired-token (`expired`, final, entry
 * `showExpiredToken`), whether the verification or the reset itself answers it. Any other
 * failure keeps the user on the form with the error, nothing typed is lost.
 *
 * Provide: actors `requestReset` (input `{ email }`), `verifyResetToken` (input
 * `{ resetToken }`, resolves `{ email }`), `resetPassword` (input `{ resetToken, newPassword }`);
 * they reject with an error carrying `status` and `code`. Action `showExpiredToken`.
 */
export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
  },
  actors: {
    requestReset: fromPromise<unknown, { email: string }>(async () => {
      throw new Error('passwordResetMachine: provide the requestReset actor');
    }),
    verifyResetToken: fromPromise<{ email: string }, { resetToken: string }>(async () => {
      throw new Error('passwordResetMachine: provide the verifyResetToken actor');
    }),
    resetPassword: fromPromise<unknown, { resetToken: string; newPassword: string }>(async () => {
      throw new Error('passwordResetMachine: provide the resetPassword actor');
    }),
  },
  actions: {
    showExpiredToken: () => {},
  },
  guards: {
    hasToken: ({ event }) => event.type === 'page.opened' && !!event.resetToken,
    isForbidden: (_, params: { error: unknown }) => (params.error as CallError)?.status === 403,
    hasEmail: ({ event }) => event.type === 'request.submit' && event.email.trim() !== '',
    hasPassword: ({ event }) => event.type === 'reset.submit' && event.newPassword !== '',
  },
}).createMachine({
  id: 'passwordReset',
  context: { resetToken: null, email: '', error: undefined },
  initial: 'opening',
  states: {
    opening: {
      on: {
        'page.opened': [
          {
            guard: 'hasToken',
            target: 'verifying',
            actions: assign({ resetToken: ({ event }) => event.resetToken }),
          },
          { target: 'requestForm' },
        ],
      },
    },
    requestForm: {
      on: {
        'request.submit': {
          guard: 'hasEmail',
          target: 'requesting',
          actions: assign({ email: ({ event }) => event.email.trim(), error: undefined }),
        },
      },
    },
    requesting: {
      invoke: {
        id: 'requestReset',
        src: 'requestReset',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'requestSent' },
        onError: {
          target: 'requestForm',
          actions: assign({ error: ({ event }) => errorCode(event.error) }),
        },
      },
    },
    requestSent: { type: 'final' },
    verifying: {
      invoke: {
        id: 'verifyResetToken',
        src: 'verifyResetToken',
        input: ({ context }) => ({ resetToken: context.resetToken ?? '' }),
        onDone: {
          target: 'resetForm',
          actions: assign({ email: ({ event }) => event.output.email, error: undefined }),
        },
        onError: [
          {
            guard: { type: 'isForbidden', params: ({ event }) => ({ error: event.error }) },
            target: 'expired',
          },
          {
            target: 'verifyFailed',
            actions: assign({ error: ({ event }) => errorCode(event.error) }),
          },
        ],
      },
    },
    verifyFailed: {
      on: { 'verify.retry': { target: 'verifying' } },
    },
    resetForm: {
      on: {
        'reset.submit': {
          guard: 'hasPassword',
          target: 'resetting',
          actions: assign({ error: undefined }),
        },
      },
    },
    resetting: {
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context, event }) => ({
          resetToken: context.resetToken ?? '',
          newPassword: event.type === 'reset.submit' ? event.newPassword : '',
        }),
        onDone: { target: 'done' },
        onError: [
          {
            guard: { type: 'isForbidden', params: ({ event }) => ({ error: event.error }) },
            target: 'expired',
          },
          {
            target: 'resetForm',
            actions: assign({ error: ({ event }) => errorCode(event.error) }),
          },
        ],
      },
    },
    done: { type: 'final' },
    expired: { type: 'final', entry: 'showExpiredToken' },
  },
});

/** Sample events for the paths script and the model-based tests. */
export const pathEvents = {
  'page.opened': [
    { type: 'page.opened', resetToken: null },
    { type: 'page.opened', resetToken: 'token-from-the-link' },
  ],
  'request.submit': [
    { type: 'request.submit', email: 'someone@example.test' },
    { type: 'request.submit', email: '  ' },
  ],
  'verify.retry': [{ type: 'verify.retry' }],
  'reset.submit': [
    { type: 'reset.submit', newPassword: 'Fresh1234' },
    { type: 'reset.submit', newPassword: '' },
  ],
  'xstate.done.actor.requestReset': [{ type: 'xstate.done.actor.requestReset', output: undefined }],
  'xstate.error.actor.requestReset': [
    { type: 'xstate.error.actor.requestReset', error: { status: 429, code: 'rate_limited' } },
  ],
  'xstate.done.actor.verifyResetToken': [
    { type: 'xstate.done.actor.verifyResetToken', output: { email: 'someone@example.test' } },
  ],
  'xstate.error.actor.verifyResetToken': [
    { type: 'xstate.error.actor.verifyResetToken', error: { status: 403, code: 'invalid_token' } },
    {
      type: 'xstate.error.actor.verifyResetToken',
      error: { status: 502, code: 'upstream_unavailable' },
    },
  ],
  'xstate.done.actor.resetPassword': [
    { type: 'xstate.done.actor.resetPassword', output: undefined },
  ],
  'xstate.error.actor.resetPassword': [
    { type: 'xstate.error.actor.resetPassword', error: { status: 403, code: 'invalid_token' } },
    { type: 'xstate.error.actor.resetPassword', error: { status: 400, code: 'invalid_password' } },
  ],
} as const;
