import { assign, fromPromise, setup, spawnChild } from 'xstate';

/** A problem of a refused source as the service names it (docs/contracts.md, issue 19). */
export interface TemplateIssue {
  path: string;
  code: string;
  line?: number;
  column?: number;
  name?: string;
}

/** Why a save or preview did not go through: the source's problems, or a failure to show. */
export type TemplateRefusal =
  /** `on`: the preview's refusal (nothing was to be saved); a save's otherwise. */
  { kind: 'invalid'; issues: TemplateIssue[]; on?: 'preview' } | { kind: 'failed'; code: string };

/** An e-mail's preview: the subject and both parts rendered. */
export interface MailPreview {
  subject: string;
  html: string;
  text: string;
}

/** A document's preview (issue 19): the printed PDF as a `blob:` URL that its page revokes. */
export interface PdfPreview {
  pdfUrl: string;
}

/** The same flow serves the e-mail and the document template editors: only the preview differs. */
export type RenderedPreview = MailPreview | PdfPreview;

/** A test e-mail to oneself (e-mail templates only): on its way, sent to an address, or not. */
export type TestMail = { kind: 'sending' } | { kind: 'sent'; to: string } | { kind: 'failed' };

/**
 * What the editor holds. The template and its sources are the page's types (an e-mail's bodies
 * per language, a document's one body): the machine keeps them and compares, it never reads them.
 */
export interface TemplateEditorContext {
  /** The template as last saved (the heading, the version line). */
  saved: unknown;
  /** The saved template's sources as the editor shows them: what the draft is compared with. */
  baseline: unknown;
  /** The sources as edited, saved or not. */
  draft: unknown;
  preview: RenderedPreview | null;
  refusal: TemplateRefusal | null;
  /** The version the last save produced; null before one. */
  savedVersion: number | null;
  testMail: TestMail | null;
}

export interface TemplateEditorInput {
  template: unknown;
  changes: unknown;
}

/** A save's answer: the new version, the template as stored and its sources as the editor shows them. */
export interface SavedTemplate {
  version: number;
  template: unknown;
  changes: unknown;
}

/** `request`: what the provided actor sends (the page builds it from the draft). */
export type TemplateEditorEvent =
  | { type: 'edit'; draft: unknown }
  | { type: 'preview'; request: unknown }
  | { type: 'preview.close' }
  | { type: 'save'; request: unknown }
  | { type: 'delete' }
  | { type: 'testMail.send'; request: unknown };

/** A thrown refusal as kept; anything unknown is a failure without a code. */
const refusalOf = (error: unknown): TemplateRefusal =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as TemplateRefusal)
    : { kind: 'failed', code: 'unknown' };

/** Unsaved changes: the draft is not the saved template's sources (compared as the service keeps them, as JSON). */
export const isDirty = (context: Pick<TemplateEditorContext, 'draft' | 'baseline'>): boolean =>
  JSON.stringify(context.draft) !== JSON.stringify(context.baseline);

const requestOf = ({ event }: { event: TemplateEditorEvent }) =>
  'request' in event ? event.request : undefined;

/**
 * The e-mail and document template editors' flow (issue 19): `editing` (the draft is the
 * context's, each keystroke an `edit`), a `previewing` or `saving` call on the current sources,
 * `refused` with the problems the service named (each shown at its field), `saved` with the new
 * version, and `deleting` (the confirm dialog, then the call) into `deleted`, where nothing is left
 * to guard and the page opens the list. Editing after a refusal keeps the problems in view until
 * the next save or preview answers: the author fixes them one by one. Typing goes on while a call
 * runs (the draft is kept; the buttons wait). A test e-mail runs beside all this (a spawned call
 * whose outcome is `testMail`): it sends the saved template, not the draft.
 *
 * Provide: actors `renderPreview` (input: the event's request, output RenderedPreview),
 * `saveTemplate` (output SavedTemplate), each throwing a TemplateRefusal, `deleteTemplate` (asks,
 * then deletes: true when deleted, false when the user kept the template) and `sendTestMail`
 * (output `{ sentTo }`); actions `notifySaved`, `notifyDeleted`.
 */
