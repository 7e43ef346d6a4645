import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  changedFields,
  mergeValues,
  pathEvents,
  pathsInput,
  recordEditMachine,
  type LoadedRecord,
  type SaveRequest,
  type ValidationResult,
} from './record-edit.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const loaded = {
  record: { version: 1, updatedBy: 'usr_a', updatedAt: '2026-01-01T10:00:00Z' },
  values: { city: 'Kiel', street: 'Holtenauer Straße' },
};
const theirs = {
  record: { version: 2, updatedBy: 'usr_b', updatedAt: '2026-01-01T10:04:00Z' },
  values: { city: 'Lübeck', street: 'Holtenauer Straße' },
};

function start(
  input: { record: typeof loaded.record | null; values: unknown; load?: boolean } = loaded,
) {
  const loadRecord = controlledPromise<LoadedRecord>();
  const validate = controlledPromise<ValidationResult, unknown>();
  const saveRecord = controlledPromise<LoadedRecord, SaveRequest>();
  const notifySaved = vi.fn();
  const actor = createActor(
    recordEditMachine.provide({
      actors: {
        loadRecord: loadRecord.logic,
        validate: validate.logic,
        saveRecord: saveRecord.logic,
      },
      actions: { notifySaved: (_, params) => notifySaved(params.record) },
    }),
    { input },
  ).start();
  return { actor, loadRecord, validate, saveRecord, notifySaved };
}

/** Edits the street, saves, passes validation: the save call is under way. */
async function toSaving(run: ReturnType<typeof start>, street = 'Holstenstraße') {
  run.actor.send({ type: 'edit', values: { ...loaded.values, street } });
  run.actor.send({ type: 'save' });
  run.validate.last().resolve({ ok: true, input: { city: 'Kiel', street } });
  await flushPromises();
}

async function toConflict(run: ReturnType<typeof start>) {
  await toSaving(run);
  run.saveRecord.last().reject({ kind: 'conflict', current: theirs });
  await flushPromises();
}

