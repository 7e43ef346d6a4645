import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  pathEvents,
  pathsInput,
  workflowInstanceActionsMachine,
  type InstanceActionKind,
  type InstanceActionState,
} from './workflow-instance-actions.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

function start(input: InstanceActionState = pathsInput) {
  const act = controlledPromise<
    InstanceActionState,
    { action: InstanceActionKind; taskKey: string | null }
  >();
  const notifyDone = vi.fn();
  const notifyRefused = vi.fn();
  const actor = createActor(
    workflowInstanceActionsMachine.provide({
      actors: { act: act.logic },
      actions: {
        notifyDone: (_, params) => notifyDone(params),
        notifyRefused: (_, params) => notifyRefused(params),
      },
    }),
    { input },
  ).start();
  return { actor, act, notifyDone, notifyRefused };
}

describe('workflowInstanceActionsMachine', () => {
  it('offers what the status allows: a failed instance may be retried and cancelled', () => {
    const { actor } = start();
    actor.send({ type: 'action.complete', taskKey: 'assess' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'action.retry' });
    expect(actor.getSnapshot().value).toEqual({ confirming: 'retry' });
    actor.send({ type: 'action.dismiss' });
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().value).toEqual({ confirming: 'cancel' });
  });

  it('an active instance may be cancelled, not retried; its waiting task completed', () => {
    const { actor } = start({ status: 'active', waitingTasks: ['assess'] });
    actor.send({ type: 'action.retry' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'action.complete', taskKey: 'other' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'action.complete', taskKey: 'assess' });
    expect(actor.getSnapshot().value).toEqual({ confirming: 'complete' });
    expect(actor.getSnapshot().context.taskKey).toBe('assess');
  });

  it('a completed or cancelled instance offers nothing', () => {
    for (const status of ['completed', 'cancelled']) {
      const { actor } = start({ status, waitingTasks: [] });
      actor.send({ type: 'action.cancel' });
      actor.send({ type: 'action.retry' });
      expect(actor.getSnapshot().value).toBe('idle');
    }
  });

  it('dismissing the confirmation calls nothing', () => {
    const { actor, act } = start();
    actor.send({ type: 'action.cancel' });
    actor.send({ type: 'action.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.action).toBeNull();
    expect(act.calls).toHaveLength(0);
  });

  it('confirm calls the service; its answer is the new state', async () => {
    const run = start();
    run.actor.send({ type: 'action.retry' });
    run.actor.send({ type: 'action.confirm' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('acting');
    expect(run.act.last().input).toEqual({ action: 'retry', taskKey: null });
    run.act.last().resolve({ status: 'completed', waitingTasks: [] });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('done');
    expect(run.actor.getSnapshot().context.status).toBe('completed');
    expect(run.notifyDone).toHaveBeenCalledExactlyOnceWith({
      status: 'completed',
      waitingTasks: [],
    });
    // Completed: nothing more to do.
    run.actor.send({ type: 'action.cancel' });
    expect(run.actor.getSnapshot().value).toBe('done');
  });

  it('a complete sends the task; the instance may go on waiting elsewhere', async () => {
    const run = start({ status: 'active', waitingTasks: ['assess'] });
    run.actor.send({ type: 'action.complete', taskKey: 'assess' });
    run.actor.send({ type: 'action.confirm' });
    await flushPromises();
    expect(run.act.last().input).toEqual({ action: 'complete', taskKey: 'assess' });
    run.act.last().resolve({ status: 'active', waitingTasks: ['approve'] });
    await flushPromises();
    run.actor.send({ type: 'action.complete', taskKey: 'approve' });
    expect(run.actor.getSnapshot().value).toEqual({ confirming: 'complete' });
  });

  it.each([403, 404, 409])(
    'a %s is refused with its code: no retry, dismiss returns',
    async (status) => {
      const run = start();
      run.actor.send({ type: 'action.cancel' });
      run.actor.send({ type: 'action.confirm' });
      await flushPromises();
      run.act.last().reject({ status, code: 'illegal_transition' });
      await flushPromises();
      expect(run.actor.getSnapshot().value).toBe('refused');
      expect(run.notifyRefused).toHaveBeenCalledExactlyOnceWith({
        status,
        code: 'illegal_transition',
      });
      expect(run.actor.getSnapshot().can({ type: 'action.confirm' })).toBe(false);
      run.actor.send({ type: 'action.dismiss' });
      expect(run.actor.getSnapshot().value).toBe('idle');
      expect(run.actor.getSnapshot().context).toMatchObject({ refusal: null, action: null });
      expect(run.notifyDone).not.toHaveBeenCalled();
    },
  );

  it('no answer fails; confirm tries the same action again', async () => {
    const run = start();
    run.actor.send({ type: 'action.retry' });
    run.actor.send({ type: 'action.confirm' });
    await flushPromises();
    run.act.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('failed');
    expect(run.actor.getSnapshot().context.refusal).toEqual({ status: 0, code: 'unavailable' });
    expect(run.notifyRefused).not.toHaveBeenCalled();
    run.actor.send({ type: 'action.confirm' });
    await flushPromises();
    expect(run.act.calls).toHaveLength(2);
    expect(run.act.last().input).toEqual({ action: 'retry', taskKey: null });
  });

  it('a reload while acting does not change the status before the answer', async () => {
    const run = start();
    run.actor.send({ type: 'action.cancel' });
    run.actor.send({ type: 'action.confirm' });
    await flushPromises();
    run.actor.send({ type: 'instance.loaded', status: 'cancelled', waitingTasks: [] });
    expect(run.actor.getSnapshot().context.status).toBe('failed');
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(workflowInstanceActionsMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  expectFullCoverage(workflowInstanceActionsMachine, [
    ...model.getShortestPaths(),
    ...transitionPaths(model),
  ]);
});
