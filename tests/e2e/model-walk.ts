import type { AnyEventObject, AnyStateMachine, Snapshot } from 'xstate';
import type { StatePath, TestModel } from 'xstate/graph';
import {
  createMachineTestModel,
  selectCoveringPaths,
  stateKeys,
  transitionPaths,
  type ModelOptions,
} from '#machines/testing/model.ts';
import { expect } from './fixtures.ts';

/**
 * The path walking the model specs share: a statechart's generated paths (the scenarios of
 * `npm run paths`), replayed in the browser against the real BFF and sandbox. A spec brings what
 * the user sees in each state and what the user does for each event; this file brings the paths
 * and refuses a walk that would skip an event or a state without anybody noticing.
 */

type Model = TestModel<Snapshot<unknown>, AnyEventObject, unknown>;
type Step = { state: Snapshot<unknown>; event: AnyEventObject };
export type ModelPath = StatePath<Snapshot<unknown>, AnyEventObject>;

/**
 * The machine's model, told apart by state value only (a browser cannot see the context), and the
 * fewest of its shortest and per-transition paths that still take every transition it allows.
 * `filterEvents` leaves out what a user cannot produce; each spec says why next to it.
 */
export function modelPaths(
  machine: AnyStateMachine,
  options: Pick<ModelOptions, 'input' | 'events' | 'filterEvents'>,
): { model: Model; paths: ModelPath[] } {
  const model = createMachineTestModel(machine, { ...options, ignoreContext: true });
  return {
    model,
    paths: selectCoveringPaths([...model.getShortestPaths(), ...transitionPaths(model)]),
  };
}

/** Every state of the machine has a check, and no check names a state it does not have: a state
 * added to the machine cannot go unwalked. */
export function expectCheckForEveryState(
  machine: AnyStateMachine,
  checks: Readonly<Record<string, unknown>>,
): void {
  expect(Object.keys(checks).sort()).toEqual(stateKeys(machine).sort());
}

/** The event an action takes, and those of the path after it: for an action that prepares what
 * the path makes happen next (a colleague's save before a conflict, a bad file before a refused
 * check). */
export interface WalkStep {
  /** The event being taken (with its payload, as the model generated it). */
  event: AnyEventObject;
  /**
   * The snapshot the event is taken from (the step before's), for an action whose doing depends
   * on where the machine is (which wizard step a "next" fills); undefined for the first step.
   */
  from: Snapshot<unknown> | undefined;
  /** The event `offset` steps after this one (1: the next one), if the path goes that far. */
  next(offset?: number): AnyEventObject | undefined;
  /** Every event after this one, in order. */
  rest(): AnyEventObject[];
}

export interface Walk<A extends unknown[]> {
  /**
   * Per state key (as `stateKeys` lists them): what the user sees there, given `args` and, after
   * them, the snapshot reached (for a check whose screen depends on the context: which wizard
   * steps a registration with a custom schema shows).
   */
  states: Readonly<Record<string, (...args: [...A, Snapshot<unknown>]) => Promise<void>>>;
  /** What the state checks get: the page, and whatever the path set up (an API client, a code). */
  args: A;
  /** Per event type on the path: what the user does (or nothing, for the service's answers). */
  events: Readonly<Record<string, (step: WalkStep) => Promise<void>>>;
}

/**
 * Walks one path: for each step, the action of its event, then the check of every state the
 * snapshot is in (a nested state runs its parent's check too). An event of the path without an
 * action fails the walk before anything runs, where xstate's own replay would skip it silently.
 */
// `| []`: the args given as a list are read as a tuple, each check's parameters in their places.
export async function walkModel<A extends unknown[] | []>(
  model: Model,
  path: ModelPath,
  walk: Walk<A>,
): Promise<void> {
  const steps: readonly Step[] = path.steps;
  // The start of a per-transition path is the machine's own initial event, not a user's.
  const unhandled = steps
    .map((step) => step.event.type)
    .filter((type) => type !== 'xstate.init' && !(type in walk.events));
  expect(unhandled, 'events of the path without an action in the walk').toEqual([]);

  await model.testPath(path, {
    states: Object.fromEntries(
      Object.entries(walk.states).map(([key, check]) => [
        key,
        (state: Snapshot<unknown>) => check(...walk.args, state),
      ]),
    ),
    events: Object.fromEntries(
      Object.entries(walk.events).map(([type, act]) => [
        type,
        (step: Step) => {
          const at = steps.indexOf(step);
          const after = steps.slice(at + 1).map((s) => s.event);
          return act({
            event: step.event,
            from: steps[at - 1]?.state,
            next: (offset = 1) => after[offset - 1],
            rest: () => after,
          });
        },
      ]),
    ),
  });
}
