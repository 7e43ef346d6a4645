import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  isDirty,
  pathEvents,
  templateEditorMachine,
  type RenderedPreview,
  type SavedTemplate,
} from './template-editor.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

function start() {
  const renderPreview = controlledPromise<RenderedPreview, unknown>();
  const saveTemplate = controlledPromise<SavedTemplate, unknown>();
  const deleteTemplate = controlledPromise<boolean>();
  const sendTestMail = controlledPromise<{ sentTo: string }, unknown>();
  const notifySaved = vi.fn();
  const notifyDeleted = vi.fn();
  const actor = createActor(
    templateEditorMachine.provide({
      actors: {
        renderPreview: renderPreview.logic,
        saveTemplate: saveTemplate.logic,
        deleteTemplate: deleteTemplate.logic,
        sendTestMail: sendTestMail.logic,
      },
      actions: { notifySaved, notifyDeleted },
    }),
    { input: { template: { version: 1 }, changes: { body: 'a' } } },
  ).start();
  return {
    actor,
    renderPreview,
    saveTemplate,
    deleteTemplate,
    sendTestMail,
    notifySaved,
    notifyDeleted,
  };
}

const issue = { path: 'bodies.de.html', code: 'syntax_error', line: 2, column: 5 };
const dirty = (actor: ReturnType<typeof start>['actor']) => isDirty(actor.getSnapshot().context);

