import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  decisionTableEditorMachine,
  pathEvents,
  pathsInput,
  type LoadedDecisionTable,
  type SaveRequest,
} from './decision-table-editor.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const version = (versionNumber: number, latest: number, grid: unknown): LoadedDecisionTable => ({
  name: 'Claim routing',
  versionNumber,
  latestVersionNumber: latest,
  savedBy: 'admin',
  savedAt: '2026-11-26T10:00:00Z',
  grid,
});

function start(versionNumber: number | null = null) {
  const loadVersion = controlledPromise<LoadedDecisionTable, { versionNumber: number | null }>();
  const saveVersion = controlledPromise<LoadedDecisionTable, SaveRequest>();
  const notifySaved = vi.fn();
  const actor = createActor(
    decisionTableEditorMachine.provide({
      actors: { loadVersion: loadVersion.logic, saveVersion: saveVersion.logic },
      actions: { notifySaved },
    }),
    { input: { versionNumber } },
  ).start();
  return { actor, loadVersion, saveVersion, notifySaved };
}

async function loaded(run: ReturnType<typeof start>, output: LoadedDecisionTable) {
  run.loadVersion.last().resolve(output);
  await flushPromises();
}

const state = (run: ReturnType<typeof start>) => run.actor.getSnapshot();

describe('decisionTableEditorMachine', () => {
  it('edits the latest version; an older one is only viewed', async () => {
    const latest = start();
    expect(latest.loadVersion.last().input).toEqual({ versionNumber: null });
    await loaded(latest, version(2, 2, { t: 1 }));
    expect(state(latest).value).toBe('editing');
    expect(state(latest).context.draft).toEqual({ t: 1 });

    const older = start(1);
    expect(older.loadVersion.last().input).toEqual({ versionNumber: 1 });
    await loaded(older, version(1, 2, { t: 0 }));
    expect(state(older).value).toBe('viewing');
    older.actor.send({ type: 'table.edit', grid: { t: 5 } });
    expect(state(older).value).toBe('viewing');
    expect(state(older).can({ type: 'table.save' })).toBe(false);
  });

  it('is dirty after a change and clean again when the change is undone or discarded', async () => {
    const run = start();
    await loaded(run, version(2, 2, { t: 1 }));
    run.actor.send({ type: 'table.edit', grid: { t: 2 } });
    expect(state(run).value).toBe('dirty');
    run.actor.send({ type: 'table.edit', grid: { t: 1 } });
    expect(state(run).value).toBe('editing');
    run.actor.send({ type: 'table.edit', grid: { t: 3 } });
    run.actor.send({ type: 'table.discard' });
    expect(state(run).value).toBe('editing');
    expect(state(run).context.draft).toEqual({ t: 1 });
    expect(state(run).can({ type: 'table.save' })).toBe(false);
  });

  it('saves the changes on top of the version loaded and edits the saved one', async () => {
    const run = start();
    await loaded(run, version(2, 2, { t: 1 }));
    run.actor.send({ type: 'table.edit', grid: { t: 2 } });
    run.actor.send({ type: 'table.save' });
    expect(state(run).value).toBe('saving');
    expect(run.saveVersion.last().input).toEqual({
      grid: { t: 2 },
      baseVersionNumber: 2,
      force: false,
    });
    run.saveVersion.last().resolve(version(3, 3, { t: 2 }));
    await flushPromises();
    expect(state(run).value).toBe('editing');
    expect(state(run).context.loaded?.versionNumber).toBe(3);
    expect(run.notifySaved).toHaveBeenCalledOnce();
  });

  it('keeps every change when the service refuses the file, with its reason', async () => {
    const run = start();
    await loaded(run, version(2, 2, { t: 1 }));
    run.actor.send({ type: 'table.edit', grid: { t: 'bad' } });
    run.actor.send({ type: 'table.save' });
    run.saveVersion
      .last()
      .reject({ kind: 'refused', code: 'invalid_dmn', message: 'rule 1 has 2 input entries' });
    await flushPromises();
    expect(state(run).value).toBe('dirty');
    expect(state(run).context.draft).toEqual({ t: 'bad' });
    expect(state(run).context.saveRefusal).toEqual({
      kind: 'refused',
      code: 'invalid_dmn',
      message: 'rule 1 has 2 input entries',
    });
    run.actor.send({ type: 'failure.dismiss' });
    expect(state(run).context.saveRefusal).toBeNull();
    // Something thrown that the binding did not classify is a plain failure.
    run.actor.send({ type: 'table.save' });
    run.saveVersion.last().reject(new Error('network'));
    await flushPromises();
    expect(state(run).context.saveRefusal).toEqual({ kind: 'failed' });
    expect(run.notifySaved).not.toHaveBeenCalled();
  });

  it('offers a conflict: save anyway overrides, reload drops the changes, dismiss goes back', async () => {
    const run = start();
    await loaded(run, version(2, 2, { t: 1 }));
    run.actor.send({ type: 'table.edit', grid: { t: 2 } });
    run.actor.send({ type: 'table.save' });
    run.saveVersion.last().reject({ kind: 'conflict', latestVersionNumber: 3 });
    await flushPromises();
    expect(state(run).value).toBe('conflict');
    run.actor.send({ type: 'conflict.dismiss' });
    expect(state(run).value).toBe('dirty');
    expect(state(run).context.draft).toEqual({ t: 2 });

    run.actor.send({ type: 'table.save' });
    run.saveVersion.last().reject({ kind: 'conflict', latestVersionNumber: 3 });
    await flushPromises();
    run.actor.send({ type: 'conflict.saveAnyway' });
    expect(run.saveVersion.last().input.force).toBe(true);
    run.saveVersion.last().resolve(version(4, 4, { t: 2 }));
    await flushPromises();
    expect(state(run).value).toBe('editing');

    run.actor.send({ type: 'table.edit', grid: { t: 9 } });
    run.actor.send({ type: 'table.save' });
    expect(run.saveVersion.last().input.force).toBe(false);
    run.saveVersion.last().reject({ kind: 'conflict', latestVersionNumber: 5 });
    await flushPromises();
    run.actor.send({ type: 'conflict.reload' });
    expect(state(run).value).toBe('loading');
    expect(run.loadVersion.last().input).toEqual({ versionNumber: null });
    await loaded(run, version(5, 5, { t: 7 }));
    expect(state(run).context.draft).toEqual({ t: 7 });
  });

  it('shows why a load failed and tries again; a rename changes the name in place', async () => {
    const run = start(7);
    run.loadVersion
      .last()
      .reject({ kind: 'missing', message: "Can't load decision table version" });
    await flushPromises();
    expect(state(run).value).toBe('failed');
    expect(state(run).context.loadFailure).toEqual({
      kind: 'missing',
      message: "Can't load decision table version",
    });
    run.actor.send({ type: 'load.retry' });
    expect(state(run).context.loadFailure).toBeNull();
    await loaded(run, version(7, 7, { t: 1 }));
    run.actor.send({ type: 'table.renamed', name: 'Routing' });
    expect(state(run).context.loaded?.name).toBe('Routing');
    expect(state(run).value).toBe('editing');
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(decisionTableEditorMachine, {
    input: pathsInput,
    events: {
      ...pathEvents,
      'table.renamed': [{ type: 'table.renamed', name: 'Renamed' }],
    },
  });
  expectFullCoverage(decisionTableEditorMachine, [
    ...model.getShortestPaths(),
    ...transitionPaths(model),
  ]);
});
