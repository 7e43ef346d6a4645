import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { confirmDialogMachine, errorMessageOf, pathEvents } from './confirm-dialog.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const openEvent = {
  type: 'confirm.open',
  title: 'Disable user',
  message: 'Disable this user?',
  action: 'users.disable',
} as const;

function start() {
  const runAction = controlledPromise<unknown, { action: string | null }>();
  const notifyDone = vi.fn();
  const actor = createActor(
    confirmDialogMachine.provide({
      actors: { runAction: runAction.logic },
      actions: { notifyDone },
    }),
  ).start();
  return { actor, runAction, notifyDone };
}

describe('confirmDialogMachine', () => {
  it('starts closed', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context).toEqual({
      title: '',
      message: '',
      action: null,
      hasError: false,
      errorMessage: null,
    });
  });

  it('opens with title, message and action key', () => {
    const { actor } = start();
    actor.send(openEvent);
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context).toMatchObject({
      title: 'Disable user',
      message: 'Disable this user?',
      action: 'users.disable',
      hasError: false,
    });
    const noAction = start();
    noAction.actor.send({ type: 'confirm.open', title: 't', message: 'm' });
    expect(noAction.actor.getSnapshot().context.action).toBeNull();
  });

  it.each(['confirm.cancel', 'confirm.close'] as const)('%s closes an open dialog', (type) => {
    const { actor, runAction, notifyDone } = start();
    actor.send(openEvent);
    actor.send({ type });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(runAction.calls).toHaveLength(0);
    expect(notifyDone).not.toHaveBeenCalled();
  });

  it('accept runs the action (busy) and closes with notifyDone on success', async () => {
    const { actor, runAction, notifyDone } = start();
    actor.send(openEvent);
    actor.send({ type: 'confirm.accept' });
    expect(actor.getSnapshot().value).toBe('busy');
    expect(runAction.last().input).toEqual({ action: 'users.disable' });
    runAction.last().resolve(undefined);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(notifyDone).toHaveBeenCalledTimes(1);
  });

  it('buttons are disabled while busy: cancel, close and accept are not accepted', () => {
    const { actor, runAction } = start();
    actor.send(openEvent);
    actor.send({ type: 'confirm.accept' });
    for (const type of ['confirm.cancel', 'confirm.close', 'confirm.accept'] as const) {
      expect(actor.getSnapshot().can({ type })).toBe(false);
      actor.send({ type });
      expect(actor.getSnapshot().value).toBe('busy');
    }
    expect(runAction.calls).toHaveLength(1);
  });

  it('stays open with the error message when the action fails with a string message', async () => {
    const { actor, runAction, notifyDone } = start();
    actor.send(openEvent);
    actor.send({ type: 'confirm.accept' });
    runAction.last().reject(new Error('User is already disabled'));
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context).toMatchObject({
      hasError: true,
      errorMessage: 'User is already disabled',
    });
    expect(notifyDone).not.toHaveBeenCalled();
  });

  it('shows the generic text (null message) when the error has no string message', async () => {
    const { actor, runAction } = start();
    actor.send(openEvent);
    actor.send({ type: 'confirm.accept' });
    runAction.last().reject({ status: 500 });
    await flushPromises();
    expect(actor.getSnapshot().context).toMatchObject({ hasError: true, errorMessage: null });
  });

  it('can retry after a failure, which clears the error on success', async () => {
    const { actor, runAction } = start();
    actor.send(openEvent);
    actor.send({ type: 'confirm.accept' });
    runAction.last().reject('nope');
    await flushPromises();
    actor.send({ type: 'confirm.accept' });
    runAction.last().resolve(undefined);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.hasError).toBe(false);
  });

  it('reopening clears the previous error', async () => {
    const { actor, runAction } = start();
    actor.send(openEvent);
    actor.send({ type: 'confirm.accept' });
    runAction.last().reject('nope');
    await flushPromises();
    actor.send({ type: 'confirm.cancel' });
    actor.send({ ...openEvent, title: 'Delete user' });
    expect(actor.getSnapshot().context).toMatchObject({
      title: 'Delete user',
      hasError: false,
      errorMessage: null,
    });
  });

  it('does not reopen over an open dialog', () => {
    const { actor } = start();
    actor.send(openEvent);
    actor.send({ ...openEvent, title: 'Other' });
    expect(actor.getSnapshot().context.title).toBe('Disable user');
  });
});

describe('errorMessageOf', () => {
  it.each([
    ['text', 'text'],
    ['', null],
    [new Error('failed'), 'failed'],
    [{ message: 'failed' }, 'failed'],
    [{ message: '' }, null],
    [{ message: 42 }, null],
    [{ status: 500 }, null],
    [null, null],
    [undefined, null],
    [42, null],
  ])('%j -> %j', (error, expected) => {
    expect(errorMessageOf(error)).toBe(expected);
  });
});

// The transitions are asserted above; the model only checks that every state can be reached.
describe('confirmDialogMachine model', () => {
  const model = createMachineTestModel(confirmDialogMachine, { events: pathEvents });
  // Shortest paths, one path per transition, and (small machine) every simple path.
  const paths = [...model.getShortestPaths(), ...transitionPaths(model), ...model.getSimplePaths()];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(confirmDialogMachine, paths);
  });
});
