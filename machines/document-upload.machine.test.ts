import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  documentUploadMachine,
  isSettled,
  pathEvents,
  pathsInput,
  type DocumentUploadInput,
  type PresignedPost,
  type PresignRequest,
  type SendFileInput,
} from './document-upload.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const presigned: PresignedPost = { url: '/storage/documents', fields: { key: 'k', Policy: 'p' } };

function start(input: DocumentUploadInput = pathsInput) {
  const request = controlledPromise<PresignedPost, PresignRequest>();
  const send = controlledPromise<void, SendFileInput>();
  const actor = createActor(
    documentUploadMachine.provide({
      actors: { requestUpload: request.logic, sendFile: send.logic },
    }),
    { input },
  ).start();
  return { actor, request, send };
}

describe('documentUploadMachine', () => {
  it('asks for a signature with the spec request (jpeg shortened to jpg), then sends the file', async () => {
    const { actor, request, send } = start({
      file: { name: 'Foto Küche.JPEG', size: 5000 },
      target: { accountCode: 'acc_1', policyCode: 'pol_1', claimId: 7 },
      description: 'Kitchen',
    });
    expect(actor.getSnapshot().value).toBe('requesting');
    expect(request.last().input).toEqual({
      accountCode: 'acc_1',
      policyCode: 'pol_1',
      claimId: 7,
      filename: 'Foto Küche.JPEG',
      description: 'Kitchen',
      contentType: 'jpg',
      isoContentType: 'image/jpeg',
    });
    request.last().resolve(presigned);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(send.last().input).toMatchObject({ ...presigned, file: { name: 'Foto Küche.JPEG' } });
    send.last().input.progressTo.send({ type: 'upload.progress', loaded: 2500, total: 5000 });
    expect(actor.getSnapshot().context.progress).toBe(0.5);
    send.last().resolve();
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().context.progress).toBe(1);
  });

  it.each([
    ['virus.exe', 'extension'],
    ['noextension', 'extension'],
    ['scan.pdf.exe', 'extension'],
    ['image.gif', 'extension'],
  ])('rejects %s before asking anything', (name, refusal) => {
    const { actor, request } = start({ ...pathsInput, file: { name, size: 10 } });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.refusal).toBe(refusal);
    expect(request.calls).toHaveLength(0);
  });

  it.each([
    { accountCode: null, policyCode: 'pol_1', claimId: 7 },
    { accountCode: 'acc_1', policyCode: '', claimId: 7 },
    { accountCode: 'acc_1', policyCode: 'pol_1', claimId: null },
  ])('refuses without account, policy or claim (%j)', (target) => {
    const { actor, request } = start({ ...pathsInput, target });
    expect(actor.getSnapshot().context.refusal).toBe('missingTarget');
    expect(request.calls).toHaveLength(0);
  });

  it('keeps progress between 0 and 1 and never lets it go back', async () => {
    const { actor, request, send } = start();
    request.last().resolve(presigned);
    await flushPromises();
    const to = send.last().input.progressTo;
    to.send({ type: 'upload.progress', loaded: 1500, total: 2048 });
    to.send({ type: 'upload.progress', loaded: 100, total: 2048 });
    expect(actor.getSnapshot().context.progress).toBeCloseTo(1500 / 2048);
    to.send({ type: 'upload.progress', loaded: 9999, total: 2048 });
    expect(actor.getSnapshot().context.progress).toBe(1);
    to.send({ type: 'upload.progress', loaded: 5, total: 0 });
    expect(actor.getSnapshot().context.progress).toBe(1);
  });

  it('retries with a new signature and starts the bar again', async () => {
    const { actor, request, send } = start();
    request.last().resolve(presigned);
    await flushPromises();
    send.last().input.progressTo.send({ type: 'upload.progress', loaded: 1024, total: 2048 });
    send.last().reject({ code: 'AccessDenied' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('AccessDenied');
    actor.send({ type: 'upload.retry' });
    expect(request.calls).toHaveLength(2);
    expect(actor.getSnapshot().context).toMatchObject({
      progress: 0,
      failure: null,
      presigned: null,
    });
  });

  it('stops the request under way when cancelled', async () => {
    const { actor, request, send } = start();
    request.last().resolve(presigned);
    await flushPromises();
    actor.send({ type: 'upload.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    // A late answer of the stopped request changes nothing.
    send.last().resolve();
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it('fails when no signature comes, with the reason; cancel from there ends without a call', async () => {
    const { actor, request, send } = start();
    request.last().reject({ code: 'forbidden' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('forbidden');
    expect(send.calls).toHaveLength(0);
    actor.send({ type: 'upload.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(request.calls).toHaveLength(1);
  });

  it('cancelled while asking for the signature, a late signature sends nothing', async () => {
    const { actor, request, send } = start();
    actor.send({ type: 'upload.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    request.last().resolve(presigned);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(send.calls).toHaveLength(0);
  });

  it('tells which states are at rest', () => {
    expect(['done', 'rejected', 'cancelled', 'failed'].every(isSettled)).toBe(true);
    expect(['checking', 'requesting', 'uploading'].some(isSettled)).toBe(false);
  });
});

describe('documentUploadMachine model', () => {
  // Three worlds: a file that goes, one of the wrong kind, one without its claim.
  const inputs: DocumentUploadInput[] = [
    pathsInput,
    { ...pathsInput, file: { name: 'setup.exe', size: 10 } },
    { ...pathsInput, target: { accountCode: 'acc_1', policyCode: null, claimId: 7 } },
  ];
  const runs = inputs.map((input) => {
    const model = createMachineTestModel(documentUploadMachine, { input, events: pathEvents });
    return { input, model, paths: [...model.getShortestPaths(), ...transitionPaths(model)] };
  });

  it('reaches every state and takes every event', () => {
    expectFullCoverage(
      documentUploadMachine,
      runs.flatMap((r) => r.paths),
    );
  });
});
