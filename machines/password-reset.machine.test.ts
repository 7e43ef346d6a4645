import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { passwordResetMachine, pathEvents } from './password-reset.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

function start() {
  const requestReset = controlledPromise<unknown, { email: string }>();
  const verifyResetToken = controlledPromise<{ email: string }, { resetToken: string }>();
  const resetPassword = controlledPromise<unknown, { resetToken: string; newPassword: string }>();
  const showExpiredToken = vi.fn();
  const actor = createActor(
    passwordResetMachine.provide({
      actors: {
        requestReset: requestReset.logic,
        verifyResetToken: verifyResetToken.logic,
        resetPassword: resetPassword.logic,
      },
      actions: { showExpiredToken },
    }),
  ).start();
  return { actor, requestReset, verifyResetToken, resetPassword, showExpiredToken };
}

const forbidden = { status: 403, code: 'invalid_token' };

describe('passwordResetMachine without a token', () => {
  it('waits for the page, then shows the request form', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('opening');
    actor.send({ type: 'page.opened', resetToken: null });
    expect(actor.getSnapshot().value).toBe('requestForm');
    const empty = start().actor;
    empty.send({ type: 'page.opened', resetToken: '' });
    expect(empty.getSnapshot().value).toBe('requestForm');
  });

  it('sends the trimmed address once and ends in the confirmation', async () => {
    const { actor, requestReset } = start();
    actor.send({ type: 'page.opened', resetToken: null });
    actor.send({ type: 'request.submit', email: '  someone@example.test ' });
    actor.send({ type: 'request.submit', email: 'other@example.test' });
    expect(actor.getSnapshot().value).toBe('requesting');
    expect(requestReset.calls.map((c) => c.input)).toEqual([{ email: 'someone@example.test' }]);
    requestReset.last().resolve(undefined);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('requestSent');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('refuses a blank address without a call', () => {
    const { actor, requestReset } = start();
    actor.send({ type: 'page.opened', resetToken: null });
    expect(actor.getSnapshot().can({ type: 'request.submit', email: ' ' })).toBe(false);
    actor.send({ type: 'request.submit', email: ' ' });
    expect(actor.getSnapshot().value).toBe('requestForm');
    expect(requestReset.calls).toHaveLength(0);
  });

  it('keeps the address and shows the error when the request fails', async () => {
    const { actor, requestReset } = start();
    actor.send({ type: 'page.opened', resetToken: null });
    actor.send({ type: 'request.submit', email: 'someone@example.test' });
    requestReset.last().reject({ status: 429, code: 'rate_limited' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('requestForm');
    expect(actor.getSnapshot().context).toMatchObject({
      email: 'someone@example.test',
      error: 'rate_limited',
    });
    actor.send({ type: 'request.submit', email: 'someone@example.test' });
    expect(actor.getSnapshot().context.error).toBeUndefined();
    requestReset.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(actor.getSnapshot().context.error).toBe('unknown');
  });
});

describe('passwordResetMachine with the link', () => {
  async function verified() {
    const started = start();
    started.actor.send({ type: 'page.opened', resetToken: 'abc' });
    expect(started.actor.getSnapshot().value).toBe('verifying');
    expect(started.verifyResetToken.last().input).toEqual({ resetToken: 'abc' });
    started.verifyResetToken.last().resolve({ email: 'leon@demo.test' });
    await flushPromises();
    return started;
  }

  it('verifies, then resets with the token and the new password, which stays out of context', async () => {
    const { actor, resetPassword } = await verified();
    expect(actor.getSnapshot().value).toBe('resetForm');
    expect(actor.getSnapshot().context.email).toBe('leon@demo.test');
    actor.send({ type: 'reset.submit', newPassword: 'Fresh1234' });
    expect(actor.getSnapshot().value).toBe('resetting');
    expect(resetPassword.last().input).toEqual({ resetToken: 'abc', newPassword: 'Fresh1234' });
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('Fresh1234');
    resetPassword.last().resolve(undefined);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('goes to the expired-token page on a 403 of the verification', async () => {
    const { actor, verifyResetToken, showExpiredToken } = start();
    actor.send({ type: 'page.opened', resetToken: 'used' });
    verifyResetToken.last().reject(forbidden);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('expired');
    expect(showExpiredToken).toHaveBeenCalledTimes(1);
  });

  it('goes to the expired-token page on a 403 of the reset (used meanwhile)', async () => {
    const { actor, resetPassword, showExpiredToken } = await verified();
    actor.send({ type: 'reset.submit', newPassword: 'Fresh1234' });
    resetPassword.last().reject(forbidden);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('expired');
    expect(showExpiredToken).toHaveBeenCalledTimes(1);
  });

  it('stays on the form with the error when the password is refused or the call fails', async () => {
    const { actor, resetPassword, showExpiredToken } = await verified();
    actor.send({ type: 'reset.submit', newPassword: 'weakweak' });
    resetPassword.last().reject({ status: 400, code: 'invalid_password' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('resetForm');
    expect(actor.getSnapshot().context.error).toBe('invalid_password');
    actor.send({ type: 'reset.submit', newPassword: '' });
    expect(actor.getSnapshot().value).toBe('resetForm');
    actor.send({ type: 'reset.submit', newPassword: 'Fresh1234' });
    resetPassword.last().reject({ status: 502, code: 'upstream_unavailable' });
    await flushPromises();
    expect(actor.getSnapshot().context.error).toBe('upstream_unavailable');
    expect(showExpiredToken).not.toHaveBeenCalled();
  });

  it('offers a retry when the verification fails for another reason', async () => {
    const { actor, verifyResetToken } = start();
    actor.send({ type: 'page.opened', resetToken: 'abc' });
    verifyResetToken.last().reject({ status: 502, code: 'upstream_unavailable' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('verifyFailed');
    actor.send({ type: 'verify.retry' });
    expect(actor.getSnapshot().value).toBe('verifying');
    expect(verifyResetToken.calls).toHaveLength(2);
  });
});

describe('passwordResetMachine model', () => {
  const model = createMachineTestModel(passwordResetMachine, { events: pathEvents });
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(passwordResetMachine, paths);
  });
});
