/**
 * The model-based test of a registration wizard (`createRegistrationWizard`): every generated
 * path replayed against the real machine with fake actors, checking value and context at each
 * state. Shared by the user and the organisation registration tests, whose machines differ only
 * in the order of their steps.
 */
import { describe, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject } from 'xstate';
import type {
  createRegistrationWizard,
  RegisterInput,
  VerifiedInvitation,
} from '../registration-wizard.ts';
import { controlledPromise, flushPromises } from './actors.ts';
import { expectFullCoverage, expectHandlers, sameStateChecks } from './assertions.ts';
import {
  createMachineTestModel,
  describePath,
  eventTypes,
  transitionPaths,
  type PathEvents,
} from './model.ts';

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

    function driver() {
      const verify = controlledPromise<VerifiedInvitation, { token: string | null }>();
      const register = controlledPromise<unknown, RegisterInput>();
      const actor = createActor(
        machine.provide({
          actors: { verifyInvitation: verify.logic, register: register.logic },
        }),
        { input: options.input },
      ).start();
      const send = ({ event }: { event: AnyEventObject }) => {
        actor.send(event as Parameters<typeof actor.send>[0]);
      };
      const settle =
        (call: typeof verify | typeof register, how: 'resolve' | 'reject') =>
        async ({ event }: { event: AnyEventObject }) => {
          if (how === 'resolve') call.last().resolve(event.output);
          else call.last().reject(event.error);
          await flushPromises();
        };
      const events = {
        'wizard.next': send,
        'wizard.previous': send,
        'wizard.submit': send,
        'xstate.done.actor.verifyInvitation': settle(verify, 'resolve'),
        'xstate.error.actor.verifyInvitation': settle(verify, 'reject'),
        'xstate.done.actor.register': settle(register, 'resolve'),
        'xstate.error.actor.register': settle(register, 'reject'),
      };
      return { actor, events };
    }

    it('has an executor for every event', () => {
      expectHandlers(eventTypes(machine), driver().events);
    });

    it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
      const { actor, events } = driver();
      await model.testPath(path, {
        states: sameStateChecks(machine, () => actor.getSnapshot()),
        events,
      });
    });
  });
}
