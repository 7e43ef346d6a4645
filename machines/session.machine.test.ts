import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  pathEventList,
  pathsInput,
  pathsSerializeState,
  sessionMachine,
  type ChangePasswordResult,
  type SessionAccount,
  type SignInResult,
} from './session.machine.ts';

const admin: SessionAccount = {
  accountIndex: 0,
  userName: 'admin@demo.test',
  userFullName: 'Ada Admin',
  tenantId: '1',
  tenantName: 'Demo Versicherung AG',
  tenantSlug: 'demo',
  sub: 'u-admin',
  userCode: null,
  permissions: ['*.*.*'],
  isRequiredToChangePassword: false,
  expiresAt: 0,
  workspace: 'demo',
};
const manager: SessionAccount = { ...admin, accountIndex: 1, userName: 'manager@demo.test' };

function setupActor(opts: {
  accounts?: SessionAccount[];
  signIn?: SignInResult | Error;
  changePassword?: ChangePasswordResult | Error;
  signOut?: Error;
  clock?: SimulatedClock;
}) {
  const calls = {
    persistAccounts: vi.fn(),
    navigateAfterSignIn: vi.fn(),
    navigateToPasswordChange: vi.fn(),
    navigateAfterSignOut: vi.fn(),
    redirectToLogin: vi.fn(),
    signIn: vi.fn(),
    signOut: vi.fn(),
    changePassword: vi.fn(),
  };
  const machine = sessionMachine.provide({
    actors: {
      signIn: fromPromise(async ({ input }) => {
        calls.signIn(input);
        if (opts.signIn instanceof Error) throw opts.signIn;
        return opts.signIn ?? { kind: 'failed', error: 'invalid_credentials' };
      }),
      changePassword: fromPromise(async ({ input }) => {
        calls.changePassword(input);
        if (opts.changePassword instanceof Error) throw opts.changePassword;
        return opts.changePassword ?? { kind: 'failed', error: 'invalid_password' };
      }),
      signOut: fromPromise(async ({ input }) => {
        calls.signOut(input);
        if (opts.signOut) throw opts.signOut;
      }),
    },
    actions: {
      persistAccounts: (_, p) => calls.persistAccounts(p),
      navigateAfterSignIn: (_, p) => calls.navigateAfterSignIn(p),
      navigateToPasswordChange: (_, p) => calls.navigateToPasswordChange(p),
      navigateAfterSignOut: (_, p) => calls.navigateAfterSignOut(p),
      redirectToLogin: (_, p) => calls.redirectToLogin(p),
    },
  });
  const actor = createActor(machine, {
    input: { accounts: opts.accounts ?? [] },
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  actor.start();
  return { actor, calls };
}

async function settle(actor: { getSnapshot(): { value: unknown } }, state: string) {
  await vi.waitFor(() => expect(actor.getSnapshot().value).toBe(state));
}

const credentials = { kind: 'password' as const, username: 'admin@demo.test', password: 'x' };

describe('sessionMachine', () => {
  it('starts idle with the accounts the server session already holds, sorted by index', () => {
    const { actor } = setupActor({ accounts: [manager, admin] });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.accounts.map((a) => a.accountIndex)).toEqual([0, 1]);
  });

  it('signs in, stores the account and navigates to the backUrl', async () => {
    const { actor, calls } = setupActor({
      signIn: { kind: 'signedIn', accountIndex: 0, account: admin },
    });
    actor.send({ type: 'signIn.submit', credentials, backUrl: '/u/0/profile' });
    expect(actor.getSnapshot().value).toBe('signingIn');
    await settle(actor, 'signedIn');
    expect(calls.signIn).toHaveBeenCalledWith({ credentials });
    expect(actor.getSnapshot().context.accounts).toEqual([admin]);
    expect(actor.getSnapshot().context.pendingCredentials).toBeUndefined();
    expect(calls.persistAccounts).toHaveBeenLastCalledWith({ accounts: [admin] });
    expect(calls.navigateAfterSignIn).toHaveBeenCalledWith({
      accountIndex: 0,
      backUrl: '/u/0/profile',
    });
  });

  it('adds a second account next to the first', async () => {
    const { actor } = setupActor({
      accounts: [admin],
      signIn: { kind: 'signedIn', accountIndex: 1, account: manager },
    });
    actor.send({ type: 'signIn.submit', credentials });
    await settle(actor, 'signedIn');
    expect(actor.getSnapshot().context.accounts.map((a) => a.userName)).toEqual([
      'admin@demo.test',
      'manager@demo.test',
    ]);
  });

  it('treats a required password change as its own state, not a success', async () => {
    const flagged = { ...admin, isRequiredToChangePassword: true, permissions: [] };
    const { actor, calls } = setupActor({
      signIn: { kind: 'passwordChangeRequired', accountIndex: 0, account: flagged },
      changePassword: { kind: 'changed', account: admin },
    });
    actor.send({ type: 'signIn.submit', credentials, backUrl: '/u/0' });
    await settle(actor, 'passwordChangeRequired');
    expect(calls.navigateAfterSignIn).not.toHaveBeenCalled();
    expect(calls.navigateToPasswordChange).toHaveBeenCalledWith({
      accountIndex: 0,
      backUrl: '/u/0',
    });

    actor.send({ type: 'password.submit', accountIndex: 0, newPassword: 'New12345' });
    await settle(actor, 'signedIn');
    expect(calls.changePassword).toHaveBeenCalledWith({ accountIndex: 0, newPassword: 'New12345' });
    expect(actor.getSnapshot().context.accounts[0]?.isRequiredToChangePassword).toBe(false);
    expect(calls.navigateAfterSignIn).toHaveBeenCalledWith({ accountIndex: 0, backUrl: '/u/0' });
  });

  it('stays on the password change with the error when the new password is refused', async () => {
    const { actor, calls } = setupActor({
      accounts: [{ ...admin, isRequiredToChangePassword: true }],
      changePassword: { kind: 'failed', error: 'invalid_password' },
    });
    actor.send({ type: 'password.submit', accountIndex: 0, newPassword: 'short' });
    await settle(actor, 'passwordChangeRequired');
    expect(actor.getSnapshot().context.passwordError).toBe('invalid_password');
    expect(calls.navigateToPasswordChange).not.toHaveBeenCalled();
  });

  it('refuses a user without UI permission', async () => {
    const { actor, calls } = setupActor({ signIn: { kind: 'refusedNoUi' } });
    actor.send({ type: 'signIn.submit', credentials });
    await settle(actor, 'refusedNoUi');
    expect(actor.getSnapshot().context.accounts).toEqual([]);
    expect(calls.persistAccounts).not.toHaveBeenCalled();
  });

  it('keeps the error code of a failed sign-in and lets the user retry', async () => {
    const { actor } = setupActor({ signIn: { kind: 'failed', error: 'invalid_credentials' } });
    actor.send({ type: 'signIn.submit', credentials });
    await settle(actor, 'failed');
    expect(actor.getSnapshot().context.signInError).toBe('invalid_credentials');
    expect(actor.getSnapshot().can({ type: 'signIn.submit', credentials })).toBe(true);
  });

  it('fails with an unknown error when the call itself rejects', async () => {
    const { actor } = setupActor({ signIn: new Error('network') });
    actor.send({ type: 'signIn.submit', credentials });
    await settle(actor, 'failed');
    expect(actor.getSnapshot().context.signInError).toBe('unknown');
  });

  it('waits out the rate limit before accepting another attempt (simulated clock)', async () => {
    const clock = new SimulatedClock();
    const { actor } = setupActor({ clock, signIn: { kind: 'rateLimited', retryAfterSeconds: 30 } });
    actor.send({ type: 'signIn.submit', credentials });
    await settle(actor, 'rateLimited');
    expect(actor.getSnapshot().can({ type: 'signIn.submit', credentials })).toBe(false);
    clock.increment(29_999);
    expect(actor.getSnapshot().value).toBe('rateLimited');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('signs out of one account and keeps the others', async () => {
    const { actor, calls } = setupActor({ accounts: [admin, manager] });
    actor.send({ type: 'account.signOut', accountIndex: 0 });
    await settle(actor, 'signedOut');
    expect(calls.signOut).toHaveBeenCalledWith({ accountIndex: 0 });
    expect(actor.getSnapshot().context.accounts).toEqual([manager]);
    expect(calls.navigateAfterSignOut).toHaveBeenCalledWith({ remaining: [manager] });
  });

  it('forgets the account locally even when the sign-out call fails', async () => {
    const { actor } = setupActor({ accounts: [admin], signOut: new Error('502') });
    actor.send({ type: 'account.signOut', accountIndex: 0 });
    await settle(actor, 'signedOut');
    expect(actor.getSnapshot().context.accounts).toEqual([]);
  });

  it('ignores sign-out of an account it does not hold', () => {
    const { actor } = setupActor({ accounts: [admin] });
    actor.send({ type: 'account.signOut', accountIndex: 5 });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('drops an expired account and redirects to login with the backUrl, from any state', async () => {
    const { actor, calls } = setupActor({ accounts: [admin, manager] });
    actor.send({ type: 'session.expired', accountIndex: 1, location: '/u/1/profile?x=1' });
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context.accounts).toEqual([admin]);
    expect(calls.redirectToLogin).toHaveBeenCalledWith({
      backUrl: '/u/1/profile?x=1',
      reason: null,
    });
  });

  it('passes on that the UI permission is gone', () => {
    const { calls, actor } = setupActor({ accounts: [admin] });
    actor.send({
      type: 'session.expired',
      accountIndex: 0,
      location: '/u/0',
      reason: 'no_ui_permission',
    });
    expect(calls.redirectToLogin).toHaveBeenCalledWith({
      backUrl: '/u/0',
      reason: 'no_ui_permission',
    });
  });

  it('passes on that the user was disabled', () => {
    const { calls, actor } = setupActor({ accounts: [admin] });
    actor.send({
      type: 'session.expired',
      accountIndex: 0,
      location: '/u/0',
      reason: 'user_disabled',
    });
    expect(actor.getSnapshot().context.accounts).toEqual([]);
    expect(calls.redirectToLogin).toHaveBeenCalledWith({
      backUrl: '/u/0',
      reason: 'user_disabled',
    });
  });

  it('takes account updates (workspace switch) without changing state', () => {
    const { actor, calls } = setupActor({ accounts: [admin] });
    actor.send({ type: 'account.updated', account: { ...admin, workspace: 'demo-sandbox' } });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.accounts[0]?.workspace).toBe('demo-sandbox');
    expect(calls.persistAccounts).toHaveBeenCalled();
  });
});

describe('sessionMachine model', () => {
  const model = createTestModel(sessionMachine, {
    events: pathEventList as never,
    input: pathsInput as never,
    serializeState: pathsSerializeState as never,
  });

  it('reaches every state from the sample events', () => {
    const reached = new Set(
      model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => String(p.state.value)),
    );
    const all = Object.keys(sessionMachine.config.states ?? {});
    expect([...reached].sort()).toEqual(all.sort());
  });

  it('every generated path replays on the real machine with fake I/O', async () => {
    const paths = model.getShortestPaths();
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) {
      await path.test({
        states: Object.fromEntries(
          Object.keys(sessionMachine.config.states ?? {}).map((s) => [
            s,
            (snapshot: { matches: (v: never) => boolean }) =>
              expect(snapshot.matches(s as never)).toBe(true),
          ]),
        ),
        events: {},
      });
    }
  });
});
