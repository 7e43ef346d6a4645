import {
  assign,
  fromPromise,
  raise,
  setup,
  spawnChild,
  stopChild,
  type AnyEventObject,
  type DoneActorEvent,
  type ErrorActorEvent,
} from 'xstate';
import type { SessionAccount as BffSessionAccount } from '#common/contracts/bff.ts';

/** One signed-in account as the BFF reports it (`GET /bff/session`, common/contracts/bff.ts).
 * Never carries a token. */
export type SessionAccount = BffSessionAccount;

/**
 * Why an account ended other than by a time-out, as the BFF's 401 `session_expired` says it: the
 * UI permission is gone (the spec's isNotUiPermission) or an administrator disabled the user.
 */
export type SessionEndReason = 'no_ui_permission' | 'user_disabled';

export type SignInCredentials =
  | { kind: 'password'; username: string; password: string }
  | { kind: 'saml'; tenantSlug: string; code: string };

/**
 * What the `signIn` actor resolves with. Known refusals are results, not errors, so that the
 * chart can name each outcome; only unexpected failures (network, 5xx) reject.
 */
export type SignInResult =
  | { kind: 'signedIn'; accountIndex: number; account: SessionAccount }
  | { kind: 'passwordChangeRequired'; accountIndex: number; account: SessionAccount }
  | { kind: 'refusedNoUi' }
  | { kind: 'failed'; error: string }
  | { kind: 'rateLimited'; retryAfterSeconds: number };

export type ChangePasswordResult =
  { kind: 'changed'; account: SessionAccount } | { kind: 'failed'; error: string };

export interface SessionInput {
  /** Accounts already held by the server-side session when the page loads. */
  accounts: SessionAccount[];
}

export interface SessionContext {
  accounts: SessionAccount[];
  /** Where to go after a successful sign-in (already checked to be a same-origin path). */
  backUrl: string | undefined;
  /** The credentials of the sign-in under way; cleared as soon as it ends. */
  pendingCredentials: SignInCredentials | undefined;
  /** The account the last sign-in, password change or sign-out concerned. */
  currentAccountIndex: number | undefined;
  /** Error code of the last failed sign-in (`invalid_credentials`, `UNAUTHORIZED`, ...). */
  signInError: string | undefined;
  /** Error code of the last failed password change (`invalid_password`, ...). */
  passwordError: string | undefined;
  retryAfterSeconds: number;
  /** Where the user was when the session expired, for the `backUrl` of the login page. */
  expiredAt: string | undefined;
  /** Why it expired, when the BFF said (the sign-in page says so, not "session ended"). */
  endReason: SessionEndReason | null;
}

export type SessionEvent =
  | { type: 'signIn.submit'; credentials: SignInCredentials; backUrl?: string }
  | {
      type: 'password.submit';
      accountIndex: number;
      newPassword: string;
      oldPassword?: string;
      backUrl?: string;
    }
  | { type: 'account.signOut'; accountIndex: number }
  | { type: 'session.expired'; accountIndex: number; location: string; reason?: SessionEndReason }
  | { type: 'account.updated'; account: SessionAccount }
  | { type: 'retry.allowed' }
  | DoneActorEvent<SignInResult, 'signIn'>
  | ErrorActorEvent<unknown, 'signIn'>
  | DoneActorEvent<ChangePasswordResult, 'changePassword'>
  | ErrorActorEvent<unknown, 'changePassword'>
  | DoneActorEvent<void, 'signOut'>
  | ErrorActorEvent<unknown, 'signOut'>;

interface NavigationParams {
  accountIndex: number;
  backUrl: string | undefined;
}

function navigationParams({
  context,
  event,
}: {
  context: SessionContext;
  event: { output?: unknown };
}): NavigationParams {
  const account = (event.output as { account?: SessionAccount } | undefined)?.account;
  return {
    accountIndex: account?.accountIndex ?? context.currentAccountIndex ?? 0,
    backUrl: context.backUrl,
  };
}

function upsert(accounts: SessionAccount[], account: SessionAccount): SessionAccount[] {
  const rest = accounts.filter((a) => a.accountIndex !== account.accountIndex);
  return [...rest, account].sort((a, b) => a.accountIndex - b.accountIndex);
}

/** The whole event as the params of `isKnownAccount`: the account it names must be held. */
const namedAccount = ({ event }: { event: { accountIndex: number } }) => event;

/** Signing in (another) account, from any state that is not busy with a call. */
const signIn = { target: 'signingIn' } as const;
/** Signing out one of the accounts held. */
const signOut = {
  guard: { type: 'isKnownAccount', params: namedAccount },
  target: 'signingOut',
} as const;
/**
 * What a user can do wherever an account may be held and nothing runs (idle, signed in, asked to
 * change the password): sign in, change a held account's password, or sign one out.
 */