describe('recordEditMachine', () => {
  it('starts editing the loaded record', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({
      base: loaded.record,
      values: loaded.values,
      baseValues: loaded.values,
      conflict: null,
    });
  });

  it('edit replaces the values and keeps the base', () => {
    const { actor } = start();
    actor.send({ type: 'edit', values: { city: 'Kiel', street: 'Neu' } });
    expect(actor.getSnapshot().context.values).toEqual({ city: 'Kiel', street: 'Neu' });
    expect(actor.getSnapshot().context.baseValues).toEqual(loaded.values);
  });

  it('save validates the values as typed; field errors return to editing, nothing is sent', async () => {
    const { actor, validate, saveRecord } = start();
    actor.send({ type: 'edit', values: { city: '', street: 'x' } });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().value).toBe('validating');
    expect(validate.last().input).toEqual({ city: '', street: 'x' });
    validate.last().resolve({ ok: false, errors: { city: ['required'] } });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({ city: ['required'] });
    expect(actor.getSnapshot().context.values).toEqual({ city: '', street: 'x' });
    expect(saveRecord.calls).toHaveLength(0);
  });

  it('a valid input is sent on top of the base version; the answer becomes the base', async () => {
    const run = start();
    await toSaving(run);
    expect(run.actor.getSnapshot().value).toBe('saving');
    // Only the field the user changed goes with the save.
    expect(run.saveRecord.last().input).toEqual({
      input: { city: 'Kiel', street: 'Holstenstraße' },
      version: 1,
      changed: ['street'],
    });
    const saved = {
      record: { version: 2, updatedBy: 'usr_a', updatedAt: '2026-01-01T10:05:00Z' },
      values: { city: 'Kiel', street: 'Holstenstraße' },
    };
    run.saveRecord.last().resolve(saved);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('saved');
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: saved.record,
      baseValues: saved.values,
      values: saved.values,
      errors: {},
      failure: null,
    });
    expect(run.notifySaved).toHaveBeenCalledExactlyOnceWith(saved.record);
    // The next save builds on the saved version.
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    expect(run.saveRecord.last().input.version).toBe(2);
  });

  it('a new record is sent without a version, and its refusal is never a conflict', async () => {
    const run = start({ record: null, values: { city: '' } });
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: true, input: { city: 'Kiel' } });
    await flushPromises();
    expect(run.saveRecord.last().input).toEqual({
      input: { city: 'Kiel' },
      version: null,
      changed: ['city'],
    });
    run.saveRecord.last().reject({ kind: 'conflict', current: theirs });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context.conflict).toBeNull();
  });

  it('field errors from the service return to editing with the input kept', async () => {
    const run = start();
    await toSaving(run);
    run.saveRecord.last().reject({ kind: 'invalid', errors: { phone: ['invalid_phone'] } });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context.errors).toEqual({ phone: ['invalid_phone'] });
    expect((run.actor.getSnapshot().context.values as { street: string }).street).toBe(
      'Holstenstraße',
    );
    expect(run.notifySaved).not.toHaveBeenCalled();
  });

  it('another failure shows its text until dismissed; an unknown rejection has the generic one', async () => {
    const run = start();
    await toSaving(run);
    run.saveRecord.last().reject({ kind: 'failed', failure: 'Not saved.' });
    await flushPromises();
    expect(run.actor.getSnapshot().context.failure).toBe('Not saved.');
    run.actor.send({ type: 'failure.dismiss' });
    expect(run.actor.getSnapshot().context.failure).toBeNull();
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    run.saveRecord.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().context.failure).toBe('');
  });

  it('a 409 keeps the input and the base, and records the current record and the refused input', async () => {
    const run = start();
    await toConflict(run);
    const { value, context } = run.actor.getSnapshot();
    expect(value).toBe('conflict');
    expect(context.base).toEqual(loaded.record);
    expect(context.values).toEqual({ city: 'Kiel', street: 'Holstenstraße' });
    expect(context.conflict).toEqual({
      current: theirs,
      mine: { city: 'Kiel', street: 'Holstenstraße' },
    });
  });

  it('resolve.reload drops the input for the saved record', async () => {
    const run = start();
    await toConflict(run);
    run.actor.send({ type: 'resolve.reload' });
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: theirs.record,
      values: theirs.values,
      conflict: null,
    });
    expect(run.saveRecord.calls).toHaveLength(1);
  });

  it('resolve.keepMine puts only my changes on the saved version and sends only those', async () => {
    const run = start();
    // The other user changed the city; this user changed the street only.
    await toConflict(run);
    run.actor.send({ type: 'resolve.keepMine' });
    expect(run.actor.getSnapshot().value).toBe('validating');
    // Their city stays: what is checked and sent is my street on their record.
    expect(run.validate.last().input).toEqual({ city: 'Lübeck', street: 'Holstenstraße' });
    run.validate.last().resolve({ ok: true, input: { city: 'Lübeck', street: 'Holstenstraße' } });
    await flushPromises();
    expect(run.saveRecord.last().input).toEqual({
      input: { city: 'Lübeck', street: 'Holstenstraße' },
      version: 2,
      changed: ['street'],
    });
  });

  it('resolve.keepMine keeps my value where both changed the same field', async () => {
    const run = start();
    run.actor.send({ type: 'edit', values: { city: 'Husum', street: 'Holtenauer Straße' } });
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    run.saveRecord.last().reject({ kind: 'conflict', current: theirs });
    await flushPromises();
    run.actor.send({ type: 'resolve.keepMine' });
    expect(run.validate.last().input).toEqual({ city: 'Husum', street: 'Holtenauer Straße' });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    expect(run.saveRecord.last().input.changed).toEqual(['city']);
  });

  it('resolve.keepMine merges the custom fields per key: their change to another key stays', async () => {
    const base = { record: loaded.record, values: { title: 'Wasser', custom: { a: 'x', b: 'y' } } };
    const run = start(base);
    run.actor.send({ type: 'edit', values: { title: 'Wasser', custom: { a: 'mine', b: 'y' } } });
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    run.saveRecord.last().reject({
      kind: 'conflict',
      current: {
        record: theirs.record,
        values: { title: 'Wasser', custom: { a: 'x', b: 'theirs' } },
      },
    });
    await flushPromises();
    run.actor.send({ type: 'resolve.keepMine' });
    expect(run.validate.last().input).toEqual({
      title: 'Wasser',
      custom: { a: 'mine', b: 'theirs' },
    });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    // Only my key counts as changed: the save sends it alone.
    expect(run.saveRecord.last().input.changed).toEqual(['custom', 'custom.a']);
  });

  it('resolve.merge takes their changes where this user changed nothing, and waits for save', async () => {
    const run = start();
    await toConflict(run);
    run.actor.send({ type: 'resolve.merge' });
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: theirs.record,
      values: { city: 'Lübeck', street: 'Holstenstraße' },
      conflict: null,
    });
    expect(run.saveRecord.calls).toHaveLength(1);
  });

  it('saving again from the conflict uses the old base (the user chose so)', async () => {
    const run = start();
    await toConflict(run);
    run.actor.send({ type: 'save' });
    run.validate.last().resolve({ ok: true, input: {} });
    await flushPromises();
    expect(run.saveRecord.last().input.version).toBe(1);
  });

  it('record.load replaces base and values; record.rebase moves only the base', () => {
    const run = start();
    run.actor.send({ type: 'edit', values: { city: 'Kiel', street: 'typed' } });
    run.actor.send({ type: 'record.rebase', ...theirs });
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: theirs.record,
      values: { city: 'Kiel', street: 'typed' },
    });
    run.actor.send({ type: 'record.load', ...loaded });
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: loaded.record,
      values: loaded.values,
    });
  });
});

