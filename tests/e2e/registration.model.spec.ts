import type { APIRequestContext, Page, Response } from '@playwright/test';
import type { AnyEventObject, AnyStateMachine, Snapshot } from 'xstate';
import {
  organizationRegistrationMachine,
  pathEvents as organizationPathEvents,
  pathsInput as organizationPathsInput,
} from '#machines/organization-registration.machine.ts';
import type { WizardContext, WizardStep } from '#machines/registration-wizard.ts';
import {
  createMachineTestModel,
  selectCoveringPaths,
  stateKeys,
  transitionPaths,
  type PathEvents,
  type StatePath,
} from '#machines/testing/model.ts';
import {
  pathEvents as userPathEvents,
  pathsInput as userPathsInput,
  userRegistrationMachine,
} from '#machines/user-registration.machine.ts';
import { expect, test } from './fixtures.ts';
import { walkModel } from './model-walk.ts';
import {
  adminSession,
  freshEmail,
  inviteOrganization,
  inviteUser,
  registerOrganizationDirectly,
  withdrawOrganizationInvite,
  withdrawUserInvite,
} from './invitations.ts';

/**
 * The registration wizards' generated paths (the scenarios of `npm run paths`), walked through the
 * real UI against the real BFF and sandbox. Each path gets a fresh invitation, created by an
 * administrator through the API; the browser opens the link of the sandbox's e-mail. The server's
 * answers are real too:
 * - a custom schema: the demo workspace has one, Nordlicht's has none (two steps);
 * - an invalid token: the administrator withdraws the invitation (before the link is opened for
 *   a failed verification, before submitting for a refused registration);
 * - a save error: the same e-mail address registered meanwhile through another invitation
 *   (409 already_registered, shown at the e-mail field's name), which also makes a second submit
 *   fail.
 */

type Model = Snapshot<unknown> & { value: unknown; context: WizardContext };
type PathStep = { state: Snapshot<unknown>; event: AnyEventObject };

interface Wizard {
  name: string;
  machine: AnyStateMachine;
  input: unknown;
  events: PathEvents;
  order: readonly WizardStep[];
  titles: Record<WizardStep, string>;
  /** Creates the invitation; returns the link and how to withdraw it. */
  invite: (
    api: APIRequestContext,
    email: string,
  ) => Promise<{ link: string; withdraw: () => Promise<void> }>;
}

const PASSWORD = 'Fresh1234';

const wizards: Wizard[] = [
  {
    name: 'user registration',
    machine: userRegistrationMachine,
    input: userPathsInput,
    events: userPathEvents,
    order: ['userData', 'customData', 'orgData'],
    titles: {
      userData: 'Your details',
      customData: 'Additional information',
      orgData: 'Organisation',
    },
    invite: async (api, email) => ({
      link: await inviteUser(api, email),
      withdraw: () => withdrawUserInvite(api, email),
    }),
  },
  {
    name: 'organisation registration',
    machine: organizationRegistrationMachine,
    input: organizationPathsInput,
    events: organizationPathEvents,
    order: ['orgData', 'customData', 'userData'],
    titles: {
      orgData: 'Organisation',
      customData: 'Additional information',
      userData: 'Contact person',
    },
    invite: async (api, email) => {
      const { id, link } = await inviteOrganization(api, {
        name: `Model Org ${email.slice(0, 18)}`,
        email,
        address: { street: 'Lindenallee' },
      });
      return { link, withdraw: () => withdrawOrganizationInvite(api, id) };
    },
  },
];

/** A field per step that the test types and that is never prefilled: it shows values are kept. */
const keptField: Record<WizardStep, [label: string, value: string]> = {
  userData: ['First name', 'Rita'],
  customData: ['Employees', '25'],
  orgData: ['House number', '7'],
};

const heading = (page: Page) => page.getByRole('heading', { level: 2 });

async function fillStep(page: Page, step: WizardStep) {
  if (step === 'userData') {
    await page.getByLabel('First name').fill('Rita');
    await page.getByLabel('Last name').fill('Register');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  } else if (step === 'customData') {
    await page.getByLabel('Registration number').fill('HRB 4711');
    await page.getByLabel('Employees').fill('25');
  } else {
    await page.getByLabel('Street').fill('Ringstraße');
    await page.getByLabel('House number').fill('7');
    await page.getByLabel('Postcode').fill('04109');
    await page.getByLabel('City').fill('Leipzig');
    await page.getByLabel('Country').fill('Deutschland');
  }
}

function stepOf(state: Snapshot<unknown>): WizardStep | undefined {
  return ((state as Model).value as { editing?: WizardStep }).editing;
}

function describe(steps: readonly PathStep[]): string {
  return steps
    .slice(1)
    .map(({ event }) => {
      if (event.type === 'xstate.done.actor.verifyInvitation') {
        return event.output.hasCustomSchema ? 'verified(schema)' : 'verified(no schema)';
      }
      if (event.type === 'xstate.error.actor.register') return `register→${event.error.status}`;
      return event.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$2→$1');
    })
    .join(', ');
}

