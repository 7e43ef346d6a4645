import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';
import {
  awaitFreshToken,
  pathEvents,
  pathsInput,
  tokenRefreshMachine,
} from './token-refresh.machine.ts';

const HOUR = 3_600_000;

function start(expiresAt = HOUR, marginMs?: number) {
  const refresh = controlledPromise<{ expiresAt: number }, Record<string, never>>();
  const logRefreshError = vi.fn();
  const machine = tokenRefreshMachine.provide({
    actors: { refreshTokens: refresh.logic },
    actions: { logRefreshError: (_, params) => logRefreshError(params.error) },
  });
  const actor = createActor(machine, {
    input: marginMs === undefined ? { expiresAt } : { expiresAt, marginMs },
  }).start();
  return { actor, refresh, logRefreshError };
}

describe('tokenRefreshMachine', () => {
  it('starts valid with the default 10 s margin', () => {
    const { actor } = start();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('valid');
    expect(snapshot.context).toEqual({ expiresAt: HOUR, marginMs: 10_000, lastError: null });
  });

  it('stays valid while at least the margin remains', () => {
    const { actor, refresh } = start();
    actor.send({ type: 'token.needed', now: HOUR - 10_000 });
    expect(actor.getSnapshot().value).toBe('valid');
    expect(refresh.calls).toHaveLength(0);
  });

  it('refreshes when less than the margin remains, and after expiry', () => {
    const { actor, refresh } = start();
    actor.send({ type: 'token.needed', now: HOUR - 9_999 });
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(refresh.calls).toHaveLength(1);
    expect(refresh.last().input).toEqual({});

    const late = start();
    late.actor.send({ type: 'token.needed', now: HOUR + 60_000 });
    expect(late.actor.getSnapshot().value).toBe('refreshing');
  });

  it('honours a custom margin', () => {
    const { actor } = start(HOUR, 60_000);
    actor.send({ type: 'token.needed', now: HOUR - 59_000 });
    expect(actor.getSnapshot().value).toBe('refreshing');
  });

  it('stores the new expiry on success and clears the last error', async () => {
    const { actor, refresh } = start();
    actor.send({ type: 'token.needed', now: HOUR });
    refresh.last().reject({ kind: 'transient' });
    await flushPromises();
    expect(actor.getSnapshot().context.lastError).toBe('transient');

    actor.send({ type: 'token.needed', now: HOUR });
    refresh.last().resolve({ expiresAt: 2 * HOUR });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('valid');
    expect(actor.getSnapshot().context).toMatchObject({ expiresAt: 2 * HOUR, lastError: null });
  });

  it('ignores token.needed while refreshing (single flight)', () => {
    const { actor, refresh } = start();
    actor.send({ type: 'token.needed', now: HOUR });
    actor.send({ type: 'token.needed', now: HOUR + 1 });
    actor.send({ type: 'token.needed', now: HOUR + 2 });
    expect(refresh.calls).toHaveLength(1);
    expect(actor.getSnapshot().can({ type: 'token.needed', now: HOUR })).toBe(false);
  });

  it('goes to expired (final) when the refresh token is rejected, and logs it', async () => {
    const { actor, refresh, logRefreshError } = start();
    actor.send({ type: 'token.needed', now: HOUR });
    refresh.last().reject({ kind: 'rejected' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.lastError).toBe('rejected');
    expect(logRefreshError).toHaveBeenCalledWith({ kind: 'rejected' });
  });

  it.each([[{ kind: 'transient' }], [new Error('ECONNRESET')], ['boom'], [null]])(
    'keeps the old token after a transient failure (%j) and retries on the next call',
    async (error) => {
      const { actor, refresh, logRefreshError } = start();
      actor.send({ type: 'token.needed', now: HOUR });
      refresh.last().reject(error);
      await flushPromises();
      expect(actor.getSnapshot().value).toBe('valid');
      expect(actor.getSnapshot().context).toMatchObject({
        expiresAt: HOUR,
        lastError: 'transient',
      });
      expect(logRefreshError).toHaveBeenCalledWith(error);

      actor.send({ type: 'token.needed', now: HOUR });
      expect(actor.getSnapshot().value).toBe('refreshing');
      expect(refresh.calls).toHaveLength(2);
    },
  );

  it('token.replaced sets the expiry, also in the middle of a refresh', async () => {
    const { actor, refresh } = start();
    actor.send({ type: 'token.replaced', expiresAt: 2 * HOUR });
    expect(actor.getSnapshot().context.expiresAt).toBe(2 * HOUR);

    actor.send({ type: 'token.needed', now: 2 * HOUR });
    actor.send({ type: 'token.replaced', expiresAt: 3 * HOUR });
    expect(actor.getSnapshot().value).toBe('valid');
    // The dropped refresh finishing late changes nothing.
    refresh.last().resolve({ expiresAt: 99 });
    await flushPromises();
    expect(actor.getSnapshot().context).toMatchObject({ expiresAt: 3 * HOUR, lastError: null });
  });
});

describe('awaitFreshToken', () => {
  it('answers valid at once for a fresh token', async () => {
    const { actor, refresh } = start();
    await expect(awaitFreshToken(actor, 0)).resolves.toBe('valid');
    expect(refresh.calls).toHaveLength(0);
  });

  it('50 concurrent callers cause exactly one refreshTokens invocation', async () => {
    const refreshTokens = vi.fn(async () => ({ expiresAt: 2 * HOUR }));
    const { fromPromise } = await import('xstate');
    const actor = createActor(
      tokenRefreshMachine.provide({ actors: { refreshTokens: fromPromise(refreshTokens) } }),
      { input: { expiresAt: HOUR } },
    ).start();

    const first = Array.from({ length: 25 }, () => awaitFreshToken(actor, HOUR - 1));
    await Promise.resolve(); // the rest arrive a little later, still during the refresh
    const second = Array.from({ length: 25 }, () => awaitFreshToken(actor, HOUR - 1));
    const outcomes = await Promise.all([...first, ...second]);

    expect(refreshTokens).toHaveBeenCalledTimes(1);
    expect(outcomes).toEqual(Array(50).fill('valid'));
    expect(actor.getSnapshot().context.expiresAt).toBe(2 * HOUR);
  });

  it('every waiting caller learns of a rejection or a transient failure', async () => {
    for (const [kind, outcome] of [
      ['rejected', 'expired'],
      ['transient', 'transient'],
    ] as const) {
      const { actor, refresh } = start();
      const waiting = Array.from({ length: 50 }, () => awaitFreshToken(actor, HOUR));
      expect(refresh.calls).toHaveLength(1);
      refresh.last().reject({ kind });
      expect(await Promise.all(waiting)).toEqual(Array(50).fill(outcome));
    }
  });

  it('answers expired once the machine is done', async () => {
    const { actor, refresh } = start();
    const pending = awaitFreshToken(actor, HOUR);
    refresh.last().reject({ kind: 'rejected' });
    await expect(pending).resolves.toBe('expired');
    await expect(awaitFreshToken(actor, 0)).resolves.toBe('expired');
  });

  it('answers valid for a fresh token even after an earlier transient failure', async () => {
    const { actor, refresh } = start();
    const pending = awaitFreshToken(actor, HOUR);
    refresh.last().reject({ kind: 'transient' });
    await expect(pending).resolves.toBe('transient');
    await expect(awaitFreshToken(actor, 0)).resolves.toBe('valid');
  });

  it('does not hang when the actor is stopped during a refresh', async () => {
    const { actor } = start();
    const pending = awaitFreshToken(actor, HOUR);
    actor.stop();
    await expect(pending).resolves.toBe('expired');
  });
});

describe('tokenRefreshMachine model', () => {
  const model = createMachineTestModel(tokenRefreshMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  // Shortest paths plus one path per transition (simple paths are too many here).
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(tokenRefreshMachine, paths);
  });
});
