import { assign, fromPromise, setup } from 'xstate';

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

export interface EmailTemplateEditorContext {
  preview: RenderedPreview | null;
  refusal: TemplateRefusal | null;
  /** The version the last save produced; null before one. */
  savedVersion: number | null;
}

/** `request` is the page's current (unsaved) sources, as the provided actor needs them. */
export type EmailTemplateEditorEvent =
  | { type: 'edit' }
  | { type: 'preview'; request: unknown }
  | { type: 'preview.close' }
  | { type: 'save'; request: unknown };

/** A thrown refusal as kept; anything unknown is a failure without a code. */
const refusalOf = (error: unknown): TemplateRefusal =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as TemplateRefusal)
    : { kind: 'failed', code: 'unknown' };

/**
 * The e-mail and document template editors' flow (issue 19): `editing` (the sources are the page's), a
 * `previewing` or `saving` call on the current sources, `refused` with the problems the service
 * named (each shown at its field), `saved` with the new version. Editing after a refusal keeps
 * the problems in view until the next save or preview answers: the author fixes them one by one.
 *
 * Provide: actors `renderPreview` (input: the event's request, output RenderedPreview) and
 * `saveTemplate` (output `{ version }`), each throwing a TemplateRefusal; action `notifySaved`.
 */
export const emailTemplateEditorMachine = setup({
  types: {
    context: {} as EmailTemplateEditorContext,
    events: {} as EmailTemplateEditorEvent,
  },
  actors: {
    renderPreview: fromPromise<RenderedPreview, unknown>(async () => {
      throw new Error('emailTemplateEditorMachine: provide renderPreview');
    }),
    saveTemplate: fromPromise<{ version: number }, unknown>(async () => {
      throw new Error('emailTemplateEditorMachine: provide saveTemplate');
    }),
  },
  actions: {
    notifySaved: () => {},
  },
}).createMachine({
  id: 'emailTemplateEditor',
  initial: 'editing',
  context: { preview: null, refusal: null, savedVersion: null },
  on: {
    'preview.close': { actions: assign({ preview: null }) },
  },
  states: {
    editing: {
      on: {
        preview: 'previewing',
        save: 'saving',
      },
    },
    previewing: {
      invoke: {
        id: 'preview',
        src: 'renderPreview',
        input: ({ event }: { event: EmailTemplateEditorEvent }) =>
          'request' in event ? event.request : undefined,
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
        input: ({ event }: { event: EmailTemplateEditorEvent }) =>
          'request' in event ? event.request : undefined,
        onDone: {
          target: 'saved',
          actions: [
            assign({ savedVersion: ({ event }) => event.output.version, refusal: null }),
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
      on: { edit: 'editing', preview: 'previewing', save: 'saving' },
    },
    // Nothing changed since the save: saving again waits for an edit (the page's Save is off).
    saved: {
      on: { edit: 'editing', preview: 'previewing' },
    },
  },
});

/** Events with the payloads the generated paths use (`npm run paths`, the model spec). */
export const pathEvents = {
  preview: [{ type: 'preview', request: null }],
  save: [{ type: 'save', request: null }],
  'xstate.done.actor.preview': [
    { type: 'xstate.done.actor.preview', output: { subject: 'S', html: '', text: '' } },
  ],
  'xstate.error.actor.preview': [
    { type: 'xstate.error.actor.preview', error: { kind: 'invalid', issues: [] } },
  ],
  'xstate.done.actor.save': [{ type: 'xstate.done.actor.save', output: { version: 2 } }],
  'xstate.error.actor.save': [
    { type: 'xstate.error.actor.save', error: { kind: 'invalid', issues: [] } },
  ],
} as const;