describe('templateEditorMachine', () => {
  it('starts clean with the template as its draft; an edit makes it dirty, the same sources clean again', () => {
    const { actor } = start();
    expect(actor.getSnapshot().context).toMatchObject({
      saved: { version: 1 },
      draft: { body: 'a' },
    });
    expect(dirty(actor)).toBe(false);
    actor.send({ type: 'edit', draft: { body: 'b' } });
    expect(dirty(actor)).toBe(true);
    actor.send({ type: 'edit', draft: { body: 'a' } });
    expect(dirty(actor)).toBe(false);
  });

  it('previews the sources it is given and returns to editing with the result', async () => {
    const { actor, renderPreview } = start();
    actor.send({ type: 'preview', request: { language: 'de' } });
    expect(actor.getSnapshot().value).toBe('previewing');
    expect(renderPreview.last().input).toEqual({ language: 'de' });
    renderPreview.last().resolve({ subject: 'S', html: '<p>h</p>', text: 't' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.preview).toEqual({
      subject: 'S',
      html: '<p>h</p>',
      text: 't',
    });
    actor.send({ type: 'preview.close' });
    expect(actor.getSnapshot().context.preview).toBeNull();
  });

  it('keeps a document PDF preview like an e-mail preview, replaced by the next one', async () => {
    const { actor, renderPreview } = start();
    actor.send({ type: 'preview', request: { bodyTemplate: 'a' } });
    renderPreview.last().resolve({ pdfUrl: 'blob:one' });
    await flushPromises();
    expect(actor.getSnapshot().context.preview).toEqual({ pdfUrl: 'blob:one' });
    actor.send({ type: 'edit', draft: { body: 'b' } });
    actor.send({ type: 'preview', request: { bodyTemplate: 'b' } });
    renderPreview.last().resolve({ pdfUrl: 'blob:two' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.preview).toEqual({ pdfUrl: 'blob:two' });
  });

  it('keeps a refusal with its issues until the next save succeeds, then compares with what was saved', async () => {
    const { actor, saveTemplate, notifySaved } = start();
    actor.send({ type: 'edit', draft: { body: 'b' } });
    actor.send({ type: 'save', request: 1 });
    saveTemplate.last().reject({ kind: 'invalid', issues: [issue] });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.refusal).toEqual({ kind: 'invalid', issues: [issue] });
    actor.send({ type: 'edit', draft: { body: 'c' } });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.refusal).not.toBeNull();
    actor.send({ type: 'save', request: 2 });
    expect(saveTemplate.last().input).toBe(2);
    saveTemplate.last().resolve({ version: 3, template: { version: 3 }, changes: { body: 'c' } });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('saved');
    expect(actor.getSnapshot().context).toMatchObject({
      refusal: null,
      savedVersion: 3,
      saved: { version: 3 },
    });
    expect(dirty(actor)).toBe(false);
    expect(notifySaved).toHaveBeenCalledTimes(1);
  });

  it('keeps typing made while a save runs: the draft stays dirty against what was saved', async () => {
    const { actor, saveTemplate } = start();
    actor.send({ type: 'edit', draft: { body: 'b' } });
    actor.send({ type: 'save', request: { body: 'b' } });
    actor.send({ type: 'edit', draft: { body: 'bc' } });
    expect(actor.getSnapshot().value).toBe('saving');
    saveTemplate.last().resolve({ version: 2, template: {}, changes: { body: 'b' } });
    await flushPromises();
    expect(actor.getSnapshot().context.draft).toEqual({ body: 'bc' });
    expect(dirty(actor)).toBe(true);
  });

  it('turns an unknown failure into a failed refusal', async () => {
    const { actor, renderPreview } = start();
    actor.send({ type: 'preview', request: null });
    renderPreview.last().reject(new Error('network'));
    await flushPromises();
    expect(actor.getSnapshot().context.refusal).toEqual({ kind: 'failed', code: 'unknown' });
  });

  it('does not start a second call while one runs', () => {
    const { actor, saveTemplate, renderPreview, deleteTemplate } = start();
    actor.send({ type: 'save', request: 1 });
    actor.send({ type: 'preview', request: 1 });
    actor.send({ type: 'save', request: 2 });
    actor.send({ type: 'delete' });
    expect(saveTemplate.calls).toHaveLength(1);
    expect(renderPreview.calls).toHaveLength(0);
    expect(deleteTemplate.calls).toHaveLength(0);
  });

  it('goes back to editing, draft kept, when the user keeps the template at the confirm dialog', async () => {
    const { actor, deleteTemplate, notifyDeleted } = start();
    actor.send({ type: 'edit', draft: { body: 'b' } });
    actor.send({ type: 'delete' });
    expect(actor.getSnapshot().value).toBe('deleting');
    deleteTemplate.last().resolve(false);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.draft).toEqual({ body: 'b' });
    expect(notifyDeleted).not.toHaveBeenCalled();
  });

  it('ends in deleted once the template is gone', async () => {
    const { actor, deleteTemplate, notifyDeleted } = start();
    actor.send({ type: 'delete' });
    deleteTemplate.last().resolve(true);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('deleted');
    expect(actor.getSnapshot().status).toBe('done');
    expect(notifyDeleted).toHaveBeenCalledTimes(1);
  });

  it('sends a test e-mail beside the editing, one at a time, and keeps how it went', async () => {
    const { actor, sendTestMail, saveTemplate } = start();
    actor.send({ type: 'testMail.send', request: 'de' });
    actor.send({ type: 'testMail.send', request: 'en' });
    expect(sendTestMail.calls.map((call) => call.input)).toEqual(['de']);
    expect(actor.getSnapshot().context.testMail).toEqual({ kind: 'sending' });
    actor.send({ type: 'save', request: 1 });
    expect(actor.getSnapshot().value).toBe('saving');
    sendTestMail.last().resolve({ sentTo: 'me@demo.test' });
    await flushPromises();
    expect(actor.getSnapshot().context.testMail).toEqual({ kind: 'sent', to: 'me@demo.test' });
    expect(actor.getSnapshot().value).toBe('saving');
    saveTemplate.last().resolve({ version: 2, template: {}, changes: {} });
    actor.send({ type: 'testMail.send', request: 'pl' });
    sendTestMail.last().reject(new Error('down'));
    await flushPromises();
    expect(actor.getSnapshot().context.testMail).toEqual({ kind: 'failed' });
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(templateEditorMachine, {
    events: pathEvents,
    input: { template: null, changes: null },
  });
  expectFullCoverage(templateEditorMachine, [
    ...model.getShortestPaths(),
    ...transitionPaths(model),
  ]);
});
