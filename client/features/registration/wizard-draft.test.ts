import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { UserInvite } from '#client/api/registration-client.ts';
import { userRegistrationMachine } from '#machines/user-registration.machine.ts';
import { draftOf, loadDraft, passwordMissing, saveStepDraft } from './wizard-draft.ts';
import { wizardIo } from './wizard-io.ts';

/** The tab's sessionStorage, in memory (the unit tests run without a browser). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const TOKEN = 'invitation-token-0123456789';
const invite = {
  email: 'rita@example.test',
  expiresOn: '2999-01-01T00:00:00Z',
  customSchema: null,
  organization: { id: 3, name: 'Makler AG' },
} as unknown as UserInvite;
const person = {
  email: 'rita@example.test',
  firstName: 'Rita',
  lastName: 'Register',
  newPassword: 'Fresh1234',
  confirmPassword: 'Fresh1234',
  isEulaAccepted: true,
};

/**
 * The user registration page's wizard as the page builds it: the machine with the client's I/O
 * and the draft of the tab, the page's writes of the draft on every change included.
 */
function openPage(navigate = vi.fn(), register = vi.fn(async () => ({}))) {
  const io = wizardIo<UserInvite>(navigate, {
    verify: async () => invite,
    expiresAt: (i) => i.expiresOn,
    prefill: (i) => ({ userData: { email: i.email }, orgData: { name: 'Makler AG' } }),
    register,
    draft: draftOf('user', TOKEN),
  });
  const actor = createActor(
    userRegistrationMachine.provide({ ...io, guards: { needsPasswordAgain: passwordMissing } }),
    { input: { token: TOKEN } },
  ).start();
  const typed = (step: 'userData' | 'orgData', values: Record<string, unknown>) =>
    saveStepDraft('user', TOKEN, actor.getSnapshot().context.values, step, values);
  return { actor, typed, navigate, register };
}

describe('the user registration wizard across a reload', () => {
  // The unit project runs in node: the drafts' sessionStorage is a fresh in-memory one per test.
  beforeEach(() => vi.stubGlobal('window', { sessionStorage: memoryStorage() }));
  afterEach(() => vi.unstubAllGlobals());

  it('goes on at the step it left with the values typed, never the passwords', async () => {
    const before = openPage();
    await waitFor(before.actor, (s) => s.matches({ editing: 'userData' }));
    before.typed('userData', person);
    before.actor.send({ type: 'wizard.next', values: person });
    expect(before.actor.getSnapshot().value).toEqual({ editing: 'orgData' });
    before.typed('orgData', { name: 'Makler AG', street: 'Ringstraße' });
    before.actor.stop();

    const stored = JSON.stringify(window.sessionStorage.getItem('registration-draft'));
    expect(stored).toContain('Ringstraße');
    expect(stored).not.toContain('Fresh1234');

    const after = openPage();
    await waitFor(after.actor, (s) => s.matches({ editing: 'orgData' }));
    const { values } = after.actor.getSnapshot().context;
    expect(values.orgData).toMatchObject({ name: 'Makler AG', street: 'Ringstraße' });
    expect(values.userData).toMatchObject({ firstName: 'Rita', lastName: 'Register' });
    expect(values.userData).not.toHaveProperty('newPassword');

    // Register without the password would be refused: the wizard asks for it first.
    after.actor.send({
      type: 'wizard.submit',
      values: { name: 'Makler AG', street: 'Ringstraße' },
    });
    expect(after.actor.getSnapshot().value).toEqual({ editing: 'userData' });
    expect(after.register).not.toHaveBeenCalled();
    after.actor.send({ type: 'wizard.next', values: person });
    after.actor.send({ type: 'wizard.submit', values: { street: 'Ringstraße' } });
    await waitFor(after.actor, (s) => s.status === 'done');
    expect(after.register).toHaveBeenCalledOnce();
    expect(window.sessionStorage.length).toBe(0);
  });

  it('is not shared with another invitation', () => {
    saveStepDraft('user', TOKEN, {}, 'orgData', { street: 'Ringstraße' });
    expect(loadDraft('user', 'another-invitation-token')).toBeNull();
    expect(loadDraft('organization', TOKEN)).toBeNull();
    expect(loadDraft('user', TOKEN)?.step).toBe('orgData');
  });

  it('is dropped once the registration is done', async () => {
    const page = openPage();
    await waitFor(page.actor, (s) => s.matches({ editing: 'userData' }));
    page.typed('userData', person);
    page.actor.send({ type: 'wizard.next', values: person });
    page.actor.send({ type: 'wizard.submit', values: { street: 'Ringstraße' } });
    await waitFor(page.actor, (s) => s.status === 'done');
    expect(page.register).toHaveBeenCalledOnce();
    expect(page.navigate).toHaveBeenCalledWith('/success-registration', { replace: true });
    expect(window.sessionStorage.length).toBe(0);
  });
});
