import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import { pathEvents, pathsInput, recordEditMachine } from '#machines/record-edit.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The record-edit machine's generated paths, walked on a customer's data form against the real
 * BFF and sandbox; each path edits a customer of its own, created through the API. Left out, with
 * the reason:
 * - a failed read of the customer (`xstate.error.actor.loadRecord`, `load.retry`): the customer
 *   page reads the customer with its own loader (its retry is checked in customers.spec.ts); the
 *   walk opens the page, which stands for the read that succeeded;
 * - `xstate.error.actor.validate`: the form's own check does not fail, it answers errors;
 * - a save refused with field errors by the service: the form checks every rule the service
 *   checks before sending (the phone, the dates), so a user never gets there;
 * - a save failing without an answer (5xx, network): not something a user can do;
 * - `failure.dismiss`: follows such a failure only;
 * - `record.load` / `record.rebase` outside a conflict: the customer page hands no newer record
 *   to the form (lead and claim pages do, after a status move).
 */
function walkable(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  if (event.type === 'xstate.error.actor.loadRecord' || event.type === 'load.retry') return false;
  if (event.type === 'xstate.error.actor.validate') return false;
  if (event.type === 'failure.dismiss' || event.type.startsWith('record.')) return false;
  if (event.type === 'xstate.error.actor.saveRecord') return event.error?.kind === 'conflict';
  // The form is disabled while it checks and saves.
  const value = (state as unknown as { value: unknown }).value;
  if (event.type === 'edit') return value !== 'validating' && value !== 'saving';
  return true;
}

const { model, paths } = modelPaths(recordEditMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkable,
});

const TYPED_STREET = 'Holstenstraße';
const THEIR_CITY = 'Lübeck';
const ACCOUNTS = '/api/0/accountservice/v1/accounts';

interface Account {
  code: string;
  version: number;
  city: string;
  street: string;
}

async function createCustomer(api: APIRequestContext, stamp: string): Promise<Account> {
  const created = await api.post(ACCOUNTS, {
    data: {
      type: 'person',
      firstName: 'Ada',
      lastName: `Model ${stamp}`,
      email: `ada.${stamp}@example.test`,
      street: 'Holtenauer Straße',
      houseNumber: '1',
      zipCode: '24103',
      city: 'Kiel',
    },
  });
  expect(created.ok()).toBe(true);
  return ((await created.json()) as { account: Account }).account;
}