describe('recordEditMachine reading its record', () => {
  const empty = { city: '', street: '' };
  const startLoading = () => start({ record: null, values: empty, load: true });

  it('reads the record first, then edits it', async () => {
    const run = startLoading();
    expect(run.actor.getSnapshot().value).toBe('loading');
    expect(run.loadRecord.calls).toHaveLength(1);
    // Typing before the record is there is superseded by the record.
    run.actor.send({ type: 'edit', values: { city: 'x', street: 'y' } });
    run.loadRecord.last().resolve(loaded);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: loaded.record,
      baseValues: loaded.values,
      values: loaded.values,
      failure: null,
    });
  });

  it('a failed read waits for load.retry, which reads again and clears the reason', async () => {
    const run = startLoading();
    run.loadRecord.last().reject({ kind: 'failed', failure: 'Not read.' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('loadFailed');
    expect(run.actor.getSnapshot().context.failure).toBe('Not read.');
    // Saving a record that is not there does nothing.
    run.actor.send({ type: 'save' });
    expect(run.validate.calls).toHaveLength(0);
    run.actor.send({ type: 'load.retry' });
    expect(run.actor.getSnapshot().value).toBe('loading');
    expect(run.actor.getSnapshot().context.failure).toBeNull();
    expect(run.loadRecord.calls).toHaveLength(2);
    run.loadRecord.last().resolve(loaded);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('editing');
  });

  it('a rejection without a reason fails with the generic text', async () => {
    const run = startLoading();
    run.loadRecord.last().reject(new Error('network'));
    await flushPromises();
    expect(run.actor.getSnapshot().context.failure).toBe('');
  });

  it('record.reload after a conflict reads the record again instead of taking the 409s', async () => {
    const run = startLoading();
    run.loadRecord.last().resolve(loaded);
    await flushPromises();
    await toConflict(run);
    run.actor.send({ type: 'record.reload' });
    expect(run.actor.getSnapshot().value).toBe('loading');
    const newest = {
      record: { version: 3, updatedBy: 'usr_c', updatedAt: '2026-01-01T10:09:00Z' },
      values: { city: 'Husum', street: 'Markt' },
    };
    run.loadRecord.last().resolve(newest);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context).toMatchObject({
      base: newest.record,
      values: newest.values,
      conflict: null,
    });
  });

  it('record.reload drops what is typed, from editing and after a save', async () => {
    const run = startLoading();
    run.loadRecord.last().resolve(loaded);
    await flushPromises();
    run.actor.send({ type: 'edit', values: { city: 'Kiel', street: 'typed' } });
    run.actor.send({ type: 'record.reload' });
    run.loadRecord.last().resolve(loaded);
    await flushPromises();
    expect(run.actor.getSnapshot().context.values).toEqual(loaded.values);
    await toSaving(run);
    run.saveRecord.last().resolve(theirs);
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('saved');
    run.actor.send({ type: 'record.reload' });
    expect(run.actor.getSnapshot().value).toBe('loading');
    expect(run.loadRecord.calls).toHaveLength(3);
  });

  it('without load it never reads: it edits the record given, and record.reload does nothing', () => {
    const run = start();
    expect(run.actor.getSnapshot().value).toBe('editing');
    run.actor.send({ type: 'record.reload' });
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.loadRecord.calls).toHaveLength(0);
  });
});

