import { assign, fromPromise, setup } from 'xstate';

/** A workflow version as the editor shows it: the BPMN and where it stands among the versions. */
export interface LoadedWorkflow {
  workflowId: number;
  code: string;
  name: string;
  versionNumber: number;
  /** The newest version of the workflow when this one was read. */
  latestVersionNumber: number;
  definition: string;
}

/** Which version to read: null for the latest. */
export interface LoadRequest {
  code: string;
  versionNumber: number | null;
}

/** A problem the editor's own check found before sending (`validate`). */
export interface EditorProblem {
  /** A key of the screen's texts (`no_name`, `no_task_type`, ...). */
  code: string;
  /** The element (or field) it is about, for the screen to name and select. */
  element?: string;
  /** The parameter of a service task it is about (`missing_param`). */
  param?: string;
}

/** What `validate` is asked: a new workflow's check includes its code. */
export interface CheckRequest {
  isNew: boolean;
}

/** What `validate` answers: the BPMN to send, or what must be fixed first. */
export type EditorCheck =
  { ok: true; definition: string } | { ok: false; problems: EditorProblem[] };

/** The input of `saveVersion`: the BPMN, on top of which version (null: a new workflow). */
export interface SaveVersionRequest {
  definition: string;
  /** The workflow the version is of; null for a new workflow. */
  workflowId: number | null;
  /** The version the drawing was loaded from; null for a new workflow or "save anyway". */
  baseVersionNumber: number | null;
  isNew: boolean;
}

/**
 * How `saveVersion` rejects, classified by the screen's binding:
 * - `conflict`: 409 `version_conflict`, somebody saved a newer version since this one was loaded;
 * - `refused`: the service's refusal (400 `invalid_bpmn`, `unknown_task_type`, ...) with its
 *   code and English detail, shown translated beside the detail.
 */
export type SaveVersionRefusal =
  | { kind: 'conflict'; latestVersionNumber: number }
  | { kind: 'refused'; code: string; detail: string };

/** Why the last load, check or save did not go through; null when nothing failed. */
export interface EditorFailure {
  code: string;
  detail: string;
  problems: EditorProblem[];
}

export interface WorkflowEditorContext {
  /** The workflow edited; null until a new one is first saved. */
  code: string | null;
  /** The version on screen (null: a new workflow). */
  loaded: LoadedWorkflow | null;
  /** The version to read next (`loading`): null for the latest. */
  wanted: number | null;
  /** The checked BPMN of the save under way. */
  definition: string | null;
  /** "Save anyway" after a conflict: the save builds on no version. */
  force: boolean;
  failure: EditorFailure | null;
  /** After a 409: the version saved meanwhile. */
  conflict: { latestVersionNumber: number } | null;
  /**
   * The newest version the service named in a conflict, kept after "back to my drawing" until a
   * version is read or saved: the drawing still builds on an older one, and its next save meets
   * the same conflict.
   */
  knownLatest: number | null;
  /** The version the last save made, for the screen's "saved" notice. */
  savedVersion: number | null;
}

export type WorkflowEditorEvent =
  /** The user changed the drawing, a property, the name or the code. */
  | { type: 'edit' }
  | { type: 'save' }
  /** After a failed read: read again. */
  | { type: 'load.retry' }
  /** The address names another version (a link, the back button): read it; what is drawn goes. */
  | { type: 'version.open'; versionNumber: number | null }
  /** After a conflict: drop the drawing and read the newer version. */
  | { type: 'conflict.loadLatest' }
  /** After a conflict: save the drawing as the next version all the same. */
  | { type: 'conflict.saveAnyway' }
  /** After a conflict: back to the drawing, nothing saved. */
  | { type: 'conflict.cancel' }
  | { type: 'failure.dismiss' };

export interface WorkflowEditorInput {
  /** The workflow to open, or null for a new one. */
  code: string | null;
  /** The version the address names; null for the latest. */
  versionNumber: number | null;
}

const failureOf = (error: unknown): EditorFailure => {
  const refusal = error as Partial<SaveVersionRefusal> | null | undefined;
  if (refusal?.kind === 'refused') {
    return { code: refusal.code ?? '', detail: refusal.detail ?? '', problems: [] };
  }
  return { code: '', detail: '', problems: [] };
};