for (const wizard of wizards) {
  const model = createMachineTestModel(wizard.machine, {
    input: wizard.input,
    events: wizard.events,
  });
  const paths = selectCoveringPaths([...model.getShortestPaths(), ...transitionPaths(model)]);

  test.describe(wizard.name, () => {
    // One check per state of the machine, so that the model cannot drift from the screen.
    const stateChecks = (page: Page, context: { register?: Promise<Response> }) => ({
      // In flight: the spinner lasts as long as the verification; the next check sees its outcome.
      verifying: async () => {},
      editing: async () => {
        await expect(heading(page)).toBeVisible();
      },
      ...Object.fromEntries(
        wizard.order.map((step) => [
          `editing.${step}`,
          async (state: Snapshot<unknown>) => {
            const { hasCustomSchema, values } = (state as Model).context;
            const visible = wizard.order.filter((s) => s !== 'customData' || hasCustomSchema);
            const label = `${visible.indexOf(step) + 1}/${visible.length}`;
            await expect(heading(page)).toHaveText(`${label}${wizard.titles[step]}`);
            if (wizard.machine === organizationRegistrationMachine) {
              await expect(page).toHaveURL((url) => url.hash.startsWith(`#step=${step}&token=`));
            }
            // A step left before keeps what was typed in it.
            if (values[step]) {
              const [field, value] = keptField[step];
              await expect(page.getByLabel(field)).toHaveValue(value);
            }
          },
        ]),
      ),
      // The registration call was really made (its answer is checked by the next event).
      submitting: async () => {
        expect(context.register).toBeDefined();
        await context.register;
      },
      failed: async () => {
        // The refusal names the field and why, not a "try again" that cannot help (issue 16).
        const alert = page.getByRole('alert');
        await expect(alert).toContainText('Your registration was not accepted. Please check:');
        await expect(alert).toContainText(
          'E-mail address: This e-mail address already has an account. Sign in, or reset your password if you forgot it.',
        );
        const last = wizard.order[2]!;
        await expect(page.getByLabel(keptField[last][0])).toHaveValue(keptField[last][1]);
        await expect(page.getByRole('button', { name: 'Register' })).toBeEnabled();
      },
      invalid: async () => {
        await expect(page).toHaveURL(/\/expired-token$/);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invitation link expired');
      },
      done: async () => {
        await expect(page).toHaveURL(/\/success-registration$/);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Registration complete');
      },
    });

    test('every state of the machine has a check in the browser walk', () => {
      const checks = stateChecks({} as Page, {});
      expect(Object.keys(checks).sort()).toEqual(stateKeys(wizard.machine).sort());
    });

    for (const path of paths as StatePath<Snapshot<unknown>, AnyEventObject>[]) {
      test(`path: ${describe(path.steps)}`, async ({ page, baseURL }) => {
        const steps = path.steps as PathStep[];
        const verified = steps[1]!.event;
        const withSchema =
          verified.type !== 'xstate.done.actor.verifyInvitation' || verified.output.hasCustomSchema;
        const admin = await adminSession(
          baseURL!,
          withSchema ? 'admin@demo.test' : 'admin@nordlicht.test',
        );
        const email = freshEmail('model');
        const invitation = await wizard.invite(admin, email);
        if (verified.type === 'xstate.error.actor.verifyInvitation') await invitation.withdraw();
        let emailTaken = false;
        const context: { register?: Promise<Response> } = {};

        await page.goto(invitation.link);
        const click = (name: string) => page.getByRole('button', { name, exact: true }).click();
        await walkModel(model as never, path, {
          states: stateChecks(page, context),
          args: [],
          events: {
            // The server's verification answers as arranged above; the next check sees it.
            'xstate.done.actor.verifyInvitation': async () => {},
            'xstate.error.actor.verifyInvitation': async () => {},
            // The step being left is the one to fill: the snapshot the event is taken from says.
            'wizard.next': async ({ from }) => {
              await fillStep(page, stepOf(from!)!);
              await click('Next');
            },
            'wizard.previous': async () => {
              await click('Previous');
            },
            'wizard.submit': async ({ next }) => {
              const outcome = next();
              if (outcome?.type === 'xstate.error.actor.register' && outcome.error.status === 403) {
                await invitation.withdraw();
              }
              if (
                outcome?.type === 'xstate.error.actor.register' &&
                outcome.error.status === 409 &&
                !emailTaken
              ) {
                // The same person registered another organisation with this address meanwhile.
                const other = await inviteOrganization(admin, { name: `Taken ${email}`, email });
                await registerOrganizationDirectly(admin, other.link, PASSWORD);
                emailTaken = true;
              }
              await fillStep(page, wizard.order[2]!);
              context.register = page.waitForResponse(
                (response) =>
                  /\/api\/guest\/authservice\/v1\/create-/.test(response.url()) &&
                  response.request().method() === 'POST',
              );
              await click('Register');
            },
            'xstate.done.actor.register': async () => {
              expect((await context.register!).status()).toBe(201);
            },
            'xstate.error.actor.register': async ({ event }) => {
              expect((await context.register!).status()).toBe(event.error.status);
            },
          },
        });
        await admin.dispose();
      });
    }
  });
}
