import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { RegisterInput, VerifiedInvitation } from './registration-wizard.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { describeWizardModel } from './testing/registration-wizard-model.ts';
import { pathEvents, pathsInput, userRegistrationMachine } from './user-registration.machine.ts';

const invitation = { email: 'rita@example.test', organization: { id: 3, name: 'Makler AG' } };
const user = { email: 'rita@example.test', firstName: 'Rita', lastName: 'Register' };
const custom = { registrationNumber: 'HRB 123' };
const org = { street: 'Ringstraße', houseNumber: '7', zipCode: '04109', city: 'Leipzig' };

function start(token: string | null = 'tok') {
  const verify = controlledPromise<VerifiedInvitation, { token: string | null }>();
  const register = controlledPromise<unknown, RegisterInput>();
  const calls = {
    showStep: vi.fn(),
    showExpiredToken: vi.fn(),
    showSuccess: vi.fn(),
    logError: vi.fn(),
  };
  const actor = createActor(
    userRegistrationMachine.provide({
      actors: { verifyInvitation: verify.logic, register: register.logic },
      actions: {
        showStep: (_, params) => calls.showStep(params.step),
        showExpiredToken: () => calls.showExpiredToken(),
        showSuccess: () => calls.showSuccess(),
        logError: (_, params) => calls.logError(params.error),
      },
    }),
    { input: { token } },
  ).start();
  const verified = async (hasCustomSchema: boolean) => {
    verify
      .last()
      .resolve({ invitation, hasCustomSchema, values: { userData: { email: user.email } } });
    await flushPromises();
  };
  return { actor, verify, register, calls, verified };
}

describe('userRegistrationMachine', () => {
  it('verifies the token, then walks user data, custom data and organisation data', async () => {
    const { actor, verify, register, calls, verified } = start();
    expect(actor.getSnapshot().value).toBe('verifying');
    expect(verify.last().input).toEqual({ token: 'tok' });

    await verified(true);
    expect(actor.getSnapshot().value).toEqual({ editing: 'userData' });
    expect(actor.getSnapshot().context.values).toEqual({ userData: { email: user.email } });

    actor.send({ type: 'wizard.next', values: user });
    expect(actor.getSnapshot().value).toEqual({ editing: 'customData' });
    actor.send({ type: 'wizard.next', values: custom });
    expect(actor.getSnapshot().value).toEqual({ editing: 'orgData' });
    expect(calls.showStep.mock.calls.map(([step]) => step)).toEqual([
      'userData',
      'customData',
      'orgData',
    ]);

    actor.send({ type: 'wizard.submit', values: org });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(register.last().input).toEqual({
      token: 'tok',
      invitation,
      values: { userData: user, customData: custom, orgData: org },
    });
    register.last().resolve({ email: user.email });
    await flushPromises();
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().value).toBe('done');
    expect(calls.showSuccess).toHaveBeenCalledOnce();
    expect(calls.showExpiredToken).not.toHaveBeenCalled();
  });

  it('skips the custom step without a custom schema, both ways', async () => {
    const { actor, verified } = start();
    await verified(false);
    actor.send({ type: 'wizard.next', values: user });
    expect(actor.getSnapshot().value).toEqual({ editing: 'orgData' });
    actor.send({ type: 'wizard.previous', values: org });
    expect(actor.getSnapshot().value).toEqual({ editing: 'userData' });
    // Values of both steps are kept: going back stored the organisation data too.
    expect(actor.getSnapshot().context.values).toEqual({ userData: user, orgData: org });
  });

  it('keeps the values of a step when the user goes back and forth', async () => {
    const { actor, verified } = start();
    await verified(true);
    actor.send({ type: 'wizard.next', values: user });
    actor.send({ type: 'wizard.previous', values: custom });
    expect(actor.getSnapshot().value).toEqual({ editing: 'userData' });
    expect(actor.getSnapshot().context.values).toEqual({ userData: user, customData: custom });
    // Submit is only possible on the last step.
    expect(actor.getSnapshot().can({ type: 'wizard.submit', values: user })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'wizard.previous', values: user })).toBe(false);
  });

  it('goes to the expired-token page when the verification fails', async () => {
    const { actor, verify, calls } = start(null);
    expect(verify.last().input).toEqual({ token: null });
    verify.last().reject({ status: 403 });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls.showExpiredToken).toHaveBeenCalledOnce();
    expect(calls.showStep).not.toHaveBeenCalled();
  });

  it('goes to the expired-token page when the token is refused on submit (403)', async () => {
    const { actor, register, calls, verified } = start();
    await verified(false);
    actor.send({ type: 'wizard.next', values: user });
    actor.send({ type: 'wizard.submit', values: org });
    register.last().reject({ status: 403, code: 'invalid_token' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(calls.showExpiredToken).toHaveBeenCalledOnce();
    expect(calls.logError).not.toHaveBeenCalled();
  });

  it('keeps every value after a save error, logs it and lets the user submit again', async () => {
    const { actor, register, calls, verified } = start();
    await verified(true);
    actor.send({ type: 'wizard.next', values: user });
    actor.send({ type: 'wizard.next', values: custom });
    actor.send({ type: 'wizard.submit', values: org });
    // While the call runs, a second submit is not possible (the button is disabled).
    expect(actor.getSnapshot().can({ type: 'wizard.submit', values: org })).toBe(false);
    const error = { status: 409, code: 'already_registered' };
    register.last().reject(error);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(error);
    expect(actor.getSnapshot().context.values).toEqual({
      userData: user,
      customData: custom,
      orgData: org,
    });
    expect(calls.logError).toHaveBeenCalledWith(error);

    const corrected = { ...org, city: 'Dresden' };
    actor.send({ type: 'wizard.submit', values: corrected });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(register.calls).toHaveLength(2);
    expect(register.last().input.values.orgData).toEqual(corrected);
  });

  it('goes back from a save error to the custom step, storing the last step', async () => {
    const { actor, register, verified } = start();
    await verified(true);
    actor.send({ type: 'wizard.next', values: user });
    actor.send({ type: 'wizard.next', values: custom });
    actor.send({ type: 'wizard.submit', values: org });
    register.last().reject(new Error('network'));
    await flushPromises();
    const edited = { ...org, street: 'Neue Straße' };
    actor.send({ type: 'wizard.previous', values: edited });
    expect(actor.getSnapshot().value).toEqual({ editing: 'customData' });
    expect(actor.getSnapshot().context.values.orgData).toEqual(edited);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describeWizardModel(userRegistrationMachine, { input: pathsInput, events: pathEvents });
