import { assign, fromPromise, setup } from 'xstate';

/** A workspace as far as switching cares (`GET /bff/accounts/{i}/workspaces` has more). */
export type SwitchableWorkspace = { slug: string; isDisabled: boolean };

export type WorkspaceSwitchInput = {
  /** The workspaces of the account's tenant group; can be updated later (`workspaces.loaded`). */
  workspaces?: readonly SwitchableWorkspace[];
};

export type WorkspaceSwitchContext = {
  workspaces: readonly SwitchableWorkspace[];
  targetWorkspace: string | null;
};

export type WorkspaceSwitchEvent =
  | { type: 'workspace.switch'; targetWorkspace: string }
  | { type: 'workspaces.loaded'; workspaces: readonly SwitchableWorkspace[] };

/**
 * Workspace switch from the profile menu: spinner, switch call, store the new account data,
 * reload the page. As the spec says, a failed switch is logged and reloads the page too: the
 * reload shows whichever workspace the session really holds, so no half-switched screen remains.
 *
 * A disabled or unknown workspace is refused in `idle` (`state.can(...)` is false, the menu greys
 * it out). `reloading` is final: the page is going away.
 *
 * Provide: actor `switchWorkspace` (input `{ targetWorkspace }`, resolves with the BFF's answer,
 * e.g. `{ account }`), actions `storeAccount` (params `{ result }`), `logError` (params
 * `{ error }`) and `reloadPage`.
 */
export const workspaceSwitchMachine = setup({
  types: {
    input: {} as WorkspaceSwitchInput,
    context: {} as WorkspaceSwitchContext,
    events: {} as WorkspaceSwitchEvent,
  },
  actors: {
    switchWorkspace: fromPromise<unknown, { targetWorkspace: string }>(async () => {
      throw new Error('workspaceSwitchMachine: provide the switchWorkspace actor');
    }),
  },
  actions: {
    storeAccount: (_, _params: { result: unknown }) => {},
    logError: (_, _params: { error: unknown }) => {},
    reloadPage: () => {},
  },
  guards: {
    isEnabledWorkspace: ({ context, event }) =>
      event.type === 'workspace.switch' &&
      context.workspaces.some(
        (workspace) => workspace.slug === event.targetWorkspace && !workspace.isDisabled,
      ),
  },
}).createMachine({
  id: 'workspaceSwitch',
  context: ({ input }) => ({ workspaces: input.workspaces ?? [], targetWorkspace: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'workspace.switch': {
          guard: 'isEnabledWorkspace',
          target: 'switching',
          actions: assign({ targetWorkspace: ({ event }) => event.targetWorkspace }),
        },
        'workspaces.loaded': {
          actions: assign({ workspaces: ({ event }) => event.workspaces }),
        },
      },
    },
    switching: {
      invoke: {
        id: 'switchWorkspace',
        src: 'switchWorkspace',
        input: ({ context }) => ({ targetWorkspace: context.targetWorkspace ?? '' }),
        onDone: {
          target: 'reloading',
          actions: { type: 'storeAccount', params: ({ event }) => ({ result: event.output }) },
        },
        onError: {
          target: 'reloading',
          actions: { type: 'logError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    reloading: {
      type: 'final',
      entry: 'reloadPage',
    },
  },
});

const demoWorkspaces: readonly SwitchableWorkspace[] = [
  { slug: 'demo', isDisabled: false },
  { slug: 'demo-sandbox', isDisabled: false },
  { slug: 'demo-archive', isDisabled: true },
];

/** Sample input for `npm run paths -- workspace-switch`: the menu before the list has loaded. */
export const pathsInput: WorkspaceSwitchInput = { workspaces: [] };

/** Sample events for the paths script and the model-based test. */
export const pathEvents = {
  'workspace.switch': [
    { type: 'workspace.switch', targetWorkspace: 'demo-sandbox' },
    { type: 'workspace.switch', targetWorkspace: 'demo-archive' },
  ],
  'workspaces.loaded': [{ type: 'workspaces.loaded', workspaces: demoWorkspaces }],
  'xstate.done.actor.switchWorkspace': [
    {
      type: 'xstate.done.actor.switchWorkspace',
      output: { account: { workspace: 'demo-sandbox' } },
    },
  ],
  'xstate.error.actor.switchWorkspace': [
    { type: 'xstate.error.actor.switchWorkspace', error: { error: 'forbidden' } },
  ],
} as const;
