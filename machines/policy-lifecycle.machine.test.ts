import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  pathEvents,
  pathsInput,
  policyLifecycleMachine,
  type LifecyclePolicy,
  type LifecycleSubmission,
} from './policy-lifecycle.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const active: LifecyclePolicy = {
  id: 7,
  status: 'ACTIVE',
  currentVersionId: 70,
  draftVersionId: null,
};

function start(policy: LifecyclePolicy = active) {
  const submitAction = controlledPromise<LifecyclePolicy, LifecycleSubmission>();
  const notifyDone = vi.fn();
  const actor = createActor(
    policyLifecycleMachine.provide({
      actors: { submitAction: submitAction.logic },
      actions: { notifyDone },
    }),
    { input: { policy } },
  ).start();
  return { actor, submitAction, notifyDone };
}

describe('policyLifecycleMachine', () => {
  it('offers only what the policy status and draft allow', () => {
    const { actor } = start();
    const snapshot = actor.getSnapshot();
    expect(snapshot.can({ type: 'action.choose', action: 'terminate' })).toBe(true);
    expect(snapshot.can({ type: 'action.choose', action: 'createDraft' })).toBe(true);
    expect(snapshot.can({ type: 'action.choose', action: 'applyDraft' })).toBe(false);
    actor.send({ type: 'policy.loaded', policy: { ...active, status: 'WITHDRAWN' } });
    for (const action of ['terminate', 'withdraw', 'restoreVersion', 'createDraft'] as const) {
      expect(actor.getSnapshot().can({ type: 'action.choose', action })).toBe(false);
    }
    actor.send({ type: 'action.choose', action: 'terminate' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('confirms, then submits based on the current version, and ends with the new policy', async () => {
    const { actor, submitAction, notifyDone } = start();
    actor.send({ type: 'action.choose', action: 'terminate' });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(submitAction.calls).toHaveLength(0);
    actor.send({ type: 'action.confirm', params: { terminationDate: '2025-08-15' } });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(submitAction.last().input).toEqual({
      action: 'terminate',
      policyId: 7,
      basedOnVersionId: 70,
      params: { terminationDate: '2025-08-15' },
    });
    const terminated = { ...active, status: 'TERMINATED' as const, currentVersionId: 71 };
    submitAction.last().resolve(terminated);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().context.policy).toEqual(terminated);
    expect(notifyDone).toHaveBeenCalledTimes(1);
    actor.send({ type: 'action.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().can({ type: 'action.choose', action: 'terminate' })).toBe(false);
  });

  it('bases the draft actions on the draft', () => {
    const { actor, submitAction } = start({ ...active, draftVersionId: 75 });
    actor.send({ type: 'action.choose', action: 'applyDraft' });
    actor.send({ type: 'action.confirm' });
    expect(submitAction.last().input).toMatchObject({ action: 'applyDraft', basedOnVersionId: 75 });
  });

  it('returns from the dialog on cancel without a call', () => {
    const { actor, submitAction } = start();
    actor.send({ type: 'action.choose', action: 'withdraw' });
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.action).toBeNull();
    expect(submitAction.calls).toHaveLength(0);
  });

  it('keeps the current policy of a conflict until the user reloads', async () => {
    const { actor, submitAction } = start();
    actor.send({ type: 'action.choose', action: 'withdraw' });
    actor.send({ type: 'action.confirm' });
    const current = { ...active, currentVersionId: 80, draftVersionId: 81 };
    submitAction.last().reject({
      status: 409,
      code: 'version_conflict',
      message: 'changed meanwhile',
      body: { policy: current },
    });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('conflict');
    expect(actor.getSnapshot().context.conflict).toEqual(current);
    expect(actor.getSnapshot().context.policy).toEqual(active);
    actor.send({ type: 'policy.reload' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.policy).toEqual(current);
    expect(actor.getSnapshot().context.conflict).toBeNull();
  });

  it('sorts the other failures: refused, back to the dialog, or retry', async () => {
    const { actor, submitAction } = start();
    actor.send({ type: 'action.choose', action: 'terminate' });
    actor.send({ type: 'action.confirm', params: { terminationDate: '2030-01-01' } });
    submitAction.last().reject({
      status: 400,
      code: 'validation_error',
      message: 'terminationDate: after_end',
      body: { issues: [{ path: 'terminationDate', code: 'after_end' }] },
    });
    await flushPromises();
    // Back in the dialog with the issue; what the user typed stays.
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.error?.issues).toEqual([
      { path: 'terminationDate', code: 'after_end' },
    ]);
    expect(actor.getSnapshot().context.params).toEqual({ terminationDate: '2030-01-01' });

    actor.send({ type: 'action.confirm', params: { terminationDate: '2025-08-15' } });
    expect(actor.getSnapshot().context.error).toBeNull();
    submitAction.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toMatchObject({ status: 0, code: 'unknown' });
    actor.send({ type: 'action.retry' });
    expect(submitAction.calls).toHaveLength(3);
    expect(submitAction.last().input.params).toEqual({ terminationDate: '2025-08-15' });
    submitAction.last().reject({ status: 403, code: 'forbidden', message: 'missing permission' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.error?.message).toBe('missing permission');
    // A 409 without a current policy is a refusal, not a conflict.
    actor.send({ type: 'action.dismiss' });
    actor.send({ type: 'action.choose', action: 'terminate' });
    actor.send({ type: 'action.confirm' });
    submitAction.last().reject({ status: 409, code: 'version_conflict', message: 'x' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('refused');
  });
});

describe('policyLifecycleMachine leaving a failure', () => {
  it('cancel after a failed call forgets the action, its params and the error, without a call', async () => {
    const { actor, submitAction } = start();
    actor.send({ type: 'action.choose', action: 'terminate' });
    actor.send({ type: 'action.confirm', params: { terminationDate: '2025-08-15' } });
    submitAction.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ action: null, params: {}, error: null });
    expect(submitAction.calls).toHaveLength(1);
  });

  it('dismissing a refusal forgets the action and the error; the policy stays as it was', async () => {
    const { actor, submitAction } = start();
    actor.send({ type: 'action.choose', action: 'withdraw' });
    actor.send({ type: 'action.confirm' });
    submitAction.last().reject({ status: 403, code: 'forbidden', message: 'missing permission' });
    await flushPromises();
    actor.send({ type: 'action.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({
      policy: active,
      action: null,
      params: {},
      error: null,
    });
  });
});

describe('policyLifecycleMachine model', () => {
  const model = createMachineTestModel(policyLifecycleMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(policyLifecycleMachine, paths);
  });
});