describe('changedFields', () => {
  it('names the top-level fields that differ from the loaded values, and the keys of an object', () => {
    expect(changedFields({ a: '1', b: '1', c: { x: 1 } }, { a: '1', b: '2', c: { x: 2 } })).toEqual(
      ['b', 'c', 'c.x'],
    );
    expect(changedFields({ a: '1' }, { a: '1' })).toEqual([]);
  });

  it('names a key added to or removed from an object field, never an unchanged one', () => {
    expect(changedFields({ c: { x: 1, y: 2 } }, { c: { y: 2, z: 3 } })).toEqual([
      'c',
      'c.x',
      'c.z',
    ]);
  });

  it('counts every field as changed for a new record', () => {
    expect(changedFields(null, { a: '', b: 'x' })).toEqual(['a', 'b']);
  });
});

describe('mergeValues', () => {
  it('keeps my changed fields, takes theirs elsewhere', () => {
    expect(
      mergeValues(
        { a: '1', b: '1', c: [1] },
        { a: '2', b: '1', c: [1] },
        { a: '3', b: '3', c: [2] },
      ),
    ).toEqual({ a: '2', b: '3', c: [2] });
  });

  it('merges an object field (the custom fields) per key: their change to another key stays', () => {
    expect(
      mergeValues(
        { custom: { x: 1, y: 1, z: 1 } },
        { custom: { x: 2, y: 1, z: 1 } },
        { custom: { x: 1, y: 3, z: 1 } },
      ),
    ).toEqual({ custom: { x: 2, y: 3, z: 1 } });
  });

  it('keeps my value of a key both changed, and a key I removed stays removed', () => {
    expect(
      mergeValues(
        { custom: { x: 1, y: 1 } },
        { custom: { x: 2 } },
        { custom: { x: 3, y: 1, w: 4 } },
      ),
    ).toEqual({ custom: { x: 2, w: 4 } });
  });

  it('arrays are values, compared and taken whole', () => {
    expect(mergeValues({ l: [1, 2] }, { l: [1] }, { l: [1, 2, 3] })).toEqual({ l: [1] });
  });
});

it('reaches every state and takes every event (reachability)', () => {
  // States told apart by value: with the values typed and saved, the context variants would
  // multiply the graph without reaching anything new.
  const model = createMachineTestModel(recordEditMachine, {
    input: pathsInput,
    events: pathEvents,
    ignoreContext: true,
  });
  expectFullCoverage(recordEditMachine, [...model.getShortestPaths(), ...transitionPaths(model)]);
});
