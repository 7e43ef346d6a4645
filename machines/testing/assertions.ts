/**
 * Vitest assertions for model-based machine tests. Kept apart from `model.ts`, which the paths
 * script imports outside vitest.
 */
import { expect } from 'vitest';
import type { AnyEventObject, AnyStateMachine, Snapshot } from 'xstate';
import { coverage, stateKeys } from './model.ts';
import type { StatePath } from './model.ts';

/**
 * The same check in every state of the machine, for a property that holds whatever the path (one
 * socket at most, the script inserted only while mounted): one handler per state key, so that a
 * path replay checks it after each step.
 */
export function checkInEveryState(
  machine: AnyStateMachine,
  check: () => void,
): Record<string, () => void> {
  return Object.fromEntries(stateKeys(machine).map((key) => [key, check]));
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
