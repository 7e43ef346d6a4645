import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject } from 'xstate';
import {
  infiniteTableMachine,
  isLastPageToken,
  pathEvents,
  pathsInput,
  type InfiniteTableInput,
  type LoadPageInput,
  type LoadPageOutput,
} from './infinite-table.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage, expectHandlers } from './testing/assertions.ts';
import {
  createMachineTestModel,
  describePath,
  eventTypes,
  stateKeys,
  transitionPaths,
} from './testing/model.ts';

function start(input: InfiniteTableInput = {}) {
  const loadPage = controlledPromise<LoadPageOutput, LoadPageInput>();
  const actor = createActor(
    infiniteTableMachine.provide({ actors: { loadPage: loadPage.logic } }),
    {
      input,
    },
  ).start();
  const answer = async (output: LoadPageOutput) => {
    loadPage.last().resolve(output);
    await flushPromises();
  };
  return { actor, loadPage, answer, value: () => actor.getSnapshot().value };
}

const page = (from: number, count: number, next: string | null): LoadPageOutput => ({
  rows: Array.from({ length: count }, (_, i) => from + i),
  nextPageToken: next,
});

describe('infiniteTableMachine', () => {
  it('loads the first page with page size 30 and no token', () => {
    const { loadPage, value } = start();
    expect(value()).toBe('loadingFirst');
    expect(loadPage.last().input).toEqual({
      query: { filters: {}, sort: null },
      pageToken: null,
      pageSize: 30,
    });
  });

  it('goes on with nextPageToken when near the end, appending rows', async () => {
    const { actor, loadPage, answer, value } = start({ pageSize: 2 });
    await answer({ ...page(0, 2, '2'), totalCount: 5 });
    expect(value()).toBe('idle');
    actor.send({ type: 'table.nearEnd' });
    expect(value()).toBe('loadingMore');
    expect(loadPage.last().input.pageToken).toBe('2');
    // Near the end again while a page loads: no second request.
    actor.send({ type: 'table.nearEnd' });
    expect(loadPage.calls).toHaveLength(2);
    await answer(page(2, 2, '4'));
    expect(actor.getSnapshot().context).toMatchObject({
      rows: [0, 1, 2, 3],
      nextPageToken: '4',
      totalCount: 5,
    });
  });

  it('keeps a capped count as a floor until a query restarts the list', async () => {
    const { actor, answer } = start({ pageSize: 2 });
    await answer({ ...page(0, 2, '2'), totalCount: 10_000, totalAbove: true });
    expect(actor.getSnapshot().context).toMatchObject({ totalCount: 10_000, totalAbove: true });
    actor.send({ type: 'table.nearEnd' });
    await answer(page(2, 2, '4'));
    expect(actor.getSnapshot().context).toMatchObject({ totalCount: 10_000, totalAbove: true });
    actor.send({ type: 'table.query', query: { filters: { policy: 'P-1' }, sort: null } });
    expect(actor.getSnapshot().context).toMatchObject({ totalCount: null, totalAbove: false });
    await answer({ ...page(0, 1, null), totalCount: 1 });
    expect(actor.getSnapshot().context).toMatchObject({ totalCount: 1, totalAbove: false });
  });

  it.each([null, '', '0'])('is exhausted after a last page (token %j)', async (token) => {
    const { actor, answer, value } = start();
    await answer(page(0, 2, token));
    expect(value()).toBe('exhausted');
    actor.send({ type: 'table.nearEnd' });
    expect(value()).toBe('exhausted');
  });

  it('is exhausted when a later page is the last', async () => {
    const { actor, answer, value } = start();
    await answer(page(0, 2, '2'));
    actor.send({ type: 'table.nearEnd' });
    await answer(page(2, 1, '0'));
    expect(value()).toBe('exhausted');
    expect(actor.getSnapshot().context.rows).toEqual([0, 1, 2]);
  });

  it('is empty when the first page has no rows and no more pages', async () => {
    const { answer, value } = start();
    await answer(page(0, 0, null));
    expect(value()).toBe('empty');
  });

  it('stops after an error and retries the same page', async () => {
    const { actor, loadPage, answer, value } = start();
    await answer(page(0, 2, '2'));
    actor.send({ type: 'table.nearEnd' });
    loadPage.last().reject(new Error('timeout'));
    await flushPromises();
    expect(value()).toBe('stopped');
    expect(actor.getSnapshot().context.error).toEqual(new Error('timeout'));
    actor.send({ type: 'table.nearEnd' });
    expect(value()).toBe('stopped');
    actor.send({ type: 'table.retry' });
    expect(value()).toBe('loadingMore');
    expect(loadPage.last().input.pageToken).toBe('2');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('retries the first page when it failed', async () => {
    const { actor, loadPage, value } = start();
    loadPage.last().reject('down');
    await flushPromises();
    expect(value()).toBe('stopped');
    actor.send({ type: 'table.retry' });
    expect(value()).toBe('loadingFirst');
    expect(loadPage.last().input.pageToken).toBeNull();
  });

  it('stops automatic loading after the caller-supplied limit; retry resumes', async () => {
    const { actor, answer, value } = start({ stopLimit: 2 });
    await answer(page(0, 2, '2'));
    actor.send({ type: 'table.nearEnd' });
    await answer(page(2, 2, '4'));
    expect(value()).toBe('stopped');
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'table.retry' });
    await answer(page(4, 2, '6'));
    expect(value()).toBe('idle');
    actor.send({ type: 'table.nearEnd' });
    await answer(page(6, 2, '8'));
    expect(value()).toBe('stopped');
  });

  it('a query change restarts from page 1 and discards the late answer of the old query', async () => {
    const { actor, loadPage, value } = start();
    loadPage.last().resolve(page(0, 2, '2'));
    await flushPromises();
    actor.send({ type: 'table.nearEnd' });
    const stale = loadPage.last();
    const query = { filters: { name: 'an' }, sort: { column: 'name', direction: 'desc' } } as const;
    actor.send({ type: 'table.query', query });
    expect(value()).toBe('loadingFirst');
    expect(loadPage.last().input).toEqual({ query, pageToken: null, pageSize: 30 });
    expect(actor.getSnapshot().context.rows).toEqual([]);
    stale.resolve(page(100, 2, '4'));
    await flushPromises();
    expect(value()).toBe('loadingFirst');
    expect(actor.getSnapshot().context.rows).toEqual([]);
    loadPage.last().resolve(page(7, 1, null));
    await flushPromises();
    expect(actor.getSnapshot().context.rows).toEqual([7]);
  });

  it('a query change while the first page loads discards it too', async () => {
    const { actor, loadPage } = start();
    const stale = loadPage.last();
    actor.send({ type: 'table.query', query: { filters: { a: 'b' }, sort: null } });
    stale.resolve(page(0, 5, null));
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('loadingFirst');
    expect(loadPage.calls).toHaveLength(2);
  });

  it('reload restarts with the same query from every state', async () => {
    const { actor, loadPage, answer, value } = start({
      query: { filters: { x: '1' }, sort: null },
    });
    await answer(page(0, 0, null));
    expect(value()).toBe('empty');
    actor.send({ type: 'table.reload' });
    expect(value()).toBe('loadingFirst');
    expect(loadPage.last().input.query).toEqual({ filters: { x: '1' }, sort: null });
  });
});

