import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';
import {
  pathEvents,
  pathsInput,
  workspaceSwitchMachine,
  type SwitchableWorkspace,
} from './workspace-switch.machine.ts';

const workspaces: SwitchableWorkspace[] = [
  { slug: 'demo', isDisabled: false },
  { slug: 'demo-sandbox', isDisabled: false },
  { slug: 'demo-archive', isDisabled: true },
];

function start(input: { workspaces?: SwitchableWorkspace[] } = { workspaces }) {
  const switchWorkspace = controlledPromise<unknown, { targetWorkspace: string }>();
  const calls: string[] = [];
  const storeAccount = vi.fn((result: unknown) =>
    calls.push(`storeAccount:${JSON.stringify(result)}`),
  );
  const logError = vi.fn((error: unknown) => calls.push(`logError:${JSON.stringify(error)}`));
  const reloadPage = vi.fn(() => calls.push('reloadPage'));
  const machine = workspaceSwitchMachine.provide({
    actors: { switchWorkspace: switchWorkspace.logic },
    actions: {
      storeAccount: (_, params) => storeAccount(params.result),
      logError: (_, params) => logError(params.error),
      reloadPage,
    },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, switchWorkspace, storeAccount, logError, reloadPage, calls };
}

describe('workspaceSwitchMachine', () => {
  it('starts idle with the given workspaces', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({ workspaces, targetWorkspace: null });
    expect(start({}).actor.getSnapshot().context.workspaces).toEqual([]);
  });

  it('switches: spinner, call, store the account, then reload', async () => {
    const { actor, switchWorkspace, calls } = start();
    actor.send({ type: 'workspace.switch', targetWorkspace: 'demo-sandbox' });
    expect(actor.getSnapshot().value).toBe('switching');
    expect(actor.getSnapshot().context.targetWorkspace).toBe('demo-sandbox');
    expect(switchWorkspace.last().input).toEqual({ targetWorkspace: 'demo-sandbox' });

    switchWorkspace.last().resolve({ account: { workspace: 'demo-sandbox' } });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('reloading');
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls).toEqual(['storeAccount:{"account":{"workspace":"demo-sandbox"}}', 'reloadPage']);
  });

  it('logs a failed switch and reloads the page too', async () => {
    const { actor, switchWorkspace, calls, storeAccount } = start();
    actor.send({ type: 'workspace.switch', targetWorkspace: 'demo' });
    switchWorkspace.last().reject({ error: 'forbidden' });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('reloading');
    expect(storeAccount).not.toHaveBeenCalled();
    expect(calls).toEqual(['logError:{"error":"forbidden"}', 'reloadPage']);
  });

  it('refuses a disabled or unknown workspace', () => {
    const { actor, switchWorkspace } = start();
    for (const targetWorkspace of ['demo-archive', 'nordlicht', '']) {
      expect(actor.getSnapshot().can({ type: 'workspace.switch', targetWorkspace })).toBe(false);
      actor.send({ type: 'workspace.switch', targetWorkspace });
      expect(actor.getSnapshot().value).toBe('idle');
    }
    expect(switchWorkspace.calls).toHaveLength(0);
  });

  it('accepts a workspace once the list has loaded', () => {
    const { actor } = start({});
    expect(actor.getSnapshot().can({ type: 'workspace.switch', targetWorkspace: 'demo' })).toBe(
      false,
    );
    actor.send({ type: 'workspaces.loaded', workspaces });
    actor.send({ type: 'workspace.switch', targetWorkspace: 'demo' });
    expect(actor.getSnapshot().value).toBe('switching');
  });

  it('ignores a second switch while one is running (one call only)', () => {
    const { actor, switchWorkspace } = start();
    actor.send({ type: 'workspace.switch', targetWorkspace: 'demo' });
    actor.send({ type: 'workspace.switch', targetWorkspace: 'demo-sandbox' });
    expect(switchWorkspace.calls).toHaveLength(1);
    expect(actor.getSnapshot().context.targetWorkspace).toBe('demo');
  });
});

describe('workspaceSwitchMachine model', () => {
  const model = createMachineTestModel(workspaceSwitchMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  // Shortest paths, one path per transition, and (small machine) every simple path.
  const paths = [...model.getShortestPaths(), ...transitionPaths(model), ...model.getSimplePaths()];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(workspaceSwitchMachine, paths);
  });
});
