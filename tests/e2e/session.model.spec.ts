import type { Page } from '@playwright/test';
import type { AnyEventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  pathEventList,
  pathsInput,
  pathsSerializeState,
  sessionMachine,
} from '#machines/session.machine.ts';
import { expect, fillSignIn, test } from './fixtures.ts';
import { expectCheckForEveryState, walkModel, type WalkStep } from './model-walk.ts';

/**
 * The session machine's generated paths, walked through the real UI against the real BFF and
 * sandbox. Left out, with the reason:
 * - `retry.allowed`: the lock-out lasts minutes (unit tests cover it with a simulated clock);
 * - `xstate.error.actor.*`: network failures, not something a user can do;
 * - a successful password change: it changes newpass@demo.test for the rest of the run, so
 *   `password-change.spec.ts` does it once, after this walk (see playwright.config.ts);
 * - `account.updated`: a workspace switch, covered by `workspace.spec.ts`;
 * - a voluntary password change from the shell, and expiry during a call in flight.
 */
const stableStates = new Set([
  'idle',
  'signedIn',
  'passwordChangeRequired',
  'failed',
  'refusedNoUi',
  'signedOut',
  'expired',
]);

function walkable(snapshot: { value: unknown }, event: AnyEventObject): boolean {
  const state = String(snapshot.value);
  if (event.type === 'account.updated' || event.type === 'retry.allowed') return false;
  if (event.type.startsWith('xstate.error.actor.')) return false;
  if (event.type === 'xstate.done.actor.changePassword' && event.output?.kind === 'changed') {
    return false;
  }
  if (event.type === 'password.submit') return state === 'passwordChangeRequired';
  if (event.type === 'session.expired') return stableStates.has(state);
  return true;
}

const model = createTestModel(sessionMachine, {
  events: pathEventList as never,
  input: pathsInput as never,
  serializeState: pathsSerializeState as never,
  filterEvents: walkable as never,
});
const paths = model.getShortestPaths();

// Which demo user produces which answer of the BFF.
const userFor: Record<string, { username: string; password: string }> = {
  signedIn: { username: 'admin@demo.test', password: 'Demo1234!' },
  passwordChangeRequired: { username: 'newpass@demo.test', password: 'Demo1234!' },
  refusedNoUi: { username: 'noui@demo.test', password: 'Demo1234!' },
  failed: { username: 'nobody@demo.test', password: 'Wrong-password-1' },
};

const shellHeading = (page: Page) => page.getByRole('heading', { level: 1, name: /^Hello, / });

// One check per state of the machine: the model cannot drift from what the user sees.
const stateChecks: Record<string, (page: Page) => Promise<void>> = {
  idle: async (page) => {
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  },
  // In-flight states last a few milliseconds; the next step's check covers their outcome.
  signingIn: async () => {},
  changingPassword: async () => {},
  signingOut: async () => {},
  signedIn: async (page) => {
    await expect(shellHeading(page)).toBeVisible();
    await expect(page).toHaveURL(/\/u\/\d+\/home$/);
  },
  passwordChangeRequired: async (page) => {
    await expect(page).toHaveURL(/\/u\/\d+\/changepassword/);
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  },
  refusedNoUi: async (page) => {
    await expect(page.getByRole('alert')).toContainText('has no access to this application');
  },
  failed: async (page) => {
    await expect(page.getByRole('alert')).toHaveText(
      'The e-mail address or the password is not correct.',
    );
  },
  rateLimited: async (page) => {
    await expect(page.getByRole('alert')).toContainText('Too many attempts');
  },
  signedOut: async (page) => {
    await expect(page).not.toHaveURL(/\/logout$/);
    await expect(
      page.getByRole('button', { name: 'Sign in', exact: true }).or(shellHeading(page)),
    ).toBeVisible();
  },
  expired: async (page) => {
    await expect(page).toHaveURL(/\/login\?backUrl=%2Fu%2F0/);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  },
};

test('every state of the session machine has a check in the browser walk', () => {
  expectCheckForEveryState(sessionMachine, stateChecks);
});

/** What the service answers next on the path (the outcome the step's action must bring about). */
const nextOutput = (step: WalkStep) => step.next()?.output as { kind?: string } | undefined;

function describe(steps: { event: AnyEventObject }[]): string {
  return steps
    .slice(1)
    .map(({ event }) =>
      event.type.startsWith('xstate.done.actor.')
        ? `${event.type.slice('xstate.done.actor.'.length)}→${String(event.output?.kind ?? 'done')}`
        : event.type,
    )
    .join(', ');
}

for (const path of paths) {
  test(`path: ${describe(path.steps)} ⇒ ${String(path.state.value)}`, async ({ page, context }) => {
    await page.goto('/login');
    // The session model tells states apart by their outcome (pathsSerializeState), which the
    // shared walker's own model does not; it walks this model's paths all the same.
    await walkModel(model as never, path as never, {
      states: stateChecks,
      args: [page],
      events: {
        'signIn.submit': async (step) => {
          const outcome = nextOutput(step)?.kind ?? 'signedIn';
          if (!new URL(page.url()).pathname.startsWith('/login')) await page.goto('/login');
          if (outcome === 'rateLimited') {
            // The BFF locks a user name out after repeated wrong passwords: a name of its own.
            const username = `locked-${test.info().testId}@demo.test`;
            for (let attempt = 0; attempt < 8; attempt++) {
              await fillSignIn(page, username, 'Wrong-password-1');
              await expect(page.getByRole('alert')).toBeVisible();
              if ((await page.getByRole('alert').textContent())?.includes('Too many')) break;
            }
            return;
          }
          const user = userFor[outcome]!;
          await fillSignIn(page, user.username, user.password);
        },
        'password.submit': async (step) => {
          // Only the refused change is walked here (see above): a password breaking the rules.
          expect(nextOutput(step)?.kind ?? 'failed').toBe('failed');
          await page.getByLabel('New password', { exact: true }).fill('weakpassword');
          await page.getByLabel('Repeat new password').fill('weakpassword');
          await page.getByRole('button', { name: 'Change password' }).click();
          await expect(page.getByRole('alert')).toBeVisible();
        },
        'account.signOut': async (step) => {
          const menu = page.getByRole('navigation', { name: 'Main menu' });
          if (await menu.isVisible()) await menu.getByRole('link', { name: 'Logout' }).click();
          else await page.goto(`/u/${String(step.event.accountIndex)}/logout`);
        },
        'session.expired': async () => {
          // The server forgets the session (as when the refresh fails); the next visit finds out.
          await context.clearCookies();
          await page.goto('/u/0');
        },
        // The server's answers: nothing to do, the next state's check sees them.
        'xstate.done.actor.signIn': async () => {},
        'xstate.done.actor.changePassword': async () => {},
        'xstate.done.actor.signOut': async () => {},
      },
    });
  });
}
