import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type SessionAccount } from '#machines/session.machine.ts';
import { accountKey } from '#client/api/query-keys.ts';
import {
  createQueryClient,
  followSessionAccounts,
  forgetChangedAccounts,
} from './server-state.tsx';

// Two accounts of one browser; only what identifies an account matters to the cache.
const ada: SessionAccount = {
  accountIndex: 0,
  sub: 'u-ada',
  tenantId: '1',
  tenantSlug: 'demo',
  workspace: 'demo',
  userName: 'ada@demo.test',
  userFullName: 'Ada',
  tenantName: 'Demo',
  userCode: null,
  permissions: ['*.*.*'],
  isRequiredToChangePassword: false,
  expiresAt: 0,
};
const bea: SessionAccount = { ...ada, accountIndex: 1, userName: 'bea@other.test', sub: 'u-bea' };

/** A cache holding one customer for each of the two accounts, and one entry of no account. */
function filledClient() {
  const client = createQueryClient();
  client.setQueryData([...accountKey(0), 'customers', 'detail', 'C-1'], { code: 'C-1' });
  client.setQueryData([...accountKey(1), 'customers', 'detail', 'C-9'], { code: 'C-9' });
  client.setQueryData(['config'], { buildId: 'b' });
  return client;
}

const keysOf = (client: ReturnType<typeof createQueryClient>) =>
  client
    .getQueryCache()
    .getAll()
    .map((query) => query.queryKey)
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('forgetChangedAccounts', () => {
  it('keeps the entries of accounts still signed in as the same user in the same workspace', () => {
    const client = filledClient();
    forgetChangedAccounts(client, [ada, bea], [ada, { ...bea, permissions: [] }]);
    expect(keysOf(client)).toHaveLength(3);
  });

  it('drops what a signed-out account loaded, and nothing of the other account', () => {
    const client = filledClient();
    forgetChangedAccounts(client, [ada, bea], [bea]);
    expect(keysOf(client)).toEqual([['account', 1, 'customers', 'detail', 'C-9'], ['config']]);
  });

  it('drops an account that switched workspace, though its index stays', () => {
    const client = filledClient();
    const switched = { ...ada, tenantId: '2', tenantSlug: 'other', workspace: 'other' };
    forgetChangedAccounts(client, [ada, bea], [switched, bea]);
    expect(client.getQueryData([...accountKey(0), 'customers', 'detail', 'C-1'])).toBeUndefined();
    expect(client.getQueryData([...accountKey(1), 'customers', 'detail', 'C-9'])).toEqual({
      code: 'C-9',
    });
  });

  it('drops the entries of an index a different user now holds', () => {
    const client = filledClient();
    forgetChangedAccounts(client, [ada, bea], [ada, { ...bea, sub: 'u-carl' }]);
    expect(client.getQueryData([...accountKey(1), 'customers', 'detail', 'C-9'])).toBeUndefined();
    expect(client.getQueryData([...accountKey(0), 'customers', 'detail', 'C-1'])).toBeDefined();
  });

  it('cancels a load under way for a dropped account, so its answer never lands', async () => {
    const client = createQueryClient();
    const key = [...accountKey(0), 'customers', 'detail', 'C-1'];
    let aborted = false;
    const load = client.fetchQuery({
      queryKey: key,
      queryFn: ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ code: 'late' });
          });
        }),
    });
    forgetChangedAccounts(client, [ada], []);
    await load.catch(() => undefined);
    expect(aborted).toBe(true);
    expect(client.getQueryData(key)).toBeUndefined();
  });
});

describe('followSessionAccounts with the session machine', () => {
  function start(accounts: SessionAccount[]) {
    const actor = createActor(
      sessionMachine.provide({
        actors: { signOut: fromPromise<void, { accountIndex: number }>(async () => {}) },
      }),
      { input: { accounts } },
    ).start();
    const client = filledClient();
    const stop = followSessionAccounts(client, actor);
    return { actor, client, stop };
  }

  it('clears an account on sign-out', async () => {
    const { actor, client, stop } = start([ada, bea]);
    actor.send({ type: 'account.signOut', accountIndex: 0 });
    await new Promise<void>((resolve) =>
      actor.subscribe((s) => s.matches('signedOut') && resolve()),
    );
    expect(client.getQueryData([...accountKey(0), 'customers', 'detail', 'C-1'])).toBeUndefined();
    expect(client.getQueryData([...accountKey(1), 'customers', 'detail', 'C-9'])).toBeDefined();
    stop();
  });

  it('clears an account whose session expired', () => {
    const { actor, client, stop } = start([ada, bea]);
    actor.send({ type: 'session.expired', accountIndex: 1, location: '/u/1/customers' });
    expect(client.getQueryData([...accountKey(1), 'customers', 'detail', 'C-9'])).toBeUndefined();
    expect(client.getQueryData([...accountKey(0), 'customers', 'detail', 'C-1'])).toBeDefined();
    stop();
  });

  it('clears an account switched to another workspace (account.updated)', () => {
    const { actor, client, stop } = start([ada, bea]);
    actor.send({
      type: 'account.updated',
      account: { ...ada, tenantId: '2', tenantSlug: 'other', workspace: 'other' },
    });
    expect(client.getQueryData([...accountKey(0), 'customers', 'detail', 'C-1'])).toBeUndefined();
    stop();
  });

  it('stops following once unsubscribed', () => {
    const { actor, client, stop } = start([ada, bea]);
    stop();
    actor.send({ type: 'session.expired', accountIndex: 1, location: '/u/1' });
    expect(client.getQueryData([...accountKey(1), 'customers', 'detail', 'C-9'])).toBeDefined();
  });
});
