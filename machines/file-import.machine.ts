import { assign, fromPromise, setup } from 'xstate';

/** One problem the service found in a file, at its line (`docs/contracts.md`, file checks). */
export interface ImportProblem {
  line: number;
  code: string;
  message?: string;
}

/**
 * How `checkFile` and `saveFile` reject, classified by the screen's binding: the file's problems
 * (400 `invalid_file`), or any other failure with its error code.
 */
export type ImportRefusal =
  { kind: 'invalid'; problems: ImportProblem[] } | { kind: 'failed'; code: string };

export interface FileImportContext<F = unknown, S = unknown> {
  name: string;
  /** The chosen file; null until one is chosen. */
  file: F | null;
  /** What the service's check found: the table it would save. */
  summary: S | null;
  problems: ImportProblem[];
  /** `choose_file`, or the code of a failed call. */
  error: string | null;
}

export type FileImportEvent<F = unknown> =
  | { type: 'name.change'; name: string }
  | { type: 'file.choose'; file: F | null }
  /** Check the file on the server (the screen checked the name first). */
  | { type: 'import.check' }
  | { type: 'import.save' };

/** The input of `checkFile` and `saveFile`. */
export interface ImportRequest<F = unknown> {
  name: string;
  file: F;
}

function refusalOf(error: unknown): ImportRefusal {
  const refusal = error as { kind?: unknown; problems?: unknown; code?: unknown } | null;
  if (refusal?.kind === 'invalid' && Array.isArray(refusal.problems)) {
    return { kind: 'invalid', problems: refusal.problems as ImportProblem[] };
  }
  const code = refusal?.code;
  return { kind: 'failed', code: typeof code === 'string' && code !== '' ? code : 'unavailable' };
}

/** The problems of a refusal; empty for a failure that is not about the file. */
const problemsOf = (error: unknown) => {
  const refusal = refusalOf(error);
  return refusal.kind === 'invalid' ? refusal.problems : [];
};

const errorOf = (error: unknown) => {
  const refusal = refusalOf(error);
  return refusal.kind === 'failed' ? refusal.code : null;
};

/**
 * Importing a file the service checks before it saves it (a product's factor table, spec section
 * 5: "validated by a server call before saving"): choose a name and a file; `import.check` sends
 * them to the service's check (`checkFile`), which answers the table it found (`valid`) or every
 * problem with its line (`invalid`); only a checked file can be saved (`import.save`, `saveFile`).
 * Another name or file goes back to `choosing`: it needs a new check. Saving can still be refused
 * (the file changed meanwhile, a name taken): `invalid` or `failed` again.
 *
 * Provide: actors `checkFile` (input {@link ImportRequest}, answers the summary) and `saveFile`
 * (input {@link ImportRequest}, answers the saved record), both rejecting with an
 * {@link ImportRefusal}; action `notifySaved` (params: the saved record).
 */
export const fileImportMachine = setup({
  types: {
    context: {} as FileImportContext,
    events: {} as FileImportEvent,
  },
  actors: {
    checkFile: fromPromise<unknown, ImportRequest>(async () => {
      throw new Error('fileImportMachine: provide the checkFile actor');
    }),
    saveFile: fromPromise<unknown, ImportRequest>(async () => {
      throw new Error('fileImportMachine: provide the saveFile actor');
    }),
  },
  actions: {
    notifySaved: (_, _params: { saved: unknown }) => {},
  },
  guards: {
    hasFile: ({ context }) => context.file !== null,
  },
}).createMachine({
  id: 'fileImport',
  context: { name: '', file: null, summary: null, problems: [], error: null },
  initial: 'form',
  states: {
    // Where the user can type and choose; a new name or file needs a new check.
    form: {
      initial: 'choosing',
      on: {
        'name.change': {
          target: '.choosing',
          actions: assign({
            name: ({ event }) => event.name,
            summary: null,
            problems: [],
            error: null,
          }),
        },
        'file.choose': {
          target: '.choosing',
          actions: assign({
            file: ({ event }) => event.file,
            summary: null,
            problems: [],
            error: null,
          }),
        },
      },
      states: {
        choosing: {
          on: {
            'import.check': [
              { guard: 'hasFile', target: '#fileImport.checking' },
              { actions: assign({ error: 'choose_file' }) },
            ],
          },
        },
        valid: { on: { 'import.save': '#fileImport.saving' } },
        invalid: {},
        // The same file again: the service may answer this time.
        failed: { on: { 'import.check': '#fileImport.checking' } },
      },
    },
    checking: {
      invoke: {
        id: 'checkFile',
        src: 'checkFile',
        input: ({ context }) => ({ name: context.name, file: context.file }),
        onDone: { target: 'form.valid', actions: assign({ summary: ({ event }) => event.output }) },
        onError: [
          {
            guard: ({ event }) => refusalOf(event.error).kind === 'invalid',
            target: 'form.invalid',
            actions: assign({ problems: ({ event }) => problemsOf(event.error) }),
          },
          {
            target: 'form.failed',
            actions: assign({ error: ({ event }) => errorOf(event.error) }),
          },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'saveFile',
        src: 'saveFile',
        input: ({ context }) => ({ name: context.name, file: context.file }),
        onDone: {
          target: 'saved',
          actions: { type: 'notifySaved', params: ({ event }) => ({ saved: event.output }) },
        },
        onError: [
          {
            guard: ({ event }) => refusalOf(event.error).kind === 'invalid',
            target: 'form.invalid',
            actions: assign({ summary: null, problems: ({ event }) => problemsOf(event.error) }),
          },
          {
            target: 'form.failed',
            actions: assign({ summary: null, error: ({ event }) => errorOf(event.error) }),
          },
        ],
      },
    },
    saved: { type: 'final' },
  },
});

/** Sample events for `npm run paths -- file-import` and the tests. */
export const pathEvents = {
  'name.change': [{ type: 'name.change', name: 'zone_factor' }],
  'file.choose': [{ type: 'file.choose', file: { name: 'zones.csv' } }],
  'xstate.done.actor.checkFile': [
    {
      type: 'xstate.done.actor.checkFile',
      output: { name: 'zone_factor', rowCount: 3, keyColumns: ['zone'] },
    },
  ],
  'xstate.error.actor.checkFile': [
    {
      type: 'xstate.error.actor.checkFile',
      error: { kind: 'invalid', problems: [{ line: 3, code: 'not_a_number' }] },
    },
    {
      type: 'xstate.error.actor.checkFile',
      error: { kind: 'failed', code: 'upstream_unavailable' },
    },
  ],
  'xstate.done.actor.saveFile': [
    { type: 'xstate.done.actor.saveFile', output: { id: 5, name: 'zone_factor' } },
  ],
  'xstate.error.actor.saveFile': [
    { type: 'xstate.error.actor.saveFile', error: { kind: 'failed', code: 'name_taken' } },
  ],
} as const;
