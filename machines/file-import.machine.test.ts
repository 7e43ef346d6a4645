import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { fileImportMachine, pathEvents, type ImportRequest } from './file-import.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const file = { name: 'zones.csv' };

function start() {
  const checkFile = controlledPromise<unknown, ImportRequest>();
  const saveFile = controlledPromise<unknown, ImportRequest>();
  const notifySaved = vi.fn();
  const actor = createActor(
    fileImportMachine.provide({
      actors: { checkFile: checkFile.logic, saveFile: saveFile.logic },
      actions: { notifySaved: (_, params) => notifySaved(params.saved) },
    }),
  ).start();
  return { actor, checkFile, saveFile, notifySaved };
}

async function toValid(run: ReturnType<typeof start>) {
  run.actor.send({ type: 'name.change', name: 'zone_factor' });
  run.actor.send({ type: 'file.choose', file });
  run.actor.send({ type: 'import.check' });
  await flushPromises();
  run.checkFile.last().resolve({ rowCount: 3 });
  await flushPromises();
}

describe('fileImportMachine', () => {
  it('a check without a file asks for one and calls nothing', () => {
    const run = start();
    run.actor.send({ type: 'import.check' });
    expect(run.actor.getSnapshot().value).toEqual({ form: 'choosing' });
    expect(run.actor.getSnapshot().context.error).toBe('choose_file');
    expect(run.checkFile.calls).toHaveLength(0);
  });

  it('checks the name and file on the server; the summary makes it valid', async () => {
    const run = start();
    await toValid(run);
    expect(run.checkFile.last().input).toEqual({ name: 'zone_factor', file });
    expect(run.actor.getSnapshot().value).toEqual({ form: 'valid' });
    expect(run.actor.getSnapshot().context.summary).toEqual({ rowCount: 3 });
  });

  it("the file's problems make it invalid: no save until another file or name", async () => {
    const run = start();
    run.actor.send({ type: 'file.choose', file });
    run.actor.send({ type: 'import.check' });
    await flushPromises();
    const problems = [{ line: 3, code: 'not_a_number' }];
    run.checkFile.last().reject({ kind: 'invalid', problems });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toEqual({ form: 'invalid' });
    expect(run.actor.getSnapshot().context.problems).toEqual(problems);
    expect(run.actor.getSnapshot().can({ type: 'import.save' })).toBe(false);
    expect(run.actor.getSnapshot().can({ type: 'import.check' })).toBe(false);
    run.actor.send({ type: 'file.choose', file: { name: 'fixed.csv' } });
    expect(run.actor.getSnapshot().value).toEqual({ form: 'choosing' });
    expect(run.actor.getSnapshot().context.problems).toEqual([]);
  });

  it('a failed check keeps its code and may be checked again', async () => {
    const run = start();
    run.actor.send({ type: 'file.choose', file });
    run.actor.send({ type: 'import.check' });
    await flushPromises();
    run.checkFile.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().value).toEqual({ form: 'failed' });
    expect(run.actor.getSnapshot().context.error).toBe('unavailable');
    run.actor.send({ type: 'import.check' });
    await flushPromises();
    expect(run.checkFile.calls).toHaveLength(2);
  });

  it('another name after a check needs a new check', async () => {
    const run = start();
    await toValid(run);
    run.actor.send({ type: 'name.change', name: 'other' });
    expect(run.actor.getSnapshot().value).toEqual({ form: 'choosing' });
    expect(run.actor.getSnapshot().context.summary).toBeNull();
  });

  it('saves the checked file and ends with the saved record', async () => {
    const run = start();
    await toValid(run);
    run.actor.send({ type: 'import.save' });
    await flushPromises();
    expect(run.saveFile.last().input).toEqual({ name: 'zone_factor', file });
    run.saveFile.last().resolve({ id: 5, name: 'zone_factor' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('saved');
    expect(run.actor.getSnapshot().status).toBe('done');
    expect(run.notifySaved).toHaveBeenCalledExactlyOnceWith({ id: 5, name: 'zone_factor' });
  });

  it('a refused save shows its problems or failure and drops the summary', async () => {
    const run = start();
    await toValid(run);
    run.actor.send({ type: 'import.save' });
    await flushPromises();
    run.saveFile.last().reject({ kind: 'failed', code: 'name_taken' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toEqual({ form: 'failed' });
    expect(run.actor.getSnapshot().context).toMatchObject({ error: 'name_taken', summary: null });
    expect(run.notifySaved).not.toHaveBeenCalled();
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(fileImportMachine, { events: pathEvents });
  expectFullCoverage(fileImportMachine, [...model.getShortestPaths(), ...transitionPaths(model)]);
});
