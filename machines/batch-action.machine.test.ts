import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  batchActionMachine,
  pathEvents,
  pathsInput,
  type BatchChunk,
  type BatchRowResult,
} from './batch-action.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const rows = [
  { id: 1, label: 'a@demo.test' },
  { id: 2, label: 'b@demo.test' },
  { id: 3, label: 'c@demo.test' },
];

function start(chunkSize = 2) {
  const runChunk = controlledPromise<BatchRowResult[], BatchChunk>();
  const notifyDone = vi.fn();
  const actor = createActor(
    batchActionMachine.provide({
      actors: { runChunk: runChunk.logic },
      actions: { notifyDone: (_, params) => notifyDone(params.rows) },
    }),
    { input: { chunkSize } },
  ).start();
  return { actor, runChunk, notifyDone };
}

const states = (run: ReturnType<typeof start>) =>
  run.actor.getSnapshot().context.rows.map((row) => row.state);

describe('batchActionMachine', () => {
  it('start needs rows, and asks for confirmation with every row pending', () => {
    const run = start();
    run.actor.send({ type: 'batch.start', action: 'disable', rows: [] });
    expect(run.actor.getSnapshot().value).toBe('idle');
    run.actor.send({ type: 'batch.start', action: 'disable', rows });
    expect(run.actor.getSnapshot().value).toBe('confirming');
    expect(states(run)).toEqual(['pending', 'pending', 'pending']);
    run.actor.send({ type: 'batch.cancel' });
    expect(run.actor.getSnapshot().value).toBe('idle');
    expect(run.runChunk.calls).toHaveLength(0);
  });

  it('runs a chunk at a time with per-row progress, then done when every row is done', async () => {
    const run = start(2);
    run.actor.send({ type: 'batch.start', action: 'disable', rows, params: { x: 1 } });
    run.actor.send({ type: 'batch.confirm' });
    await flushPromises();
    expect(run.runChunk.last().input).toEqual({ action: 'disable', ids: [1, 2], params: { x: 1 } });
    expect(states(run)).toEqual(['running', 'running', 'pending']);
    run.runChunk.last().resolve([
      { id: 1, ok: true },
      { id: 2, ok: true },
    ]);
    await flushPromises();
    expect(run.runChunk.last().input.ids).toEqual([3]);
    expect(states(run)).toEqual(['done', 'done', 'running']);
    run.runChunk.last().resolve([{ id: 3, ok: true }]);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('done');
    expect(run.notifyDone).toHaveBeenCalledTimes(1);
    run.actor.send({ type: 'batch.close' });
    expect(run.actor.getSnapshot().value).toBe('idle');
  });

  it('a partial failure keeps the error codes; retry sends only the failed rows', async () => {
    const run = start(10);
    run.actor.send({ type: 'batch.start', action: 'delete', rows });
    run.actor.send({ type: 'batch.confirm' });
    await flushPromises();
    // Row 3 has no answer: not done, so failed too.
    run.runChunk.last().resolve([
      { id: 1, ok: false, error: 'cannot_delete_self' },
      { id: 2, ok: true },
    ]);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('partial');
    expect(run.actor.getSnapshot().context.rows.map((r) => [r.state, r.error])).toEqual([
      ['failed', 'cannot_delete_self'],
      ['done', null],
      ['failed', 'no_result'],
    ]);
    expect(run.notifyDone).toHaveBeenCalledTimes(1);
    run.actor.send({ type: 'batch.retry' });
    await flushPromises();
    expect(run.runChunk.last().input.ids).toEqual([1, 3]);
    run.runChunk.last().resolve([
      { id: 1, ok: false, error: 'cannot_delete_self' },
      { id: 3, ok: true },
    ]);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('partial');
    expect(states(run)).toEqual(['failed', 'done', 'done']);
  });

  it('a failed call puts its rows back to pending; retry goes on with those, done rows stay', async () => {
    const run = start(2);
    run.actor.send({ type: 'batch.start', action: 'enable', rows });
    run.actor.send({ type: 'batch.confirm' });
    await flushPromises();
    run.runChunk.last().resolve([
      { id: 1, ok: true },
      { id: 2, ok: true },
    ]);
    await flushPromises();
    run.runChunk.last().reject({ status: 502, code: 'upstream_unavailable' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('failed');
    expect(run.actor.getSnapshot().context.error).toBe('upstream_unavailable');
    expect(states(run)).toEqual(['done', 'done', 'pending']);
    run.actor.send({ type: 'batch.retry' });
    await flushPromises();
    expect(run.runChunk.last().input.ids).toEqual([3]);
    expect(run.actor.getSnapshot().context.error).toBeNull();
  });

  it('closing after a failed call still reports the rows that changed', async () => {
    const run = start(2);
    run.actor.send({ type: 'batch.start', action: 'enable', rows });
    run.actor.send({ type: 'batch.confirm' });
    await flushPromises();
    run.runChunk.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().context.error).toBe('unavailable');
    run.actor.send({ type: 'batch.close' });
    expect(run.actor.getSnapshot().value).toBe('idle');
    expect(run.notifyDone).toHaveBeenCalledTimes(1);
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(batchActionMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  expectFullCoverage(batchActionMachine, [...model.getShortestPaths(), ...transitionPaths(model)]);
});