async function readCustomer(api: APIRequestContext, code: string): Promise<Account> {
  const response = await api.get(`${ACCOUNTS}/${code}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { account: Account }).account;
}

/** A colleague's save through the API, on top of the current version: the form's is stale. */
async function saveMeanwhile(api: APIRequestContext, code: string) {
  const current = (await (await api.get(`${ACCOUNTS}/${code}`)).json()) as {
    account: Record<string, unknown>;
  };
  const { account } = current;
  const saved = await api.put(`${ACCOUNTS}/${code}`, {
    data: {
      type: account.type,
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email,
      street: account.street,
      houseNumber: account.houseNumber,
      zipCode: account.zipCode,
      city: THEIR_CITY,
      version: account.version,
    },
  });
  expect(saved.ok()).toBe(true);
}

/**
 * The machine's answers, nothing for the user to do: the page opened with the record before the
 * walk began (the read), and the next state's check sees the form's and the service's answers.
 */
const ANSWERS = {
  'xstate.done.actor.loadRecord': async () => {},
  'xstate.done.actor.validate': async () => {},
  'xstate.done.actor.saveRecord': async () => {},
  'xstate.error.actor.saveRecord': async () => {},
};

const conflictAlert = (page: Page) =>
  page.getByRole('alert').filter({ hasText: 'This record was changed in another tab' });
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

test('every state of the record-edit machine has a check in the browser walk', () => {
  expectCheckForEveryState(recordEditMachine, stateChecks);
});

const stateChecks: Record<
  string,
  (page: Page, api: APIRequestContext, code: string) => Promise<void>
> = {
  // Before the walk's first step: the page opened with the customer (see the test).
  opening: async () => {},
  loading: async () => {},
  // Not reached by the walk (see above).
  loadFailed: async () => {},
  editing: async (page) => {
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeEnabled();
    await expect(conflictAlert(page)).toHaveCount(0);
  },
  // In-flight states last milliseconds; the next state's check sees their outcome.
  validating: async () => {},
  saving: async () => {},
  saved: async (page, api, code) => {
    await expect(page.getByText('Customer saved.').first()).toBeVisible();
    // What the service holds now is what the form shows, at the version the form shows.
    const account = await readCustomer(api, code);
    await expect(page.getByTestId('customer-version')).toContainText(`Version ${account.version}`);
    await expect(field(page, 'Street')).toHaveValue(account.street);
    await expect(field(page, 'City')).toHaveValue(account.city);
  },
  conflict: async (page) => {
    await expect(conflictAlert(page)).toBeVisible();
  },
};

for (const path of paths) {
  test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
    const api = await apiAs(baseURL!, 'care@demo.test');
    try {
      const stamp = `${Date.now().toString(36)}${test.info().testId.slice(0, 6)}`;
      const customer = await createCustomer(api, stamp);
      await signIn(page, 'care@demo.test');
      await page.goto(`/u/0/customers/${customer.code}`);
      await expect(page.getByTestId('customer-version')).toContainText('Version 1');

      await walkModel(model, path, {
        states: stateChecks,
        args: [page, api, customer.code],
        events: {
          edit: async () => {
            await field(page, 'Street').fill(TYPED_STREET);
          },
          save: async (step) => {
            const checked = step.next();
            if (checked?.output?.ok === false) await field(page, 'City').fill('');
            if (step.next(2)?.error?.kind === 'conflict') {
              await saveMeanwhile(api, customer.code);
            }
            await page.getByRole('button', { name: 'Save', exact: true }).click();
            if (checked?.output?.ok === false) {
              await expect(field(page, 'City')).toHaveAttribute('aria-invalid', 'true');
              await field(page, 'City').fill('Kiel');
            }
          },
          'resolve.reload': async () => {
            await page
              .getByRole('button', { name: 'Discard my input and load the saved data' })
              .click();
            await expect(field(page, 'City')).toHaveValue(THEIR_CITY);
          },
          'resolve.keepMine': async () => {
            const myStreet = await field(page, 'Street').inputValue();
            await page.getByRole('button', { name: 'Save my input over it' }).click();
            // Only this user's change (the street) goes on their record: their city stays.
            await expect(field(page, 'City')).toHaveValue(THEIR_CITY);
            await expect(field(page, 'Street')).toHaveValue(myStreet);
          },
          'resolve.merge': async () => {
            const myStreet = await field(page, 'Street').inputValue();
            await page.getByRole('button', { name: /^Combine/ }).click();
            // Their city (this user left it alone), this user's street: a save keeps both.
            await expect(field(page, 'City')).toHaveValue(THEIR_CITY);
            await expect(field(page, 'Street')).toHaveValue(myStreet);
          },
          ...ANSWERS,
        },
      });
    } finally {
      await api.dispose();
    }
  });
}

/**
 * The same machine on a product part: renaming an insured object of a draft version, a new
 * product of its own per path (as hannah.koch@, a product manager no other spec signs in with).
 * Left out as on the customer, and besides: every event after `saved`, since the dialog closes
 * with the save.
 */
function walkableOnObject(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  const value = (state as unknown as { value: unknown }).value;
  return value !== 'saved' && walkable(state, event);
}

const { model: objectModel, paths: objectPaths } = modelPaths(recordEditMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkableOnObject,
});

const MANAGER = 'hannah.koch@demo.test';
const INSURANCE = '/api/0/insuranceservice/v1';
const TYPED_LABEL = 'Main driver';
const THEIR_NAME = 'driver-two';

interface InsuredObject {
  id: number;
  name: string;
  label: string;
  version: number;
}

async function created<T>(response: APIResponse, key: string): Promise<T> {
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as Record<string, T>)[key]!;
}

/** A product with a draft version holding the object `driver` ("Driver"); the version's page. */
async function createObject(api: APIRequestContext, stamp: string) {
  const product = await created<{ id: number }>(
    await api.post(`${INSURANCE}/products`, {
      data: { name: `E2E Rename ${stamp}`, category: 'car' },
    }),
    'product',
  );
  const version = await created<{ id: number }>(
    await api.post(`${INSURANCE}/product-versions`, {
      data: { productId: product.id, description: '' },
    }),
    'productVersion',
  );
  const object = await created<InsuredObject>(
    await api.post(`${INSURANCE}/insured-objects`, {
      data: {
        productVersionId: version.id,
        insuredObjectTypeId: null,
        name: 'driver',
        label: 'Driver',
      },
    }),
    'insuredObject',
  );
  return { object, url: `/u/0/management/product/${product.id}/${version.id}` };
}

const readObject = async (api: APIRequestContext, id: number) =>
  created<InsuredObject>(await api.get(`${INSURANCE}/insured-objects/${id}`), 'insuredObject');

/** A colleague renames the object (its name in formulas) on top of the current version. */
async function renameMeanwhile(api: APIRequestContext, id: number) {
  const current = await readObject(api, id);
  expect(
    (
      await api.put(`${INSURANCE}/insured-objects/${id}`, {
        data: { name: THEIR_NAME, label: current.label, version: current.version },
      })
    ).ok(),
  ).toBe(true);
}

const renameDialog = (page: Page) => page.getByRole('dialog', { name: 'Rename insured object' });
const objectField = (page: Page, name: string) =>
  renameDialog(page).getByRole('textbox', { name, exact: true });
const objectConflict = (page: Page) =>
  renameDialog(page)
    .getByRole('alert')
    .filter({ hasText: 'This record was changed in another tab' });

const objectChecks: typeof stateChecks = {
  opening: async () => {},
  loading: async () => {},
  loadFailed: async () => {},
  editing: async (page) => {
    await expect(
      renameDialog(page).getByRole('button', { name: 'Save', exact: true }),
    ).toBeEnabled();
    await expect(objectConflict(page)).toHaveCount(0);
  },
  validating: async () => {},
  saving: async () => {},
  saved: async (page, api, id) => {
    await expect(renameDialog(page)).toBeHidden();
    // The page lists the object as the service holds it now.
    const object = await readObject(api, Number(id));
    await expect(page.getByText(`Insured object ${object.label} saved.`)).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 3, name: `${object.label} (${object.name})` }),
    ).toBeVisible();
  },
  conflict: async (page) => {
    await expect(objectConflict(page)).toBeVisible();
    // Their change beside this input.
    await expect(objectConflict(page).getByRole('table')).toContainText(THEIR_NAME);
  },
};

test('the insured object walk checks every state of the record-edit machine', () => {
  expectCheckForEveryState(recordEditMachine, objectChecks);
});

for (const path of objectPaths) {
  test(`insured object path: ${describePath(path)}`, async ({ page, baseURL }) => {
    const api = await apiAs(baseURL!, MANAGER);
    try {
      const stamp = `${Date.now().toString(36)}${test.info().testId.slice(0, 6)}`;
      const { object, url } = await createObject(api, stamp);
      await signIn(page, MANAGER);
      await page.goto(url);
      await page.getByRole('button', { name: 'Rename Driver' }).click();
      await expect(objectField(page, 'Label')).toHaveValue('Driver');

      await walkModel(objectModel, path, {
        states: objectChecks,
        args: [page, api, String(object.id)],
        events: {
          edit: async () => {
            await objectField(page, 'Label').fill(TYPED_LABEL);
          },
          save: async (step) => {
            const checked = step.next();
            const label = await objectField(page, 'Label').inputValue();
            if (checked?.output?.ok === false) await objectField(page, 'Label').fill('');
            if (step.next(2)?.error?.kind === 'conflict') await renameMeanwhile(api, object.id);
            await renameDialog(page).getByRole('button', { name: 'Save', exact: true }).click();
            if (checked?.output?.ok === false) {
              await expect(objectField(page, 'Label')).toHaveAttribute('aria-invalid', 'true');
              await objectField(page, 'Label').fill(label);
            }
          },
          'resolve.reload': async () => {
            await renameDialog(page)
              .getByRole('button', { name: 'Discard my input and load the saved data' })
              .click();
            await expect(objectField(page, 'Name in formulas')).toHaveValue(THEIR_NAME);
            await expect(objectField(page, 'Label')).toHaveValue('Driver');
          },
          'resolve.keepMine': async () => {
            await renameDialog(page).getByRole('button', { name: 'Save my input over it' }).click();
          },
          'resolve.merge': async () => {
            const myLabel = await objectField(page, 'Label').inputValue();
            await renameDialog(page)
              .getByRole('button', { name: /^Combine/ })
              .click();
            // Their name (this user left it alone), this user's label.
            await expect(objectField(page, 'Name in formulas')).toHaveValue(THEIR_NAME);
            await expect(objectField(page, 'Label')).toHaveValue(myLabel);
          },
          ...ANSWERS,
        },
      });
    } finally {
      await api.dispose();
    }
  });
}