describe('isLastPageToken', () => {
  it.each([
    [null, true],
    [undefined, true],
    ['', true],
    ['0', true],
    ['30', false],
    ['abc', false],
  ])('%j -> %j', (token, expected) => {
    expect(isLastPageToken(token)).toBe(expected);
  });
});

describe('infiniteTableMachine model', () => {
  // Rows accumulate without bound, so states are told apart by value (and the event) only.
  const model = createMachineTestModel(infiniteTableMachine, {
    input: pathsInput,
    events: pathEvents,
    ignoreContext: true,
  });
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(infiniteTableMachine, paths);
  });

  function driver() {
    const loadPage = controlledPromise<LoadPageOutput, LoadPageInput>();
    const actor = createActor(
      infiniteTableMachine.provide({ actors: { loadPage: loadPage.logic } }),
      { input: pathsInput },
    ).start();
    const send = ({ event }: { event: AnyEventObject }) => {
      actor.send(event as Parameters<typeof actor.send>[0]);
    };
    const events = {
      'table.query': send,
      'table.nearEnd': send,
      'table.retry': send,
      'table.reload': send,
      'xstate.done.actor.loadPage': async ({ event }: { event: AnyEventObject }) => {
        loadPage.last().resolve(event.output as LoadPageOutput);
        await flushPromises();
      },
      'xstate.error.actor.loadPage': async ({ event }: { event: AnyEventObject }) => {
        loadPage.last().reject(event.error);
        await flushPromises();
      },
    };
    return { actor, events };
  }

  // With `ignoreContext` a model state stands for every context that reaches it, so only the
  // value can be compared (the unit tests above check the rows).
  const sameValueChecks = (real: () => unknown) =>
    Object.fromEntries(
      stateKeys(infiniteTableMachine).map((key) => [
        key,
        (state: unknown) => expect(real()).toEqual((state as { value: unknown }).value),
      ]),
    );

  it('has an executor for every event', () => {
    expectHandlers(eventTypes(infiniteTableMachine), driver().events);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const { actor, events } = driver();
    await model.testPath(path, {
      states: sameValueChecks(() => actor.getSnapshot().value),
      events,
    });
  });
});
