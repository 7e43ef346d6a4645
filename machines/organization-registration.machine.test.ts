import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  organizationRegistrationMachine,
  pathEvents,
  pathsInput,
} from './organization-registration.machine.ts';
import type { RegisterInput, VerifiedInvitation } from './registration-wizard.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { describeWizardModel } from './testing/registration-wizard-model.ts';

const prefilled = {
  orgData: { name: 'Makler Müller GmbH', street: 'Lindenallee', city: 'Leipzig' },
  customData: { registrationNumber: 'HRB 20000' },
  userData: { email: 'kontakt@mueller-makler.test' },
};

function start() {
  const verify = controlledPromise<VerifiedInvitation, { token: string | null }>();
  const register = controlledPromise<unknown, RegisterInput>();
  const showStep = vi.fn();
  const actor = createActor(
    organizationRegistrationMachine.provide({
      actors: { verifyInvitation: verify.logic, register: register.logic },
      actions: { showStep: (_, params) => showStep(params.step) },
    }),
    { input: { token: 'org-token' } },
  ).start();
  return { actor, verify, register, showStep };
}

describe('organizationRegistrationMachine', () => {
  it('starts with the organisation, then custom data, then the contact person', async () => {
    const { actor, verify, register, showStep } = start();
    expect(showStep).not.toHaveBeenCalled();
    verify.last().resolve({ invitation: {}, hasCustomSchema: true, values: prefilled });
    await flushPromises();
    expect(actor.getSnapshot().value).toEqual({ editing: 'orgData' });
    expect(actor.getSnapshot().context.values).toEqual(prefilled);

    const org = { ...prefilled.orgData, houseNumber: '12' };
    actor.send({ type: 'wizard.next', values: org });
    actor.send({ type: 'wizard.next', values: prefilled.customData });
    expect(actor.getSnapshot().value).toEqual({ editing: 'userData' });
    // Each step entered is shown (the client writes it into the address).
    expect(showStep.mock.calls.map(([step]) => step)).toEqual([
      'orgData',
      'customData',
      'userData',
    ]);
    actor.send({ type: 'wizard.previous', values: { firstName: 'Otto' } });
    expect(actor.getSnapshot().value).toEqual({ editing: 'customData' });
    actor.send({ type: 'wizard.next', values: prefilled.customData });
    // What was typed on the contact step before going back is still there.
    expect(actor.getSnapshot().context.values.userData).toEqual({ firstName: 'Otto' });

    const person = { ...prefilled.userData, firstName: 'Otto', lastName: 'Org' };
    actor.send({ type: 'wizard.submit', values: person });
    expect(register.last().input).toEqual({
      token: 'org-token',
      invitation: {},
      values: { orgData: org, customData: prefilled.customData, userData: person },
    });
    register.last().resolve({ organization: { id: 9 } });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('goes from the organisation straight to the contact person without a custom schema', async () => {
    const { actor, verify } = start();
    verify.last().resolve({ invitation: {}, hasCustomSchema: false, values: {} });
    await flushPromises();
    actor.send({ type: 'wizard.next', values: prefilled.orgData });
    expect(actor.getSnapshot().value).toEqual({ editing: 'userData' });
    actor.send({ type: 'wizard.previous', values: {} });
    expect(actor.getSnapshot().value).toEqual({ editing: 'orgData' });
  });

  it('goes on after a reload at the step it left, with the values it kept', async () => {
    const { actor, verify, showStep } = start();
    verify.last().resolve({
      invitation: {},
      hasCustomSchema: true,
      values: { ...prefilled, userData: { ...prefilled.userData, firstName: 'Otto' } },
      resumeAt: 'userData',
    });
    await flushPromises();
    expect(actor.getSnapshot().value).toEqual({ editing: 'userData' });
    expect(actor.getSnapshot().context.values.userData).toMatchObject({ firstName: 'Otto' });
    expect(showStep.mock.calls.map(([step]) => step)).toEqual(['userData']);
    actor.send({ type: 'wizard.previous', values: {} });
    expect(actor.getSnapshot().value).toEqual({ editing: 'customData' });
  });

  it('resumes at no step the invitation lacks: custom data without a schema is the first step', async () => {
    const { actor, verify } = start();
    verify.last().resolve({
      invitation: {},
      hasCustomSchema: false,
      values: {},
      resumeAt: 'customData',
    });
    await flushPromises();
    expect(actor.getSnapshot().value).toEqual({ editing: 'orgData' });
  });
});

describeWizardModel(organizationRegistrationMachine, { input: pathsInput, events: pathEvents });
