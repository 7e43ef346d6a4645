import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  emailTemplateEditorMachine,
  pathEvents,
  type RenderedPreview,
} from './email-template-editor.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

function start() {
  const renderPreview = controlledPromise<RenderedPreview, unknown>();
  const saveTemplate = controlledPromise<{ version: number }, unknown>();
  const notifySaved = vi.fn();
  const actor = createActor(
    emailTemplateEditorMachine.provide({
      actors: { renderPreview: renderPreview.logic, saveTemplate: saveTemplate.logic },
      actions: { notifySaved },
    }),
  ).start();
  return { actor, renderPreview, saveTemplate, notifySaved };
}

const issue = { path: 'bodies.de.html', code: 'syntax_error', line: 2, column: 5 };

describe('emailTemplateEditorMachine', () => {
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
    actor.send({ type: 'edit' });
    actor.send({ type: 'preview', request: { bodyTemplate: 'b' } });
    renderPreview.last().resolve({ pdfUrl: 'blob:two' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.preview).toEqual({ pdfUrl: 'blob:two' });
  });

  it('keeps a refusal with its issues until the next save succeeds', async () => {
    const { actor, saveTemplate, notifySaved } = start();
    actor.send({ type: 'save', request: 1 });
    saveTemplate.last().reject({ kind: 'invalid', issues: [issue] });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.refusal).toEqual({ kind: 'invalid', issues: [issue] });
    actor.send({ type: 'edit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.refusal).not.toBeNull();
    actor.send({ type: 'save', request: 2 });
    expect(saveTemplate.last().input).toBe(2);
    saveTemplate.last().resolve({ version: 3 });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('saved');
    expect(actor.getSnapshot().context).toMatchObject({ refusal: null, savedVersion: 3 });
    expect(notifySaved).toHaveBeenCalledTimes(1);
  });

  it('turns an unknown failure into a failed refusal', async () => {
    const { actor, renderPreview } = start();
    actor.send({ type: 'preview', request: null });
    renderPreview.last().reject(new Error('network'));
    await flushPromises();
    expect(actor.getSnapshot().context.refusal).toEqual({ kind: 'failed', code: 'unknown' });
  });

  it('does not start a second call while one runs', () => {
    const { actor, saveTemplate, renderPreview } = start();
    actor.send({ type: 'save', request: 1 });
    actor.send({ type: 'preview', request: 1 });
    actor.send({ type: 'save', request: 2 });
    expect(saveTemplate.calls).toHaveLength(1);
    expect(renderPreview.calls).toHaveLength(0);
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(emailTemplateEditorMachine, { events: pathEvents });
  expectFullCoverage(emailTemplateEditorMachine, [
    ...model.getShortestPaths(),
    ...transitionPaths(model),
  ]);
});
