import { assign, fromPromise, setup, type AnyActorRef } from 'xstate';
import { failureCode } from './failure-code.ts';
import {
  contentTypeOfName,
  hasMagicOf,
  MAX_DOCUMENT_BYTES,
  shortContentType,
  type DocumentContentType,
} from '#common/claim-documents.ts';

/** The file as the panel hands it over (a browser File has all of these). */
export interface UploadFile {
  name: string;
  size: number;
}

/** Whose document it becomes (spec: upload is refused when any of the three is missing). */
export interface UploadTarget {
  accountCode: string | null;
  policyCode: string | null;
  claimId: number | null;
}

export interface DocumentUploadInput {
  file: UploadFile;
  target: UploadTarget;
  description?: string;
}

/** The pre-signed upload request of the spec, as the document service wants it. */
export interface PresignRequest {
  accountCode: string;
  policyCode: string;
  claimId: number;
  filename: string;
  description: string;
  contentType: 'pdf' | 'png' | 'jpg';
  isoContentType: DocumentContentType;
}

export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface SendFileInput extends PresignedPost {
  file: UploadFile;
  /** Told of each progress step with `upload.progress` (the machine itself). */
  progressTo: AnyActorRef;
}

/**
 * Why a file is not sent: a name that is none of the four types, a claim without its owners, a
 * file over MAX_DOCUMENT_BYTES (`tooLarge`), or bytes that do not begin as the name's type does
 * (`content`: a text file named .pdf). The storage refuses the last two itself too, with the
 * codes {@link refusalOfFailure} reads.
 */
export type UploadRefusal = 'extension' | 'missingTarget' | 'tooLarge' | 'content';

/**
 * The refusal codes that say the same as a check of the file here (issue 15 point 14): the
 * storage's S3 codes, and the BFF's own 413 when the body outgrows what it lets through to the
 * storage. An empty file (`EntityTooSmall`) fails the check here as content: its bytes are no
 * file of its type.
 */
const FILE_REFUSALS: Readonly<Record<string, UploadRefusal>> = {
  EntityTooLarge: 'tooLarge',
  payload_too_large: 'tooLarge',
  InvalidContent: 'content',
  EntityTooSmall: 'content',
};

/**
 * The refusal a failure stands for when the storage refused the file itself (too large, not its
 * type), so that the screen says the same as when the check here refused it; null otherwise.
 */
export function refusalOfFailure(failure: string | null): UploadRefusal | null {
  return failure === null ? null : (FILE_REFUSALS[failure] ?? null);
}

/** How many of a file's first bytes tell its type (PNG's signature is the longest). */
export const HEAD_BYTES = 8;

export interface DocumentUploadContext {
  file: UploadFile;
  target: UploadTarget;
  description: string;
  /** Bytes sent of the file's size, 0..1. */
  progress: number;
  presigned: PresignedPost | null;
  refusal: UploadRefusal | null;
  /** Why the last try failed: an error's code, or 'unavailable'. */
  failure: string | null;
}

export type DocumentUploadEvent =
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'upload.retry' }
  | { type: 'upload.cancel' };

/**
 * One file of the claim documents panel on its way into storage. A file that is not png, jpeg,
 * jpg or pdf, one over 10 MiB, or a claim without account, policy or id, stops at once
 * (`rejected`, nothing is asked). Then the file's first bytes are read (`inspecting`): bytes that
 * are not the type its name says stop it too (`content`); a file that cannot be read goes on, the
 * storage checks the bytes anyway. Otherwise the document service signs the upload (`requesting`), the file goes as a
 * multipart form straight to the storage address it signed (`uploading`, with progress), and the
 * document exists (`done`). A failure of either step can be retried from the start (a signature
 * is good for one file, so a retry asks for a new one); the user can cancel while it runs, which
 * stops the request under way (the actors get an abort signal).
 *
 * Provide: actors `readHead` (input the file; output its first {@link HEAD_BYTES} bytes),
 * `requestUpload` (input {@link PresignRequest}, output {@link PresignedPost}) and `sendFile` (input {@link SendFileInput}; resolves when the storage accepted the file).
 */