/**
 * The workflow editor (spec routes /management/workflow-editor/new and /{code}/{version}):
 * - `opening` decides: a new workflow is drawn at once (`clean`), an existing one is read
 *   (`loading`, then `clean`, or `readOnly` for a version that is not the latest, or `loadFailed`);
 * - `edit` makes the drawing `dirty` (the screen guards leaving it);
 * - `save` checks it (`validating`: the name, every service task's type, every rule task's table;
 *   `failed` with the problems) and sends it (`savingVersion`): a new workflow, or a new version
 *   on top of the one loaded;
 * - the service's refusal (`failed`, its code and detail) keeps the drawing; a newer version saved
 *   since this one was loaded is a `conflict`: read it (`conflict.loadLatest`), save anyway
 *   (`conflict.saveAnyway`) or go back to the drawing (`conflict.cancel`);
 * - a saved version is the new base (`clean`, `savedVersion`).
 *
 * Provide: actors `loadWorkflow` (input {@link LoadRequest}, answers {@link LoadedWorkflow}),
 * `validate` (input {@link CheckRequest}, answers {@link EditorCheck}) and `saveVersion` (input {@link SaveVersionRequest},
 * answers the saved {@link LoadedWorkflow}, rejects with a {@link SaveVersionRefusal}).
 */
export const workflowEditorMachine = setup({
  types: {
    context: {} as WorkflowEditorContext,
    events: {} as WorkflowEditorEvent,
    input: {} as WorkflowEditorInput,
  },
  actors: {
    loadWorkflow: fromPromise<LoadedWorkflow, LoadRequest>(async () => {
      throw new Error('workflowEditorMachine: provide the loadWorkflow actor');
    }),
    validate: fromPromise<EditorCheck, CheckRequest>(async () => {
      throw new Error('workflowEditorMachine: provide the validate actor');
    }),
    saveVersion: fromPromise<LoadedWorkflow, SaveVersionRequest>(async () => {
      throw new Error('workflowEditorMachine: provide the saveVersion actor');
    }),
  },
  guards: {
    hasWorkflow: ({ context }) => context.code !== null,
    isNew: ({ context }) => context.loaded === null,
    isLatest: (_, params: { loaded: LoadedWorkflow }) =>
      params.loaded.versionNumber >= params.loaded.latestVersionNumber,
    isValid: (_, params: { check: EditorCheck }) => params.check.ok,
    isConflict: (_, params: { error: unknown }) =>
      (params.error as { kind?: unknown } | null | undefined)?.kind === 'conflict',
  },
}).createMachine({
  id: 'workflowEditor',
  context: ({ input }) => ({
    code: input.code,
    loaded: null,
    wanted: input.versionNumber,
    definition: null,
    force: false,
    failure: null,
    conflict: null,
    knownLatest: null,
    savedVersion: null,
  }),
  initial: 'opening',
  states: {
    opening: {
      always: [{ guard: 'hasWorkflow', target: 'loading' }, { target: 'clean' }],
    },
    loading: {
      invoke: {
        id: 'loadWorkflow',
        src: 'loadWorkflow',
        input: ({ context }) => ({ code: context.code!, versionNumber: context.wanted }),
        onDone: [
          {
            guard: { type: 'isLatest', params: ({ event }) => ({ loaded: event.output }) },
            target: 'clean',
            actions: assign({
              loaded: ({ event }) => event.output,
              failure: null,
              conflict: null,
              knownLatest: null,
            }),
          },
          {
            target: 'readOnly',
            actions: assign({
              loaded: ({ event }) => event.output,
              failure: null,
              conflict: null,
              knownLatest: null,
            }),
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: assign({ failure: ({ event }) => failureOf(event.error) }),
        },
      },
    },
    loadFailed: {
      on: { 'load.retry': { target: 'loading', actions: assign({ failure: null }) } },
    },
    // An older version: shown, not edited (the screen links to the latest).
    readOnly: {
      on: {
        'version.open': {
          target: 'loading',
          actions: assign({ wanted: ({ event }) => event.versionNumber }),
        },
      },
    },
    // What is drawn is what was loaded or saved last (or a new workflow's empty start).
    clean: {
      on: {
        edit: { target: 'dirty', actions: assign({ savedVersion: null }) },
        // A new workflow may be saved as it starts; an unchanged version is not saved twice.
        save: { guard: 'isNew', target: 'validating' },
        'version.open': {
          guard: 'hasWorkflow',
          target: 'loading',
          actions: assign({ wanted: ({ event }) => event.versionNumber }),
        },
      },
    },
    dirty: {
      on: {
        save: 'validating',
        'version.open': {
          guard: 'hasWorkflow',
          target: 'loading',
          actions: assign({ wanted: ({ event }) => event.versionNumber }),
        },
      },
    },
    validating: {
      invoke: {
        id: 'validate',
        src: 'validate',
        input: ({ context }) => ({ isNew: context.loaded === null }),
        onDone: [
          {
            guard: { type: 'isValid', params: ({ event }) => ({ check: event.output }) },
            target: 'savingVersion',
            actions: assign({
              failure: null,
              force: false,
              definition: ({ event }) => (event.output.ok ? event.output.definition : null),
            }),
          },
          {
            target: 'failed',
            actions: assign({
              failure: ({ event }) => ({
                code: 'invalid',
                detail: '',
                problems: event.output.ok ? [] : event.output.problems,
              }),
            }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ failure: ({ event }) => failureOf(event.error) }),
        },
      },
    },
    savingVersion: {
      invoke: {
        id: 'saveVersion',
        src: 'saveVersion',
        input: ({ context }) => ({
          definition: context.definition ?? '',
          workflowId: context.loaded?.workflowId ?? null,
          baseVersionNumber: context.force ? null : (context.loaded?.versionNumber ?? null),
          isNew: context.loaded === null,
        }),
        onDone: {
          target: 'clean',
          actions: assign(({ event }) => ({
            code: event.output.code,
            loaded: event.output,
            wanted: event.output.versionNumber,
            definition: null,
            force: false,
            failure: null,
            conflict: null,
            knownLatest: null,
            savedVersion: event.output.versionNumber,
          })),
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: assign(({ event }) => {
              const latest = (event.error as { latestVersionNumber: number }).latestVersionNumber;
              return { conflict: { latestVersionNumber: latest }, knownLatest: latest };
            }),
          },
          {
            target: 'failed',
            actions: assign({
              definition: null,
              failure: ({ event }) => failureOf(event.error),
            }),
          },
        ],
      },
    },
    // The check or the service refused; the drawing stays as it was.
    failed: {
      on: {
        edit: 'dirty',
        save: 'validating',
        'failure.dismiss': { target: 'dirty', actions: assign({ failure: null }) },
      },
      exit: assign({ failure: null }),
    },
    conflict: {
      on: {
        'conflict.loadLatest': {
          target: 'loading',
          actions: assign({ wanted: null, conflict: null, definition: null }),
        },
        // The drawing checked before the conflict is sent again, on no base.
        'conflict.saveAnyway': {
          target: 'savingVersion',
          actions: assign({ conflict: null, force: true }),
        },
        'conflict.cancel': {
          target: 'dirty',
          actions: assign({ conflict: null, definition: null }),
        },
        // Drawing on is going back to the drawing: "save anyway" would not send the new change.
        edit: {
          target: 'dirty',
          actions: assign({ conflict: null, definition: null }),
        },
      },
    },
  },
});

