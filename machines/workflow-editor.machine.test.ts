import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  hasUnsavedChanges,
  pathEvents,
  pathsInput,
  workflowEditorMachine,
  type CheckRequest,
  type EditorCheck,
  type LoadRequest,
  type LoadedWorkflow,
  type SaveVersionRequest,
  type WorkflowEditorInput,
} from './workflow-editor.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const v2: LoadedWorkflow = {
  workflowId: 7,
  code: 'claim-intake',
  name: 'Claim intake',
  versionNumber: 2,
  latestVersionNumber: 2,
  definition: '<definitions id="v2"/>',
};

function start(input: WorkflowEditorInput = { code: 'claim-intake', versionNumber: null }) {
  const loadWorkflow = controlledPromise<LoadedWorkflow, LoadRequest>();
  const validate = controlledPromise<EditorCheck, CheckRequest>();
  const saveVersion = controlledPromise<LoadedWorkflow, SaveVersionRequest>();
  const actor = createActor(
    workflowEditorMachine.provide({
      actors: {
        loadWorkflow: loadWorkflow.logic,
        validate: validate.logic,
        saveVersion: saveVersion.logic,
      },
    }),
    { input },
  ).start();
  return { actor, loadWorkflow, validate, saveVersion };
}

async function loaded(run: ReturnType<typeof start>, output = v2) {
  run.loadWorkflow.last().resolve(output);
  await flushPromises();
}

/** Edited, saved, checked: the save is under way. */
async function toSaving(run: ReturnType<typeof start>) {
  run.actor.send({ type: 'edit' });
  run.actor.send({ type: 'save' });
  run.validate.last().resolve({ ok: true, definition: '<definitions id="mine"/>' });
  await flushPromises();
}