export const documentUploadMachine = setup({
  types: {
    input: {} as DocumentUploadInput,
    context: {} as DocumentUploadContext,
    events: {} as DocumentUploadEvent,
  },
  actors: {
    readHead: fromPromise<Uint8Array, UploadFile>(async () => {
      throw new Error('documentUploadMachine: provide the readHead actor');
    }),
    requestUpload: fromPromise<PresignedPost, PresignRequest>(async () => {
      throw new Error('documentUploadMachine: provide the requestUpload actor');
    }),
    sendFile: fromPromise<void, SendFileInput>(async () => {
      throw new Error('documentUploadMachine: provide the sendFile actor');
    }),
  },
  guards: {
    badExtension: ({ context }) => contentTypeOfName(context.file.name) === null,
    tooLarge: ({ context }) => context.file.size > MAX_DOCUMENT_BYTES,
    notItsType: ({ context }, params: { head: Uint8Array }) =>
      !hasMagicOf(params.head, contentTypeOfName(context.file.name)!),
    missingTarget: ({ context }) =>
      !context.target.accountCode || !context.target.policyCode || !context.target.claimId,
  },
  actions: {
    refuse: assign((_, params: { refusal: UploadRefusal }) => ({ refusal: params.refusal })),
    fail: assign((_, params: { error: unknown }) => ({ failure: failureCode(params.error) })),
  },
}).createMachine({
  id: 'documentUpload',
  context: ({ input }) => ({
    file: input.file,
    target: input.target,
    description: input.description ?? '',
    progress: 0,
    presigned: null,
    refusal: null,
    failure: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      always: [
        {
          guard: 'badExtension',
          target: 'rejected',
          actions: { type: 'refuse', params: { refusal: 'extension' } },
        },
        {
          guard: 'tooLarge',
          target: 'rejected',
          actions: { type: 'refuse', params: { refusal: 'tooLarge' } },
        },
        {
          guard: 'missingTarget',
          target: 'rejected',
          actions: { type: 'refuse', params: { refusal: 'missingTarget' } },
        },
        { target: 'inspecting' },
      ],
    },
    inspecting: {
      invoke: {
        id: 'readHead',
        src: 'readHead',
        input: ({ context }) => context.file,
        onDone: [
          {
            guard: { type: 'notItsType', params: ({ event }) => ({ head: event.output }) },
            target: 'rejected',
            actions: { type: 'refuse', params: { refusal: 'content' } },
          },
          { target: 'requesting' },
        ],
        // Not readable here: the storage checks the bytes as they arrive.
        onError: 'requesting',
      },
      on: { 'upload.cancel': 'cancelled' },
    },
    requesting: {
      entry: assign({ progress: 0, failure: null, presigned: null }),
      invoke: {
        id: 'requestUpload',
        src: 'requestUpload',
        input: ({ context }) => {
          const type = contentTypeOfName(context.file.name)!;
          return {
            accountCode: context.target.accountCode!,
            policyCode: context.target.policyCode!,
            claimId: context.target.claimId!,
            filename: context.file.name,
            description: context.description,
            contentType: shortContentType(type),
            isoContentType: type,
          };
        },
        onDone: {
          target: 'uploading',
          actions: assign({ presigned: ({ event }) => event.output }),
        },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: { 'upload.cancel': 'cancelled' },
    },
    uploading: {
      invoke: {
        id: 'sendFile',
        src: 'sendFile',
        input: ({ context, self }) => ({
          url: context.presigned!.url,
          fields: context.presigned!.fields,
          file: context.file,
          progressTo: self,
        }),
        onDone: { target: 'done', actions: assign({ progress: 1 }) },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: {
        'upload.progress': {
          actions: assign({
            // Never backwards, never past the end, whatever the browser reports.
            progress: ({ context, event }) =>
              event.total > 0
                ? Math.min(1, Math.max(context.progress, event.loaded / event.total))
                : context.progress,
          }),
        },
        'upload.cancel': 'cancelled',
      },
    },
    failed: {
      on: { 'upload.retry': 'requesting', 'upload.cancel': 'cancelled' },
    },
    done: { type: 'final' },
    rejected: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

/** Whether an upload has come to rest (the panel reloads the list when all have). */
export const isSettled = (value: unknown): boolean =>
  value === 'done' || value === 'rejected' || value === 'cancelled' || value === 'failed';

export const pathsInput: DocumentUploadInput = {
  file: { name: 'damage.pdf', size: 2048 },
  target: { accountCode: 'acc_1', policyCode: 'pol_1', claimId: 7 },
};

/** Sample events for `npm run paths -- document-upload` and the model-based test. */
export const pathEvents = {
  'xstate.done.actor.readHead': [
    {
      type: 'xstate.done.actor.readHead',
      output: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37]),
    },
    {
      type: 'xstate.done.actor.readHead',
      output: new Uint8Array([0x48, 0x61, 0x6c, 0x6c, 0x6f, 0x0a]),
    },
  ],
  'xstate.error.actor.readHead': [
    { type: 'xstate.error.actor.readHead', error: new Error('NotReadableError') },
  ],
  'upload.progress': [{ type: 'upload.progress', loaded: 1024, total: 2048 }],
  'xstate.done.actor.requestUpload': [
    {
      type: 'xstate.done.actor.requestUpload',
      output: { url: '/storage/documents', fields: { key: '7/claims/clm_1/doc_1.pdf' } },
    },
  ],
  'xstate.error.actor.requestUpload': [
    { type: 'xstate.error.actor.requestUpload', error: { code: 'unavailable' } },
  ],
  'xstate.done.actor.sendFile': [{ type: 'xstate.done.actor.sendFile', output: undefined }],
  'xstate.error.actor.sendFile': [
    { type: 'xstate.error.actor.sendFile', error: { code: 'EntityTooLarge' } },
  ],
} as const;
