import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  docxUploadMachine,
  type DocxUploadRequest,
  type DocxVerdict,
} from './docx-upload.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';

const request: DocxUploadRequest = {
  name: 'Bestätigung',
  entityType: 'policy',
  file: { name: 'letter.docx', size: 4096 },
};

function start() {
  const upload = controlledPromise<string, DocxUploadRequest>();
  const check = controlledPromise<DocxVerdict, string>();
  const actor = createActor(
    docxUploadMachine.provide({
      actors: { uploadTemplate: upload.logic, checkTemplate: check.logic },
    }),
  ).start();
  return { actor, upload, check };
}

describe('docxUploadMachine', () => {
  it('uploads, then has the arrived file checked, and is done when it is ready', async () => {
    const { actor, upload, check } = start();
    actor.send({ type: 'upload.submit', request });
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(upload.last().input).toEqual(request);
    upload.last().resolve('dxt_1');
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('validating');
    expect(check.last().input).toBe('dxt_1');
    check.last().resolve({ ok: true });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('keeps the refusal with each problem placed, and goes back to the form to fix it', async () => {
    const { actor, upload, check } = start();
    actor.send({ type: 'upload.submit', request });
    upload.last().resolve('dxt_2');
    await flushPromises();
    const problems = [{ path: 'file', code: 'unknown_tag', name: 'policy.nr', line: 2, column: 9 }];
    check.last().resolve({ ok: false, problems });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.problems).toEqual(problems);
    actor.send({ type: 'upload.edit' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.request).toEqual(request);
    // A new submit starts clean.
    actor.send({ type: 'upload.submit', request });
    expect(actor.getSnapshot().context.problems).toEqual([]);
  });

  it('refuses a form that breaks a rule without asking anything', () => {
    const { actor, upload } = start();
    actor.send({
      type: 'upload.submit',
      request: { name: ' ', entityType: 'policy', file: { name: 'letter.pdf', size: 10 } },
    });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.fieldRefusals).toEqual(['name', 'fileType']);
    actor.send({
      type: 'upload.submit',
      request: { ...request, file: { name: 'big.docx', size: 11 * 1024 * 1024 } },
    });
    expect(actor.getSnapshot().context.fieldRefusals).toEqual(['fileSize']);
    expect(upload.calls).toHaveLength(0);
  });

  it('keeps the failure code and can be sent again or cancelled', async () => {
    const { actor, upload } = start();
    actor.send({ type: 'upload.submit', request });
    upload.last().reject({ code: 'InvalidContent' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('InvalidContent');
    actor.send({ type: 'upload.edit' });
    actor.send({ type: 'upload.submit', request });
    expect(actor.getSnapshot().value).toBe('uploading');
    actor.send({ type: 'upload.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
  });
});