const restingMoves = {
  'signIn.submit': signIn,
  'password.submit': {
    guard: { type: 'isKnownAccount', params: namedAccount },
    target: 'changingPassword',
  },
  'account.signOut': signOut,
} as const;

/**
 * The browser's view of the session: which accounts are signed in, a sign-in under way and its
 * outcome, the forced password change, sign-out of one account and an expired session.
 *
 * I/O is named and filled in with `.provide()`: actors `signIn`, `changePassword`, `signOut`;
 * actions `persistAccounts` (the non-secret stored account list), `navigateAfterSignIn`,
 * `navigateToPasswordChange`, `navigateAfterSignOut`, `redirectToLogin`.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    // Filled in by the client (`POST /bff/login`, `/bff/login/saml`, ...); these defaults fail
    // loudly so that a missing `.provide()` is noticed at once.
    signIn: fromPromiseDefault<SignInResult, { credentials: SignInCredentials }>('signIn'),
    changePassword: fromPromiseDefault<
      ChangePasswordResult,
      { accountIndex: number; newPassword: string; oldPassword?: string }
    >('changePassword'),
    signOut: fromPromiseDefault<void, { accountIndex: number }>('signOut'),
  },
  actions: {
    persistAccounts: (_, _params: { accounts: SessionAccount[] }) => {},
    navigateAfterSignIn: (_, _params: NavigationParams) => {},
    navigateToPasswordChange: (_, _params: NavigationParams) => {},
    navigateAfterSignOut: (_, _params: { remaining: SessionAccount[] }) => {},
    redirectToLogin: (_, _params: { backUrl: string; reason: SessionEndReason | null }) => {},
  },
  guards: {
    isSignedIn: (_, params: { result: SignInResult }) => params.result.kind === 'signedIn',
    needsPasswordChange: (_, params: { result: SignInResult }) =>
      params.result.kind === 'passwordChangeRequired',
    isRefusedNoUi: (_, params: { result: SignInResult }) => params.result.kind === 'refusedNoUi',
    isRateLimited: (_, params: { result: SignInResult }) => params.result.kind === 'rateLimited',
    isPasswordChanged: (_, params: { result: ChangePasswordResult }) =>
      params.result.kind === 'changed',
    isKnownAccount: ({ context }, params: { accountIndex: number }) =>
      context.accounts.some((a) => a.accountIndex === params.accountIndex),
  },
  delays: {
    // The server says when the next attempt may pass (Retry-After); never less than a second.
    retryAfter: ({ context }) => Math.max(1, context.retryAfterSeconds) * 1000,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    accounts: [...input.accounts].sort((a, b) => a.accountIndex - b.accountIndex),
    backUrl: undefined,
    pendingCredentials: undefined,
    currentAccountIndex: undefined,
    signInError: undefined,
    passwordError: undefined,
    retryAfterSeconds: 0,
    expiredAt: undefined,
    endReason: null,
  }),
  initial: 'idle',
  on: {
    // A 401 `session_expired` can arrive from any call at any moment: the account is gone.
    'session.expired': {
      target: '.expired',
      actions: [
        assign({
          accounts: ({ context, event }) =>
            context.accounts.filter((a) => a.accountIndex !== event.accountIndex),
          expiredAt: ({ event }) => event.location,
          endReason: ({ event }) => event.reason ?? null,
          currentAccountIndex: ({ event }) => event.accountIndex,
        }),
        { type: 'persistAccounts', params: ({ context }) => ({ accounts: context.accounts }) },
        {
          type: 'redirectToLogin',
          params: ({ event }) => ({
            backUrl: event.location,
            reason: event.reason ?? null,
          }),
        },
      ],
    },
    // Workspace switches and token refreshes change an account outside this chart.
    'account.updated': {
      guard: { type: 'isKnownAccount', params: ({ event }) => event.account },
      actions: [
        assign({ accounts: ({ context, event }) => upsert(context.accounts, event.account) }),
        { type: 'persistAccounts', params: ({ context }) => ({ accounts: context.accounts }) },
      ],
    },
  },
  states: {
    idle: {
      on: restingMoves,
    },
    // The I/O runs as spawned children rather than `invoke`, so that `createTestModel` can walk
    // this very chart (it refuses invocations); stopping them on exit keeps invoke's semantics.
    signingIn: {
      entry: [
        assign({
          pendingCredentials: ({ event }) =>
            event.type === 'signIn.submit' ? event.credentials : undefined,
          backUrl: ({ event }) => (event.type === 'signIn.submit' ? event.backUrl : undefined),
          signInError: undefined,
        }),
        spawnChild('signIn', {
          id: 'signIn',
          input: ({ context }) => ({ credentials: context.pendingCredentials! }),
        }),
      ],
      exit: [stopChild('signIn'), assign({ pendingCredentials: undefined })],
      on: {
        'xstate.done.actor.signIn': [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => ({ result: event.output }) },
            target: 'signedIn',
            actions: { type: 'navigateAfterSignIn', params: navigationParams },
          },
          {
            guard: {
              type: 'needsPasswordChange',
              params: ({ event }) => ({ result: event.output }),
            },
            target: 'passwordChangeRequired',
            actions: { type: 'navigateToPasswordChange', params: navigationParams },
          },
          {
            guard: { type: 'isRefusedNoUi', params: ({ event }) => ({ result: event.output }) },
            target: 'refusedNoUi',
          },
          {
            guard: { type: 'isRateLimited', params: ({ event }) => ({ result: event.output }) },
            target: 'rateLimited',
            actions: assign({
              retryAfterSeconds: ({ event }) =>
                event.output.kind === 'rateLimited' ? event.output.retryAfterSeconds : 0,
            }),
          },
          {
            target: 'failed',
            actions: assign({
              signInError: ({ event }) =>
                event.output.kind === 'failed' ? event.output.error : 'unknown',
            }),
          },
        ],
        'xstate.error.actor.signIn': {
          target: 'failed',
          actions: assign({ signInError: 'unknown' }),
        },
      },
    },
    signedIn: {
      entry: [
        assign(({ context, event }) => {
          // Entered only from a sign-in or password change that carried the account.
          const account = accountOf(event);
          if (!account) return {};
          return {
            accounts: upsert(context.accounts, account),
            currentAccountIndex: account.accountIndex,
            passwordError: undefined,
          };
        }),
        { type: 'persistAccounts', params: ({ context }) => ({ accounts: context.accounts }) },
      ],
      on: restingMoves,
    },
    passwordChangeRequired: {
      entry: [
        assign(({ context, event }) => {
          const account = accountOf(event);
          if (!account) return {};
          return {
            accounts: upsert(context.accounts, account),
            currentAccountIndex: account.accountIndex,
          };
        }),
        { type: 'persistAccounts', params: ({ context }) => ({ accounts: context.accounts }) },
      ],
      on: restingMoves,
    },
    changingPassword: {
      entry: [
        assign({
          currentAccountIndex: ({ event, context }) =>
            event.type === 'password.submit' ? event.accountIndex : context.currentAccountIndex,
          // The change-password page may carry its own backUrl (a reload lost the sign-in's).
          backUrl: ({ event, context }) =>
            event.type === 'password.submit' && event.backUrl !== undefined
              ? event.backUrl
              : context.backUrl,
          passwordError: undefined,
        }),
        spawnChild('changePassword', {
          id: 'changePassword',
          input: ({ event }) => {
            if (event.type !== 'password.submit') throw new Error('changePassword needs its event');
            const { accountIndex, newPassword, oldPassword } = event;
            return oldPassword === undefined
              ? { accountIndex, newPassword }
              : { accountIndex, newPassword, oldPassword };
          },
        }),
      ],
      exit: stopChild('changePassword'),
      on: {
        'xstate.done.actor.changePassword': [
          {
            guard: {
              type: 'isPasswordChanged',
              params: ({ event }) => ({ result: event.output }),
            },
            target: 'signedIn',
            actions: { type: 'navigateAfterSignIn', params: navigationParams },
          },
          {
            target: 'passwordChangeRequired',
            actions: assign({
              passwordError: ({ event }) =>
                event.output.kind === 'failed' ? event.output.error : 'unknown',
            }),
          },
        ],
        'xstate.error.actor.changePassword': {
          target: 'passwordChangeRequired',
          actions: assign({ passwordError: 'unknown' }),
        },
      },
    },
    refusedNoUi: {
      on: { 'signIn.submit': signIn },
    },
    failed: {
      on: { 'signIn.submit': signIn, 'account.signOut': signOut },
    },
    rateLimited: {
      // A slowed-down budget lets the next attempt in only after the server's delay; submitting
      // earlier would just be refused again, so the form waits for it.
      // A delayed raise, not `after`, for the same reason as the spawned children above.
      entry: raise({ type: 'retry.allowed' }, { id: 'retryAllowed', delay: 'retryAfter' }),
      on: { 'retry.allowed': { target: 'idle', actions: assign({ retryAfterSeconds: 0 }) } },
    },
    signingOut: {
      entry: [
        assign({
          currentAccountIndex: ({ event, context }) =>
            event.type === 'account.signOut' ? event.accountIndex : context.currentAccountIndex,
        }),
        spawnChild('signOut', {
          id: 'signOut',
          input: ({ context }) => ({ accountIndex: context.currentAccountIndex ?? 0 }),
        }),
      ],
      exit: stopChild('signOut'),
      on: {
        // Signing out must not leave the account behind in the browser even if the call failed:
        // the server forgets it on its own when the tokens lapse.
        'xstate.done.actor.signOut': { target: 'signedOut' },
        'xstate.error.actor.signOut': { target: 'signedOut' },
      },
    },
    signedOut: {
      entry: [
        assign({
          accounts: ({ context }) =>
            context.accounts.filter((a) => a.accountIndex !== context.currentAccountIndex),
        }),
        { type: 'persistAccounts', params: ({ context }) => ({ accounts: context.accounts }) },
        {
          type: 'navigateAfterSignOut',
          params: ({ context }) => ({ remaining: context.accounts }),
        },
      ],
      on: { 'signIn.submit': signIn, 'account.signOut': signOut },
    },
    expired: {
      on: { 'signIn.submit': signIn },
    },
  },
});

function accountOf(event: { type: string; output?: unknown }): SessionAccount | undefined {
  const output = event.output as { account?: SessionAccount } | undefined;
  return output?.account;
}

function fromPromiseDefault<TOutput, TInput>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`sessionMachine: actor "${name}" was not provided`);
  });
}

/**
 * Path generation keys states by their value and the number of accounts held: the rest of the
 * context (error codes, sample payloads) would multiply the paths without new user-visible states.
 */
