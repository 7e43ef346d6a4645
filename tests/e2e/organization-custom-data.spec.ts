import type { APIRequestContext } from '@playwright/test';
import { apiAs, expect, signIn, test } from './fixtures.ts';

/**
 * Issue 16, defect 5, in German: an organisation's custom data reads a yes/no as "Ja"/"Nein" and a
 * list by its entries, and is edited after creation (list checkboxes, one entry per line).
 */

const TENANT = '/api/0/tenantservice/v1';
/** Fields of this spec's own, none required, so that other forms reading the schema still pass. */
const FIELDS = [
  { name: 'certified', label: 'Zertifiziert', type: 'boolean' },
  { name: 'lines', label: 'Sparten', type: 'array', options: ['Kfz', 'Hausrat', 'Reise'] },
  { name: 'branches', label: 'Niederlassungen', type: 'array' },
];

type Schema = { fields: { name: string }[]; version: number };
const organizationSchema = async (api: APIRequestContext): Promise<Schema> => {
  const res = await api.get(`${TENANT}/custom-schemas?entity=organization`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { items: Schema[] }).items[0]!;
};
const saveSchema = async (api: APIRequestContext, fields: unknown[]) => {
  const { version } = await organizationSchema(api);
  const res = await api.put(`${TENANT}/custom-schemas/organization`, {
    data: { fields, version },
  });
  expect(res.status(), await res.text()).toBe(200);
};

test('Zusatzdaten einer Organisation: Ja/Nein, Listen, nach dem Anlegen bearbeitet', async ({
  page,
  baseURL,
}) => {
  const api = await apiAs(baseURL!, 'admin@demo.test');
  const seeded = (await organizationSchema(api)).fields;
  await saveSchema(api, [
    ...seeded.filter((f) => !FIELDS.some((g) => g.name === f.name)),
    ...FIELDS,
  ]);
  try {
    const name = `Zusatzdaten ${Date.now()}`;
    const created = await api.post(`${TENANT}/organizations`, {
      data: {
        name,
        street: 'Ringstraße',
        houseNumber: '7',
        zipCode: '04109',
        city: 'Leipzig',
        country: 'Deutschland',
        customFields: {
          registrationNumber: 'HRB 1616',
          certified: true,
          lines: ['Kfz', 'Hausrat'],
          branches: ['Leipzig', 'Halle'],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = ((await created.json()) as { organization: { id: number } }).organization;

    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.goto(`/u/0/admin/organizations/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Zusatzdaten' })).toBeVisible();

    const values = page.getByTestId('org-custom-values');
    const shown = (label: string) =>
      values.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    await expect(shown('Zertifiziert')).toHaveText('Ja');
    await expect(shown('Sparten')).toHaveText('Kfz, Hausrat');
    await expect(shown('Niederlassungen')).toHaveText('Leipzig, Halle');

    // Edited after creation: the yes/no, the list's checkboxes, a list typed one entry per line.
    const form = page.getByRole('form', { name: 'Zusatzdaten' });
    const certified = form.getByRole('checkbox', { name: 'Zertifiziert' });
    await expect(certified).toBeChecked();
    await certified.uncheck();
    const lines = form.getByRole('group', { name: 'Sparten' });
    await expect(lines.getByRole('checkbox', { name: 'Kfz' })).toBeChecked();
    await expect(lines.getByRole('checkbox', { name: 'Hausrat' })).toBeChecked();
    await expect(lines.getByRole('checkbox', { name: 'Reise' })).not.toBeChecked();
    await lines.getByRole('checkbox', { name: 'Kfz' }).uncheck();
    await lines.getByRole('checkbox', { name: 'Reise' }).check();
    const branches = form.getByRole('textbox', { name: 'Niederlassungen' });
    await expect(branches).toHaveValue('Leipzig\nHalle');
    await branches.press('Control+End');
    await branches.press('Enter');
    await branches.pressSequentially('Dresden');
    await expect(branches).toHaveValue('Leipzig\nHalle\nDresden');

    await form.getByRole('button', { name: 'Zusatzdaten speichern' }).click();
    await expect(page.getByText('Zusatzdaten gespeichert.')).toBeVisible();
    await expect(shown('Zertifiziert')).toHaveText('Nein');
    await expect(shown('Sparten')).toHaveText('Hausrat, Reise');
    await expect(shown('Niederlassungen')).toHaveText('Leipzig, Halle, Dresden');

    await page.reload();
    await expect(shown('Zertifiziert')).toHaveText('Nein');
    await expect(shown('Sparten')).toHaveText('Hausrat, Reise');
    await expect(shown('Niederlassungen')).toHaveText('Leipzig, Halle, Dresden');
    await expect(form.getByRole('checkbox', { name: 'Zertifiziert' })).not.toBeChecked();
    await expect(lines.getByRole('checkbox', { name: 'Reise' })).toBeChecked();
    await expect(branches).toHaveValue('Leipzig\nHalle\nDresden');

    // Saved meanwhile elsewhere (another tab, through the API): this form's save is a conflict,
    // shown with the organisation as saved now, which it then loads.
    const meanwhile = {
      registrationNumber: 'HRB 1616',
      certified: true,
      lines: ['Hausrat', 'Reise'],
      branches: ['Leipzig', 'Halle', 'Dresden'],
    };
    const elsewhere = await api.put(`${TENANT}/organizations/${id}`, {
      data: {
        street: 'Ringstraße',
        houseNumber: '7',
        zipCode: '04109',
        city: 'Leipzig',
        country: 'Deutschland',
        customFields: meanwhile,
        version: 2,
      },
    });
    expect(elsewhere.status(), await elsewhere.text()).toBe(200);
    await lines.getByRole('checkbox', { name: 'Kfz' }).check();
    await form.getByRole('button', { name: 'Zusatzdaten speichern' }).click();
    const conflict = page.getByRole('alert', {
      name: 'Dieser Datensatz wurde in einem anderen Tab geändert',
    });
    await expect(conflict).toBeVisible();
    await conflict
      .getByRole('button', { name: 'Meine Eingaben verwerfen und die gespeicherten Daten laden' })
      .click();
    await expect(conflict).toHaveCount(0);
    await expect(shown('Zertifiziert')).toHaveText('Ja');
    await expect(form.getByRole('checkbox', { name: 'Zertifiziert' })).toBeChecked();
    await expect(lines.getByRole('checkbox', { name: 'Kfz' })).not.toBeChecked();

    const saved = await api.get(`${TENANT}/organizations/${id}`);
    expect(((await saved.json()) as { organization: unknown }).organization).toMatchObject({
      version: 3,
      customFields: meanwhile,
    });
  } finally {
    // The schema as it was: other specs' organisation forms read it.
    await saveSchema(api, seeded);
    await api.dispose();
  }
});