/** Whether leaving would lose what is drawn: every state after an edit, until it is saved. */
export const hasUnsavedChanges = (state: { value: unknown }): boolean =>
  ['dirty', 'validating', 'savingVersion', 'failed', 'conflict'].includes(String(state.value));

const loadedV2: LoadedWorkflow = {
  workflowId: 7,
  code: 'claim-intake',
  name: 'Claim intake',
  versionNumber: 2,
  latestVersionNumber: 2,
  definition: '<definitions/>',
};

/**
 * Sample input and events for `npm run paths -- workflow-editor` and the tests: an existing
 * workflow, so that every state is reachable from it.
 */
export const pathsInput: WorkflowEditorInput = { code: 'claim-intake', versionNumber: null };

export const pathEvents = {
  'xstate.done.actor.loadWorkflow': [
    { type: 'xstate.done.actor.loadWorkflow', output: loadedV2 },
    {
      type: 'xstate.done.actor.loadWorkflow',
      output: { ...loadedV2, versionNumber: 1 },
    },
  ],
  'xstate.error.actor.loadWorkflow': [
    {
      type: 'xstate.error.actor.loadWorkflow',
      error: { kind: 'refused', code: 'not_found', detail: "Can't load workFlowCode" },
    },
  ],
  edit: [{ type: 'edit' }],
  'xstate.done.actor.validate': [
    { type: 'xstate.done.actor.validate', output: { ok: true, definition: '<definitions/>' } },
    {
      type: 'xstate.done.actor.validate',
      output: { ok: false, problems: [{ code: 'no_task_type', element: 'Task_1' }] },
    },
  ],
  'xstate.done.actor.saveVersion': [
    {
      type: 'xstate.done.actor.saveVersion',
      output: { ...loadedV2, versionNumber: 3, latestVersionNumber: 3 },
    },
  ],
  'xstate.error.actor.saveVersion': [
    {
      type: 'xstate.error.actor.saveVersion',
      error: { kind: 'conflict', latestVersionNumber: 3 },
    },
    {
      type: 'xstate.error.actor.saveVersion',
      error: {
        kind: 'refused',
        code: 'unknown_task_type',
        detail: 'service task Task_1: unknown task type "fax.send"',
      },
    },
  ],
  'version.open': [{ type: 'version.open', versionNumber: 1 }],
} as const;
