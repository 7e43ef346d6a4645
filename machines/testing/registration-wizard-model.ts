/**
 * The reachability check of a registration wizard (`createRegistrationWizard`): the generated
 * paths reach every state and take every event. What each transition does is asserted by the
 * machines' own tests. Shared by the user and the organisation registration tests, whose machines
 * differ only in the order of their steps.
 */
import { describe, it } from 'vitest';
import type { createRegistrationWizard } from '../registration-wizard.ts';
import { expectFullCoverage } from './assertions.ts';
import { createMachineTestModel, transitionPaths, type PathEvents } from './model.ts';

type Wizard = ReturnType<typeof createRegistrationWizard>;

export function describeWizardModel(
  machine: Wizard,
  options: { input: { token: string | null }; events: PathEvents },
): void {
  describe(`${machine.id} model`, () => {
    const model = createMachineTestModel(machine, options);
    const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

    it('reaches every state and takes every event', () => {
      expectFullCoverage(machine, paths);
    });
  });
}
