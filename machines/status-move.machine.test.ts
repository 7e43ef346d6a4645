import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  allowedTargets,
  pathEvents,
  pathsInput,
  statusMoveMachine,
} from './status-move.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

function start() {
  const moveStatus = controlledPromise<string, { to: string }>();
  const notifyMoved = vi.fn();
  const notifyRefused = vi.fn();
  const actor = createActor(
    statusMoveMachine.provide({
      actors: { moveStatus: moveStatus.logic },
      actions: {
        notifyMoved: (_, params) => notifyMoved(params),
        notifyRefused: (_, params) => notifyRefused(params),
      },
    }),
    { input: pathsInput },
  ).start();
  return { actor, moveStatus, notifyMoved, notifyRefused };
}

async function toMoving(run: ReturnType<typeof start>) {
  run.actor.send({ type: 'move.choose', to: 'in_progress' });
  run.actor.send({ type: 'move.confirm' });
  await flushPromises();
}

describe('allowedTargets', () => {
  it('lists the rules from the status, without itself, repeats or excluded targets', () => {
    const rules = [
      { fromStatus: 'new', toStatus: 'b' },
      { fromStatus: 'new', toStatus: 'new' },
      { fromStatus: 'new', toStatus: 'b' },
      { fromStatus: 'new', toStatus: 'converted' },
      { fromStatus: 'other', toStatus: 'c' },
    ];
    expect(allowedTargets(rules, 'new', ['converted'])).toEqual(['b']);
    expect(allowedTargets(rules, 'none')).toEqual([]);
  });
});

describe('statusMoveMachine', () => {
  it('offers only moves the rules allow: another choice does nothing', () => {
    const { actor } = start();
    actor.send({ type: 'move.choose', to: 'converted' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    actor.send({ type: 'move.choose', to: 'declined' });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.target).toBe('declined');
  });

  it('new rules and a changed record change what is allowed', () => {
    const { actor } = start();
    actor.send({ type: 'rules.loaded', rules: [{ fromStatus: 'won', toStatus: 'lost' }] });
    actor.send({ type: 'move.choose', to: 'in_progress' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    actor.send({ type: 'record.changed', status: 'won' });
    actor.send({ type: 'move.choose', to: 'lost' });
    expect(actor.getSnapshot().value).toBe('confirming');
  });

  it('cancel returns without a call', () => {
    const { actor, moveStatus } = start();
    actor.send({ type: 'move.choose', to: 'in_progress' });
    actor.send({ type: 'move.cancel' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    expect(actor.getSnapshot().context.target).toBeNull();
    expect(moveStatus.calls).toHaveLength(0);
  });

  it('confirm calls the service with the target; its answer is the new status', async () => {
    const run = start();
    await toMoving(run);
    expect(run.actor.getSnapshot().value).toBe('moving');
    expect(run.moveStatus.last().input).toEqual({ to: 'in_progress' });
    run.moveStatus.last().resolve('in_progress');
    await flushPromises();
    expect(run.actor.getSnapshot().value).toEqual({ ready: 'moved' });
    expect(run.actor.getSnapshot().context).toMatchObject({ status: 'in_progress', target: null });
    expect(run.notifyMoved).toHaveBeenCalledExactlyOnceWith({ to: 'in_progress' });
    // The next moves are those from the new status.
    run.actor.send({ type: 'move.choose', to: 'declined' });
    expect(run.actor.getSnapshot().value).toEqual({ ready: 'moved' });
  });

  it.each([403, 404, 409])(
    'a %s is refused with its code; no retry, dismiss returns',
    async (status) => {
      const run = start();
      await toMoving(run);
      run.moveStatus.last().reject({ status, code: 'illegal_transition' });
      await flushPromises();
      expect(run.actor.getSnapshot().value).toBe('refused');
      expect(run.actor.getSnapshot().context.refusal).toEqual({
        status,
        code: 'illegal_transition',
      });
      expect(run.notifyRefused).toHaveBeenCalledExactlyOnceWith({
        status,
        code: 'illegal_transition',
      });
      expect(run.actor.getSnapshot().can({ type: 'move.confirm' })).toBe(false);
      run.actor.send({ type: 'move.dismiss' });
      expect(run.actor.getSnapshot().value).toEqual({ ready: 'idle' });
      expect(run.actor.getSnapshot().context).toMatchObject({ refusal: null, target: null });
      expect(run.notifyMoved).not.toHaveBeenCalled();
    },
  );

  it('no answer fails; confirm tries the same move again', async () => {
    const run = start();
    await toMoving(run);
    run.moveStatus.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('failed');
    expect(run.actor.getSnapshot().context.refusal).toEqual({ status: 0, code: 'unavailable' });
    expect(run.notifyRefused).not.toHaveBeenCalled();
    run.actor.send({ type: 'move.confirm' });
    await flushPromises();
    expect(run.moveStatus.calls).toHaveLength(2);
    expect(run.moveStatus.last().input).toEqual({ to: 'in_progress' });
  });

  it('a record change during the call does not change the status before the answer', async () => {
    const run = start();
    await toMoving(run);
    run.actor.send({ type: 'record.changed', status: 'declined' });
    expect(run.actor.getSnapshot().context.status).toBe('new');
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(statusMoveMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  expectFullCoverage(statusMoveMachine, [...model.getShortestPaths(), ...transitionPaths(model)]);
});