describe('workflowEditorMachine', () => {
  it('reads the latest version of an existing workflow and starts clean', async () => {
    const run = start();
    expect(run.actor.getSnapshot().value).toBe('loading');
    expect(run.loadWorkflow.last().input).toEqual({ code: 'claim-intake', versionNumber: null });
    await loaded(run);
    expect(run.actor.getSnapshot().value).toBe('clean');
    expect(run.actor.getSnapshot().context.loaded).toEqual(v2);
  });

  it('shows an older version read-only; the address naming the latest reads it', async () => {
    const run = start({ code: 'claim-intake', versionNumber: 1 });
    expect(run.loadWorkflow.last().input.versionNumber).toBe(1);
    await loaded(run, { ...v2, versionNumber: 1 });
    expect(run.actor.getSnapshot().value).toBe('readOnly');
    run.actor.send({ type: 'edit' });
    run.actor.send({ type: 'save' });
    expect(run.actor.getSnapshot().value).toBe('readOnly');
    run.actor.send({ type: 'version.open', versionNumber: null });
    expect(run.actor.getSnapshot().value).toBe('loading');
    expect(run.loadWorkflow.last().input.versionNumber).toBeNull();
  });

  it('a new workflow is drawn at once and may be saved as it starts', async () => {
    const run = start({ code: null, versionNumber: null });
    expect(run.actor.getSnapshot().value).toBe('clean');
    expect(run.loadWorkflow.calls).toHaveLength(0);
    run.actor.send({ type: 'save' });
    expect(run.actor.getSnapshot().value).toBe('validating');
    run.validate.last().resolve({ ok: true, definition: '<definitions/>' });
    await flushPromises();
    expect(run.validate.last().input).toEqual({ isNew: true });
    expect(run.saveVersion.last().input).toEqual({
      definition: '<definitions/>',
      workflowId: null,
      baseVersionNumber: null,
      isNew: true,
    });
    run.saveVersion.last().resolve({ ...v2, code: 'letters', versionNumber: 1 });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('clean');
    expect(run.actor.getSnapshot().context).toMatchObject({ code: 'letters', savedVersion: 1 });
  });

  it('does not save an unchanged version again', async () => {
    const run = start();
    await loaded(run);
    run.actor.send({ type: 'save' });
    expect(run.actor.getSnapshot().value).toBe('clean');
  });

  it('an edit makes the drawing dirty; the save goes on top of the version loaded', async () => {
    const run = start();
    await loaded(run);
    run.actor.send({ type: 'edit' });
    expect(run.actor.getSnapshot().value).toBe('dirty');
    expect(hasUnsavedChanges(run.actor.getSnapshot())).toBe(true);
    await toSaving(run);
    expect(run.actor.getSnapshot().value).toBe('savingVersion');
    expect(run.saveVersion.last().input).toEqual({
      definition: '<definitions id="mine"/>',
      workflowId: 7,
      baseVersionNumber: 2,
      isNew: false,
    });
    run.saveVersion.last().resolve({ ...v2, versionNumber: 3, latestVersionNumber: 3 });
    await flushPromises();
    const after = run.actor.getSnapshot();
    expect(after.value).toBe('clean');
    expect(after.context.loaded?.versionNumber).toBe(3);
    expect(after.context.savedVersion).toBe(3);
    expect(hasUnsavedChanges(after)).toBe(false);
  });

  it('the check refuses: failed with the problems, nothing sent; an edit goes on', async () => {
    const run = start();
    await loaded(run);
    run.actor.send({ type: 'edit' });
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: false, problems: [{ code: 'no_name' }] });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('failed');
    expect(run.actor.getSnapshot().context.failure).toEqual({
      code: 'invalid',
      detail: '',
      problems: [{ code: 'no_name' }],
    });
    expect(run.saveVersion.calls).toHaveLength(0);
    expect(hasUnsavedChanges(run.actor.getSnapshot())).toBe(true);
    run.actor.send({ type: 'edit' });
    expect(run.actor.getSnapshot().value).toBe('dirty');
    expect(run.actor.getSnapshot().context.failure).toBeNull();
  });

  it("the service's refusal keeps its code and detail; saving again checks again", async () => {
    const run = start();
    await loaded(run);
    await toSaving(run);
    run.saveVersion.last().reject({
      kind: 'refused',
      code: 'unknown_task_type',
      detail: 'service task T: unknown task type "fax"',
    });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('failed');
    expect(run.actor.getSnapshot().context.failure).toMatchObject({
      code: 'unknown_task_type',
      detail: 'service task T: unknown task type "fax"',
    });
    run.actor.send({ type: 'save' });
    expect(run.actor.getSnapshot().value).toBe('validating');
    expect(run.actor.getSnapshot().context.failure).toBeNull();
  });

  it('a failure without a refusal (network) is a failure with no code', async () => {
    const run = start();
    await loaded(run);
    await toSaving(run);
    run.saveVersion.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().context.failure).toEqual({ code: '', detail: '', problems: [] });
    run.actor.send({ type: 'failure.dismiss' });
    expect(run.actor.getSnapshot().value).toBe('dirty');
  });

  describe('a newer version saved since this one was loaded', () => {
    async function toConflict() {
      const run = start();
      await loaded(run);
      await toSaving(run);
      run.saveVersion.last().reject({ kind: 'conflict', latestVersionNumber: 3 });
      await flushPromises();
      expect(run.actor.getSnapshot().value).toBe('conflict');
      expect(run.actor.getSnapshot().context.conflict).toEqual({ latestVersionNumber: 3 });
      return run;
    }

    it('save anyway sends the same drawing on no base', async () => {
      const run = await toConflict();
      run.actor.send({ type: 'conflict.saveAnyway' });
      expect(run.actor.getSnapshot().value).toBe('savingVersion');
      expect(run.saveVersion.last().input).toEqual({
        definition: '<definitions id="mine"/>',
        workflowId: 7,
        baseVersionNumber: null,
        isNew: false,
      });
      run.saveVersion.last().resolve({ ...v2, versionNumber: 4, latestVersionNumber: 4 });
      await flushPromises();
      expect(run.actor.getSnapshot().context.savedVersion).toBe(4);
    });

    it('load the newer version reads the latest', async () => {
      const run = await toConflict();
      run.actor.send({ type: 'conflict.loadLatest' });
      expect(run.actor.getSnapshot().value).toBe('loading');
      expect(run.loadWorkflow.last().input.versionNumber).toBeNull();
      await loaded(run, { ...v2, versionNumber: 3, latestVersionNumber: 3 });
      expect(run.actor.getSnapshot().value).toBe('clean');
      expect(run.actor.getSnapshot().context).toMatchObject({ conflict: null, knownLatest: null });
    });

    it('drawing on goes back to the drawing too', async () => {
      const run = await toConflict();
      run.actor.send({ type: 'edit' });
      expect(run.actor.getSnapshot().value).toBe('dirty');
      expect(run.actor.getSnapshot().context.conflict).toBeNull();
    });

    it('cancel goes back to the drawing, still unsaved', async () => {
      const run = await toConflict();
      run.actor.send({ type: 'conflict.cancel' });
      expect(run.actor.getSnapshot().value).toBe('dirty');
      // The screen still knows a newer version exists.
      expect(run.actor.getSnapshot().context.knownLatest).toBe(3);
      // The next save builds on the loaded version again, and meets the conflict again.
      await toSaving(run);
      expect(run.saveVersion.last().input.baseVersionNumber).toBe(2);
    });
  });

  it('a failed read offers to read again', async () => {
    const run = start();
    run.loadWorkflow.last().reject({ kind: 'refused', code: 'not_found', detail: 'x' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('loadFailed');
    expect(run.actor.getSnapshot().context.failure?.code).toBe('not_found');
    run.actor.send({ type: 'load.retry' });
    expect(run.actor.getSnapshot().value).toBe('loading');
    expect(run.loadWorkflow.calls).toHaveLength(2);
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(workflowEditorMachine, {
    input: pathsInput,
    events: pathEvents,
    ignoreContext: true,
  });
  expectFullCoverage(workflowEditorMachine, [
    ...model.getShortestPaths(),
    ...transitionPaths(model),
  ]);
});
