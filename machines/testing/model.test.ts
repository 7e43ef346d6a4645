import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { checkInEveryState } from './assertions.ts';
import {
  coverage,
  createMachineTestModel,
  eventTypes,
  formatEvent,
  formatPath,
  formatStateValue,
  stateKeys,
  toModelMachine,
} from './model.ts';

const machine = setup({
  types: { context: {} as { count: number } },
  actors: { load: fromPromise(async () => 1) },
  delays: { pause: 500 },
}).createMachine({
  id: 'sample',
  initial: 'idle',
  context: { count: 0 },
  states: {
    idle: { on: { 'list.load': 'loading' } },
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: {
          target: 'shown.page',
          actions: assign({ count: ({ context }) => context.count + 1 }),
        },
        onError: 'failed',
      },
    },
    failed: { after: { pause: 'idle' } },
    shown: { initial: 'page', states: { page: {} } },
  },
});

describe('toModelMachine', () => {
  it('turns invocations and delays into events with xstate names', () => {
    expect(eventTypes(machine)).toEqual([
      'list.load',
      'xstate.after.pause.sample.failed',
      'xstate.done.actor.load',
      'xstate.error.actor.load',
    ]);
    const model = toModelMachine(machine);
    expect(model.root.states.loading?.invoke).toEqual([]);
    expect(model.root.states.failed?.after).toEqual([]);
  });

  it('keeps assigns and targets', () => {
    const model = toModelMachine(machine);
    const actor = createActor(model).start();
    actor.send({ type: 'list.load' });
    actor.send({ type: 'xstate.done.actor.load', output: 1 } as never);
    expect(actor.getSnapshot().value).toEqual({ shown: 'page' });
    expect(actor.getSnapshot().context.count).toBe(1);
  });
});

describe('coverage and formatting', () => {
  const paths = createMachineTestModel(machine).getShortestPaths();

  it('reports reached states and taken events', () => {
    expect(stateKeys(machine)).toEqual(['idle', 'loading', 'failed', 'shown', 'shown.page']);
    const result = coverage(machine, paths);
    expect(result.missingStates).toEqual([]);
    expect(result.missingEvents).toEqual([]);
    expect(coverage(machine, []).missingStates).toEqual(stateKeys(machine));
  });

  it('prints numbered Given/when/then steps', () => {
    const lines = paths.map((path) => formatPath(path).join('\n'));
    expect(lines).toContain(
      [
        "1. Given state 'idle' when 'list.load' then 'loading'",
        "2. Given state 'loading' when 'load' fails then 'failed'",
        "3. Given state 'failed' when 'pause' elapses then 'idle'",
      ].join('\n'),
    );
  });

  it('formats values and events', () => {
    expect(formatStateValue({ shown: 'page' })).toBe('shown.page');
    expect(formatStateValue({ a: { b: 'c' } })).toBe('a.b.c');
    expect(formatEvent({ type: 'token.needed', now: 5 })).toBe('\'token.needed\' with {"now":5}');
    expect(formatEvent({ type: 'xstate.done.actor.load', output: 1 })).toBe(
      '\'load\' succeeds with {"output":1}',
    );
  });
});

describe('checkInEveryState', () => {
  it('runs the check in each state a path passes, and fails the path when it fails', async () => {
    const path = createMachineTestModel(machine)
      .getShortestPaths()
      .find((candidate) => candidate.steps.length > 1);
    if (path === undefined) throw new Error('expected a path that leaves idle');
    let checked = 0;
    await path.test({ states: checkInEveryState(machine, () => void checked++), events: {} });
    // One check per step: the first step is the initial state.
    expect(checked).toBe(path.steps.length);
    await expect(
      path.test({
        states: checkInEveryState(machine, () => {
          throw new Error('the property broke');
        }),
        events: {},
      }),
    ).rejects.toThrow('the property broke');
  });

  it('has a check for every state', () => {
    expect(Object.keys(checkInEveryState(machine, () => {}))).toEqual(stateKeys(machine));
  });
});
