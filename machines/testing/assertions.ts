/**
 * Vitest assertions for model-based machine tests. Kept apart from `model.ts`, which the paths
 * script imports outside vitest.
 */
import { expect } from 'vitest';
import type { AnyEventObject, AnyStateMachine, Snapshot } from 'xstate';
import { coverage, stateKeys } from './model.ts';
import type { StatePath } from './model.ts';

interface ValueAndContext {
  value: unknown;
  context: unknown;
}

/**
 * A state check for every state of the machine: the real actor's value and context equal the
 * model's. One handler per state key, so a state added to the machine without a check is caught
 * by {@link expectHandlers}.
 */
export function sameStateChecks(
  machine: AnyStateMachine,
  real: () => ValueAndContext,
): Record<string, (model: Snapshot<unknown>) => void> {
  return Object.fromEntries(
    stateKeys(machine).map((key) => [
      key,
      (model: Snapshot<unknown>) => {
        const expected = model as unknown as ValueAndContext;
        const actual = real();
        expect(actual.value).toEqual(expected.value);
        expect(actual.context).toEqual(expected.context);
      },
    ]),
  );
}

/** Every state is reached and every handled event (including done/error/after) is taken. */
export function expectFullCoverage(
  machine: AnyStateMachine,
  paths: readonly StatePath<Snapshot<unknown>, AnyEventObject>[],
): void {
  const { missingStates, missingEvents } = coverage(machine, paths);
  expect(missingStates, 'states no path reaches').toEqual([]);
  expect(missingEvents, 'events no path takes').toEqual([]);
}

/** The test has an executor for every event type of the machine's model. */
export function expectHandlers(
  handled: readonly string[],
  executors: Readonly<Record<string, unknown>>,
): void {
  expect(Object.keys(executors).sort()).toEqual([...handled].sort());
}
