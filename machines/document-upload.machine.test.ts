import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  documentUploadMachine,
  isSettled,
  refusalOfFailure,
  pathEvents,
  pathsInput,
  type DocumentUploadInput,
  type PresignedPost,
  type PresignRequest,
  type SendFileInput,
  type UploadFile,
} from './document-upload.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const presigned: PresignedPost = { url: '/storage/documents', fields: { key: 'k', Policy: 'p' } };

const PDF_HEAD = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37]);
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
const TEXT_HEAD = new Uint8Array([0x48, 0x61, 0x6c, 0x6c, 0x6f, 0x0a]);

/**
 * Starts an upload whose file begins with `head` (by default the bytes its name's type begins
 * with), and waits until its first bytes were read.
 */
async function start(input: DocumentUploadInput = pathsInput, head?: Uint8Array) {
  const request = controlledPromise<PresignedPost, PresignRequest>();
  const send = controlledPromise<void, SendFileInput>();
  const reads: string[] = [];
  const actor = createActor(
    documentUploadMachine.provide({
      actors: {
        readHead: fromPromise<Uint8Array, UploadFile>(async ({ input: file }) => {
          reads.push(file.name);
          return head ?? (/\.jpe?g$/i.test(file.name) ? JPEG_HEAD : PDF_HEAD);
        }),
        requestUpload: request.logic,
        sendFile: send.logic,
      },
    }),
    { input },
  ).start();
  await flushPromises();
  return { actor, request, send, reads };
}

describe('documentUploadMachine', () => {
  it('asks for a signature with the spec request (jpeg shortened to jpg), then sends the file', async () => {
    const { actor, request, send } = await start({
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
  ])('rejects %s before asking anything', async (name, refusal) => {
    const { actor, request } = await start({ ...pathsInput, file: { name, size: 10 } });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.refusal).toBe(refusal);
    expect(request.calls).toHaveLength(0);
  });

  it.each([
    { accountCode: null, policyCode: 'pol_1', claimId: 7 },
    { accountCode: 'acc_1', policyCode: '', claimId: 7 },
    { accountCode: 'acc_1', policyCode: 'pol_1', claimId: null },
  ])('refuses without account, policy or claim (%j)', async (target) => {
    const { actor, request } = await start({ ...pathsInput, target });
    expect(actor.getSnapshot().context.refusal).toBe('missingTarget');
    expect(request.calls).toHaveLength(0);
  });

  it('keeps progress between 0 and 1 and never lets it go back', async () => {
    const { actor, request, send } = await start();
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
    const { actor, request, send } = await start();
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
    const { actor, request, send } = await start();
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
    const { actor, request, send } = await start();
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
    const { actor, request, send } = await start();
    actor.send({ type: 'upload.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    request.last().resolve(presigned);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(send.calls).toHaveLength(0);
  });

  it('refuses a file over 10 MiB before reading or asking anything', async () => {
    const { actor, request, reads } = await start({
      ...pathsInput,
      file: { name: 'scan.pdf', size: 10 * 1024 * 1024 + 1 },
    });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.refusal).toBe('tooLarge');
    expect(reads).toHaveLength(0);
    expect(request.calls).toHaveLength(0);
  });

  it('takes a file of exactly 10 MiB', async () => {
    const { actor } = await start({
      ...pathsInput,
      file: { name: 'scan.pdf', size: 10 * 1024 * 1024 },
    });
    expect(actor.getSnapshot().value).toBe('requesting');
  });

  it('refuses a file whose bytes are not the type its name says, by its first bytes', async () => {
    const fake = await start({ ...pathsInput, file: { name: 'invoice.pdf', size: 6 } }, TEXT_HEAD);
    expect(fake.reads).toEqual(['invoice.pdf']);
    expect(fake.actor.getSnapshot().value).toBe('rejected');
    expect(fake.actor.getSnapshot().context.refusal).toBe('content');
    expect(fake.request.calls).toHaveLength(0);
    // A real JPEG named .pdf is not a PDF either.
    const jpeg = await start({ ...pathsInput, file: { name: 'photo.pdf', size: 900 } }, JPEG_HEAD);
    expect(jpeg.actor.getSnapshot().context.refusal).toBe('content');
  });

  it('goes on when the first bytes cannot be read: the storage checks them', async () => {
    const request = controlledPromise<PresignedPost, PresignRequest>();
    const actor = createActor(
      documentUploadMachine.provide({
        actors: {
          readHead: fromPromise<Uint8Array, UploadFile>(async () => {
            throw new Error('NotReadableError');
          }),
          requestUpload: request.logic,
        },
      }),
      { input: pathsInput },
    ).start();
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('requesting');
  });

  it("reads the storage's refusals of the file as the same refusals as the checks here", () => {
    expect(refusalOfFailure('EntityTooLarge')).toBe('tooLarge');
    expect(refusalOfFailure('InvalidContent')).toBe('content');
    // An empty file, and the BFF's 413 in front of the storage.
    expect(refusalOfFailure('EntityTooSmall')).toBe('content');
    expect(refusalOfFailure('payload_too_large')).toBe('tooLarge');
    expect(refusalOfFailure('AccessDenied')).toBeNull();
    expect(refusalOfFailure(null)).toBeNull();
  });

  it('tells which states are at rest', () => {
    expect(['done', 'rejected', 'cancelled', 'failed'].every(isSettled)).toBe(true);
    expect(['checking', 'inspecting', 'requesting', 'uploading'].some(isSettled)).toBe(false);
  });
});

describe('documentUploadMachine model', () => {
  // Four worlds: a file that goes, one of the wrong kind, one too large, one without its claim.
  const inputs: DocumentUploadInput[] = [
    pathsInput,
    { ...pathsInput, file: { name: 'setup.exe', size: 10 } },
    { ...pathsInput, file: { name: 'scan.pdf', size: 11 * 1024 * 1024 } },
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