export const templateEditorMachine = setup({
  types: {
    context: {} as TemplateEditorContext,
    events: {} as TemplateEditorEvent,
    input: {} as TemplateEditorInput,
  },
  actors: {
    renderPreview: fromPromise<RenderedPreview, unknown>(async () => {
      throw new Error('templateEditorMachine: provide renderPreview');
    }),
    saveTemplate: fromPromise<SavedTemplate, unknown>(async () => {
      throw new Error('templateEditorMachine: provide saveTemplate');
    }),
    deleteTemplate: fromPromise<boolean>(async () => {
      throw new Error('templateEditorMachine: provide deleteTemplate');
    }),
    sendTestMail: fromPromise<{ sentTo: string }, unknown>(async () => {
      throw new Error('templateEditorMachine: provide sendTestMail');
    }),
  },
  actions: {
    notifySaved: () => {},
    notifyDeleted: () => {},
  },
  guards: {
    wasDeleted: ({ event }) => 'output' in event && event.output === true,
  },
}).createMachine({
  id: 'templateEditor',
  initial: 'editing',
  context: ({ input }) => ({
    saved: input.template,
    baseline: input.changes,
    draft: input.changes,
    preview: null,
    refusal: null,
    savedVersion: null,
    testMail: null,
  }),
  on: {
    'preview.close': { actions: assign({ preview: null }) },
    // The draft follows every keystroke, whatever runs; the states below say what it changes.
    edit: { actions: assign({ draft: ({ event }) => event.draft }) },
    'testMail.send': {
      guard: ({ context }) => context.testMail?.kind !== 'sending',
      actions: [
        assign({ testMail: { kind: 'sending' } }),
        spawnChild('sendTestMail', { id: 'testMail', input: requestOf }),
      ],
    },
    'xstate.done.actor.testMail': {
      actions: assign({ testMail: ({ event }) => ({ kind: 'sent', to: event.output.sentTo }) }),
    },
    'xstate.error.actor.testMail': { actions: assign({ testMail: { kind: 'failed' } }) },
  },
  states: {
    editing: {
      on: {
        preview: 'previewing',
        save: 'saving',
        delete: 'deleting',
      },
    },
    previewing: {
      invoke: {
        id: 'preview',
        src: 'renderPreview',
        input: requestOf,
        onDone: {
          target: 'editing',
          actions: assign({ preview: ({ event }) => event.output, refusal: null }),
        },
        onError: {
          target: 'refused',
          actions: assign({ refusal: ({ event }) => refusalOf(event.error) }),
        },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'saveTemplate',
        input: requestOf,
        onDone: {
          target: 'saved',
          actions: [
            assign({
              saved: ({ event }) => event.output.template,
              baseline: ({ event }) => event.output.changes,
              savedVersion: ({ event }) => event.output.version,
              refusal: null,
            }),
            'notifySaved',
          ],
        },
        onError: {
          target: 'refused',
          actions: assign({ refusal: ({ event }) => refusalOf(event.error) }),
        },
      },
    },
    refused: {
      on: {
        edit: { target: 'editing', actions: assign({ draft: ({ event }) => event.draft }) },
        preview: 'previewing',
        save: 'saving',
        delete: 'deleting',
      },
    },
    // Nothing changed since the save: saving again waits for an edit (the page's Save is off).
    saved: {
      on: {
        edit: { target: 'editing', actions: assign({ draft: ({ event }) => event.draft }) },
        preview: 'previewing',
        delete: 'deleting',
      },
    },
    // The confirm dialog shows a failed call itself and offers to try again: the actor settles
    // only when the template is gone or the user kept it.
    deleting: {
      invoke: {
        id: 'delete',
        src: 'deleteTemplate',
        onDone: [
          { guard: 'wasDeleted', target: 'deleted', actions: 'notifyDeleted' },
          { target: 'editing' },
        ],
        onError: 'editing',
      },
    },
    deleted: { type: 'final' },
  },
});

/** Events with the payloads the generated paths use (`npm run paths`, the model spec). */
export const pathEvents = {
  edit: [{ type: 'edit', draft: null }],
  preview: [{ type: 'preview', request: null }],
  save: [{ type: 'save', request: null }],
  'testMail.send': [{ type: 'testMail.send', request: null }],
  'xstate.done.actor.preview': [
    { type: 'xstate.done.actor.preview', output: { subject: 'S', html: '', text: '' } },
  ],
  'xstate.error.actor.preview': [
    { type: 'xstate.error.actor.preview', error: { kind: 'invalid', issues: [] } },
  ],
  'xstate.done.actor.save': [
    { type: 'xstate.done.actor.save', output: { version: 2, template: null, changes: null } },
  ],
  'xstate.error.actor.save': [
    { type: 'xstate.error.actor.save', error: { kind: 'invalid', issues: [] } },
  ],
  'xstate.done.actor.delete': [
    { type: 'xstate.done.actor.delete', output: true },
    { type: 'xstate.done.actor.delete', output: false },
  ],
  'xstate.error.actor.delete': [{ type: 'xstate.error.actor.delete', error: null }],
  'xstate.done.actor.testMail': [{ type: 'xstate.done.actor.testMail', output: { sentTo: 'a@b' } }],
  'xstate.error.actor.testMail': [{ type: 'xstate.error.actor.testMail', error: null }],
} as const;
