import { assign, fromPromise, setup } from 'xstate';
import { failureCode } from './failure-code.ts';
import { MAX_DOCUMENT_BYTES } from '#common/claim-documents.ts';
import { isDocxName, type DocxEntityType } from '#common/contracts/docx-template.ts';

/** The file as the dialog hands it over (a browser File has both). */
export interface DocxFile {
  name: string;
  size: number;
}

export interface DocxUploadRequest {
  name: string;
  entityType: DocxEntityType;
  file: DocxFile;
}

/**
 * A problem of the file as the document service names it: its code (`unknown_tag`,
 * `unclosed_tag`, …), the tag, the paragraph (`line`) and the character in it (`column`).
 */
export interface DocxProblem {
  path: string;
  code: string;
  name?: string;
  line?: number;
  column?: number;
}

/** What the check of the arrived file said: ready, or refused with its problems. */
export type DocxVerdict = { ok: true } | { ok: false; problems: DocxProblem[] };

/** Why the form does not go: a field's rule, checked here before anything is asked. */
export type DocxFieldRefusal = 'name' | 'entityType' | 'fileMissing' | 'fileType' | 'fileSize';

export interface DocxUploadContext {
  request: DocxUploadRequest | null;
  /** The new template's code, once the service wrote it. */
  code: string | null;
  fieldRefusals: DocxFieldRefusal[];
  problems: DocxProblem[];
  /** Why the last try failed: the service's error code, or 'unavailable'. */
  failure: string | null;
}

export type DocxUploadEvent =
  | { type: 'upload.submit'; request: DocxUploadRequest }
  | { type: 'upload.edit' }
  | { type: 'upload.cancel' };

const fieldRefusalsOf = (r: DocxUploadRequest): DocxFieldRefusal[] => [
  ...(r.name.trim() ? [] : (['name'] as const)),
  ...(r.entityType ? [] : (['entityType'] as const)),
  ...(!r.file.name
    ? (['fileMissing'] as const)
    : !isDocxName(r.file.name)
      ? (['fileType'] as const)
      : r.file.size > MAX_DOCUMENT_BYTES
        ? (['fileSize'] as const)
        : []),
];

/**
 * The upload of a docx template (issue 19, decision 019). `idle`: the form; a submit whose name,
 * record kind or file breaks a rule stays there with the fields named (nothing is asked). Then
 * `uploading`: the document service writes the template and signs its upload, the file goes to
 * the storage; `validating`: the service checks the arrived file (docxtemplater) and says ready
 * (`done`) or refused with each problem placed (`refused`, the form kept to choose another file:
 * `upload.edit`). A failure of either call is `failed`, from which the form can be sent again.
 * Cancelling ends it from the form or while it runs (the calls get an abort signal).
 *
 * Provide: `uploadTemplate` (input {@link DocxUploadRequest}; output the new code; rejects with
 * the service's or the storage's error) and `checkTemplate` (input the code; output a
 * {@link DocxVerdict}).
 */
export const docxUploadMachine = setup({
  types: {
    context: {} as DocxUploadContext,
    events: {} as DocxUploadEvent,
  },
  actors: {
    uploadTemplate: fromPromise<string, DocxUploadRequest>(async () => {
      throw new Error('docxUploadMachine: provide the uploadTemplate actor');
    }),
    checkTemplate: fromPromise<DocxVerdict, string>(async () => {
      throw new Error('docxUploadMachine: provide the checkTemplate actor');
    }),
  },
  guards: {
    breaksFieldRule: (_, params: { request: DocxUploadRequest }) =>
      fieldRefusalsOf(params.request).length > 0,
    isReady: (_, params: { verdict: DocxVerdict }) => params.verdict.ok,
  },
  actions: {
    refuseFields: assign((_, params: { request: DocxUploadRequest }) => ({
      fieldRefusals: fieldRefusalsOf(params.request),
    })),
    keepRequest: assign((_, params: { request: DocxUploadRequest }) => ({
      request: params.request,
      fieldRefusals: [],
      problems: [],
      failure: null,
      code: null,
    })),
    keepProblems: assign((_, params: { verdict: DocxVerdict }) => ({
      problems: params.verdict.ok ? [] : params.verdict.problems,
    })),
    fail: assign((_, params: { error: unknown }) => ({ failure: failureCode(params.error) })),
  },
}).createMachine({
  id: 'docxUpload',
  context: { request: null, code: null, fieldRefusals: [], problems: [], failure: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'upload.submit': [
          {
            guard: {
              type: 'breaksFieldRule',
              params: ({ event }) => ({ request: event.request }),
            },
            actions: { type: 'refuseFields', params: ({ event }) => ({ request: event.request }) },
          },
          {
            target: 'uploading',
            actions: { type: 'keepRequest', params: ({ event }) => ({ request: event.request }) },
          },
        ],
        'upload.cancel': 'cancelled',
      },
    },
    uploading: {
      invoke: {
        id: 'uploadTemplate',
        src: 'uploadTemplate',
        input: ({ context }) => context.request!,
        onDone: { target: 'validating', actions: assign({ code: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: { 'upload.cancel': 'cancelled' },
    },
    validating: {
      invoke: {
        id: 'checkTemplate',
        src: 'checkTemplate',
        input: ({ context }) => context.code!,
        onDone: [
          {
            guard: { type: 'isReady', params: ({ event }) => ({ verdict: event.output }) },
            target: 'done',
          },
          {
            target: 'refused',
            actions: { type: 'keepProblems', params: ({ event }) => ({ verdict: event.output }) },
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: { 'upload.cancel': 'cancelled' },
    },
    refused: {
      on: { 'upload.edit': 'idle', 'upload.cancel': 'cancelled' },
    },
    failed: {
      on: { 'upload.edit': 'idle', 'upload.cancel': 'cancelled' },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

const sampleRequest: DocxUploadRequest = {
  name: 'Bestätigung',
  entityType: 'policy',
  file: { name: 'letter.docx', size: 4096 },
};

/** Sample events for `npm run paths -- docx-upload` and the model-based test. */
export const pathEvents = {
  'upload.submit': [
    { type: 'upload.submit', request: sampleRequest },
    {
      type: 'upload.submit',
      request: { ...sampleRequest, file: { name: 'letter.pdf', size: 10 } },
    },
  ],
  'xstate.done.actor.uploadTemplate': [
    { type: 'xstate.done.actor.uploadTemplate', output: 'dxt_1' },
  ],
  'xstate.done.actor.checkTemplate': [
    { type: 'xstate.done.actor.checkTemplate', output: { ok: true } },
    {
      type: 'xstate.done.actor.checkTemplate',
      output: {
        ok: false,
        problems: [{ path: 'file', code: 'unknown_tag', name: 'policy.nr', line: 2, column: 9 }],
      },
    },
  ],
  'xstate.error.actor.uploadTemplate': [
    { type: 'xstate.error.actor.uploadTemplate', error: { code: 'InvalidContent' } },
  ],
  'xstate.error.actor.checkTemplate': [
    { type: 'xstate.error.actor.checkTemplate', error: { code: 'unavailable' } },
  ],
} as const;