export function pathsSerializeState(snapshot: { value: unknown; context: SessionContext }): string {
  return `${JSON.stringify(snapshot.value)}|${snapshot.context.accounts.length}`;
}

/** Sample input for path generation (`npm run paths -- session`): nobody signed in yet. */
export const pathsInput: SessionInput = { accounts: [] };

const sampleAccount: SessionAccount = {
  accountIndex: 0,
  userName: 'admin@demo.test',
  userFullName: 'Ada Admin',
  tenantId: '1',
  tenantName: 'Demo Versicherung AG',
  tenantSlug: 'demo',
  sub: 'user-admin',
  userCode: null,
  permissions: ['*.*.*'],
  isRequiredToChangePassword: false,
  expiresAt: 0,
  workspace: 'demo',
};

const forcedAccount: SessionAccount = {
  ...sampleAccount,
  userName: 'newpass@demo.test',
  userFullName: 'Nora Newpass',
  sub: 'user-newpass',
  permissions: [],
  isRequiredToChangePassword: true,
};

/**
 * Sample events for path generation, per event type (the shape `machines/testing/model.ts`
 * reads). The `xstate.done.actor.*` entries stand for what the BFF answers; a tester reproduces
 * each by signing in as the user named in the comment.
 */
export const pathEvents: Readonly<Record<string, readonly AnyEventObject[]>> = {
  'signIn.submit': [
    {
      type: 'signIn.submit',
      credentials: { kind: 'password', username: 'admin@demo.test', password: 'Demo1234!' },
    },
  ],
  'xstate.done.actor.signIn': [
    // admin@demo.test
    {
      type: 'xstate.done.actor.signIn',
      output: { kind: 'signedIn', accountIndex: 0, account: sampleAccount },
    },
    // newpass@demo.test
    {
      type: 'xstate.done.actor.signIn',
      output: { kind: 'passwordChangeRequired', accountIndex: 0, account: forcedAccount },
    },
    // noui@demo.test
    { type: 'xstate.done.actor.signIn', output: { kind: 'refusedNoUi' } },
    // a wrong password
    { type: 'xstate.done.actor.signIn', output: { kind: 'failed', error: 'invalid_credentials' } },
    // a user name after too many wrong passwords
    { type: 'xstate.done.actor.signIn', output: { kind: 'rateLimited', retryAfterSeconds: 60 } },
  ],
  'password.submit': [{ type: 'password.submit', accountIndex: 0, newPassword: 'Changed1234!' }],
  'xstate.done.actor.changePassword': [
    {
      type: 'xstate.done.actor.changePassword',
      output: { kind: 'changed', account: { ...forcedAccount, isRequiredToChangePassword: false } },
    },
    {
      type: 'xstate.done.actor.changePassword',
      output: { kind: 'failed', error: 'invalid_password' },
    },
  ],
  'account.signOut': [{ type: 'account.signOut', accountIndex: 0 }],
  'xstate.done.actor.signOut': [{ type: 'xstate.done.actor.signOut' }],
  'session.expired': [{ type: 'session.expired', accountIndex: 0, location: '/u/0' }],
  // a workspace switch of admin@demo.test
  'account.updated': [
    { type: 'account.updated', account: { ...sampleAccount, workspace: 'demo-sandbox' } },
  ],
};

/** All sample events in one list, as `createTestModel` takes them. */
export const pathEventList: readonly AnyEventObject[] = Object.values(pathEvents).flat();
