import { assign, fromPromise, setup } from 'xstate';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';

/** The spec's token refresh margin: refresh when less than 10 s of validity remain. */
export const DEFAULT_REFRESH_MARGIN_MS = 10_000;

export type TokenRefreshInput = {
  /** Access token expiry, ms since the epoch. */
  expiresAt: number;
  /** Refresh when fewer than this many ms remain; default {@link DEFAULT_REFRESH_MARGIN_MS}. */
  marginMs?: number;
};

/** Why the last refresh failed; cleared by a successful refresh or a replaced token. */
export type TokenRefreshError = 'rejected' | 'transient';

/**
 * What `refreshTokens` rejects with. `rejected`: the upstream refused the refresh token (revoked,
 * expired, user disabled), so the account is signed out. `transient`: network error, timeout,
 * 5xx; the old token is kept and the next request tries again. Anything else counts as
 * transient, so that an unexpected error never signs a user out.
 */
export type TokenRefreshFailure = { kind: TokenRefreshError };

export type TokenRefreshContext = {
  expiresAt: number;
  marginMs: number;
  lastError: TokenRefreshError | null;
};

export type TokenRefreshEvent =
  { type: 'token.needed'; now: number } | { type: 'token.replaced'; expiresAt: number };

function isRejection(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'kind' in error &&
    (error as { kind: unknown }).kind === 'rejected'
  );
}

/**
 * Token refresh for one (session, account) in the BFF.
 *
 * Before each proxied call the BFF sends `token.needed` with the current time (use
 * {@link awaitFreshToken}). With less than `marginMs` of validity left the machine enters
 * `refreshing` and invokes `refreshTokens`; every `token.needed` that arrives meanwhile is
 * ignored, so however many calls wait there is one refresh (single flight). They all wait for the
 * next `valid` or `expired` snapshot.
 *
 * - success: `valid` with the new expiry;
 * - failure of kind `rejected`: `expired` (final), the BFF answers 401 `session_expired`;
 * - any other failure: `valid` with `lastError: 'transient'` and the old expiry.
 *
 * `token.replaced` (a workspace switch or password change produced a new token) sets the expiry
 * directly, also while a refresh is in flight: that refresh is then dropped, as its result would
 * belong to the old token.
 *
 * Provide: actor `refreshTokens` (input `{}`, resolves `{ expiresAt }`, rejects with
 * {@link TokenRefreshFailure}); optionally action `logRefreshError` (the spec logs refresh
 * failures).
 */
export const tokenRefreshMachine = setup({
  types: {
    input: {} as TokenRefreshInput,
    context: {} as TokenRefreshContext,
    events: {} as TokenRefreshEvent,
  },
  actors: {
    refreshTokens: fromPromise<{ expiresAt: number }, Record<string, never>>(async () => {
      throw new Error('tokenRefreshMachine: provide the refreshTokens actor');
    }),
  },
  actions: {
    logRefreshError: (_, _params: { error: unknown }) => {},
    storeReplacedExpiry: assign(({ event }) =>
      event.type === 'token.replaced' ? { expiresAt: event.expiresAt, lastError: null } : {},
    ),
  },
  guards: {
    isNearExpiry: ({ context, event }) =>
      event.type === 'token.needed' && context.expiresAt - event.now < context.marginMs,
    isRejection: (_, params: { error: unknown }) => isRejection(params.error),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: ({ input }) => ({
    expiresAt: input.expiresAt,
    marginMs: input.marginMs ?? DEFAULT_REFRESH_MARGIN_MS,
    lastError: null,
  }),
  initial: 'valid',
  states: {
    valid: {
      on: {
        // A fresh token needs nothing: the event is simply not taken.
        'token.needed': { guard: 'isNearExpiry', target: 'refreshing' },
        'token.replaced': { actions: 'storeReplacedExpiry' },
      },
    },
    refreshing: {
      invoke: {
        id: 'refreshTokens',
        src: 'refreshTokens',
        input: {},
        onDone: {
          target: 'valid',
          actions: assign({ expiresAt: ({ event }) => event.output.expiresAt, lastError: null }),
        },
        onError: [
          {
            guard: { type: 'isRejection', params: ({ event }) => ({ error: event.error }) },
            target: 'expired',
            actions: [
              assign({ lastError: 'rejected' }),
              { type: 'logRefreshError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'valid',
            actions: [
              assign({ lastError: 'transient' }),
              { type: 'logRefreshError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
      on: {
        // Leaving `refreshing` stops the refresh in flight: its result is for the old token.
        'token.replaced': { target: 'valid', actions: 'storeReplacedExpiry' },
      },
    },
    expired: {
      type: 'final',
    },
  },
});

export type TokenRefreshActor = ActorRefFrom<typeof tokenRefreshMachine>;
export type TokenRefreshSnapshot = SnapshotFrom<typeof tokenRefreshMachine>;

/** What the BFF does next: use the token, answer 401 `session_expired`, or try the old token. */
export type FreshTokenOutcome = 'valid' | 'expired' | 'transient';

function settledOutcome(snapshot: TokenRefreshSnapshot): FreshTokenOutcome | null {
  if (snapshot.status === 'done' || snapshot.matches('expired')) return 'expired';
  if (snapshot.matches('valid'))
    return snapshot.context.lastError === 'transient' ? 'transient' : 'valid';
  return null;
}

/**
 * Asks for a token valid at `now` and resolves once the machine has settled. Concurrent callers
 * share one refresh: the first `token.needed` starts it, the others are ignored while it runs and
 * every caller resolves on the same `valid`/`expired` snapshot.
 */
export function awaitFreshToken(actor: TokenRefreshActor, now: number): Promise<FreshTokenOutcome> {
  const before = actor.getSnapshot();
  if (before.status !== 'active') return Promise.resolve('expired');
  actor.send({ type: 'token.needed', now });
  const after = actor.getSnapshot();
  // Still `valid` right after the event: the token was fresh enough, whatever an earlier failed
  // refresh left in lastError.
  if (before.matches('valid') && after.matches('valid')) return Promise.resolve('valid');
  const immediate = settledOutcome(after);
  if (immediate !== null) return Promise.resolve(immediate);
  return new Promise((resolve, reject) => {
    const subscription = actor.subscribe({
      next: (snapshot) => {
        const outcome = settledOutcome(snapshot);
        if (outcome === null) return;
        subscription.unsubscribe();
        resolve(outcome);
      },
      error: reject,
      // Stopped while refreshing (the session ended): treat as expired rather than hang.
      complete: () => resolve(settledOutcome(actor.getSnapshot()) ?? 'expired'),
    });
  });
}

/** Sample input for `npm run paths -- token-refresh`: a token that expires in one hour. */
export const pathsInput: TokenRefreshInput = { expiresAt: 3_600_000 };

/** Sample events for the paths script and the model-based test. */
export const pathEvents = {
  'token.needed': [
    { type: 'token.needed', now: 0 },
    { type: 'token.needed', now: 3_595_000 },
  ],
  'token.replaced': [{ type: 'token.replaced', expiresAt: 7_200_000 }],
  'xstate.done.actor.refreshTokens': [
    { type: 'xstate.done.actor.refreshTokens', output: { expiresAt: 7_200_000 } },
  ],
  'xstate.error.actor.refreshTokens': [
    { type: 'xstate.error.actor.refreshTokens', error: { kind: 'rejected' } },
    { type: 'xstate.error.actor.refreshTokens', error: { kind: 'transient' } },
  ],
} as const;
