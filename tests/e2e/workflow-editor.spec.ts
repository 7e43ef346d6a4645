import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

/**
 * The workflow editor in German (issue 17): a workflow drawn with the palette's context pad and
 * the properties panel, saved, found in the list, opened again, changed into version 2 and
 * compared; a save the process manager refuses keeps the drawing and says why.
 */

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function inGerman(page: Page) {
  await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
}

const canvasElement = (page: Page, id: string) =>
  page.locator(`.djs-element[data-element-id="${id}"]`).first();
const contextPad = (page: Page, action: string) =>
  page.locator(`.djs-context-pad .entry[data-action="${action}"]`);
const panel = (page: Page) => page.getByRole('region', { name: 'Eigenschaften' });

/** Start event -> a service task of `type` named `name` -> end event, from the new diagram. */
async function drawServiceTask(page: Page, name: string, type: string) {
  await canvasElement(page, 'StartEvent_1').click();
  // bpmn-js's own tooltips in German (bpmn-translate.ts).
  await expect(contextPad(page, 'append.append-task')).toHaveAttribute('title', 'Aufgabe anhängen');
  await contextPad(page, 'append.append-task').click();
  // bpmn-js selects what it appended (and may open its label for typing: Escape closes it).
  await page.keyboard.press('Escape');
  const properties = panel(page);
  await expect(properties.getByText(/^Aufgabe · /)).toBeVisible();
  await properties.getByLabel('Name', { exact: true }).fill(name);
  await properties.getByLabel('Art der Aufgabe').selectOption('bpmn:ServiceTask');
  await expect(properties.getByText(/^Serviceaufgabe · /)).toBeVisible();
  await properties.getByLabel('Aufgabentyp').selectOption(type);
}

test.describe('der Workflow-Editor', () => {
  test('zeichnet einen Workflow, speichert ihn, findet ihn in der Liste und vergleicht Version 2 mit 1', async ({
    page,
  }) => {
    // Two versions drawn and saved, the list, three axe runs: about 30 s on a quiet box.
    test.setTimeout(150_000);
    const id = stamp();
    const name = `E2E Brief ${id}`;
    await signIn(page, 'admin@demo.test');
    await inGerman(page);
    await page.goto('/u/0/management/workflow-editor/new');
    await expect(page.getByRole('heading', { level: 1, name: 'Neuer Workflow' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // bpmn-js's own texts in German too: the palette's entries (the context pad's below).
    const diagram = page.getByRole('region', { name: 'Workflow-Diagramm' });
    await expect(diagram.getByRole('button', { name: 'Aufgabe erstellen' })).toBeVisible();

    await page.getByLabel('Name des Workflows').fill(name);
    await page.getByLabel('Code (optional)').fill(`e2e-${id}`);
    await drawServiceTask(page, 'Brief senden', 'notification.sendEmail');
    // The type's parameters are offered; saving without the needed ones is refused here.
    await page.getByRole('button', { name: 'Als neue Version speichern' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Der Parameter to fehlt' }),
    ).toBeVisible();
    await panel(page).getByLabel('Wert von to').fill('e2e-brief@demo.test');
    await panel(page).getByLabel('Wert von subject').fill('Hallo {entityCode}');
    const task = panel(page).getByText(/^Serviceaufgabe · /);
    const taskId = ((await task.textContent()) ?? '').split(' · ')[1]!;
    await contextPad(page, 'append.end-event').click();
    await expect(page.getByText('Ungespeicherte Änderungen')).toBeVisible();

    await page.getByRole('button', { name: 'Als neue Version speichern' }).click();
    await expect(page).toHaveURL(new RegExp(`/management/workflow-editor/e2e-${id}$`));
    await expect(page.getByText('Version 1 gespeichert.')).toBeVisible();
    await expect(page.getByTestId('wf-version')).toHaveText('Version 1 von 1');

    // The list finds it by its name.
    await page.goto('/u/0/management/workflow-editor');
    await expect(page.getByRole('heading', { level: 1, name: 'Workflows' })).toBeVisible();
    await page.getByLabel('Workflows suchen').fill(id);
    // The search reaches the address first; a click before that would be undone by it.
    await expect(page).toHaveURL(new RegExp(`search=${id}`));
    const link = page.getByRole('link', { name });
    await expect(link).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await link.click();
    await expect(page.getByTestId('wf-version')).toHaveText('Version 1 von 1');
    await expect(canvasElement(page, taskId)).toBeVisible();

    // Version 2: the task renamed; the comparison names it and marks it on the diagram.
    await panel(page).getByLabel('Element').selectOption(taskId);
    await panel(page).getByLabel('Name', { exact: true }).fill('Brief an den Kunden');
    await page.getByRole('button', { name: 'Als neue Version speichern' }).click();
    await expect(page.getByText('Version 2 gespeichert.')).toBeVisible();
    await expect(page.getByTestId('wf-version')).toHaveText('Version 2 von 2');
    await page.getByRole('button', { name: 'Mit der vorigen Version vergleichen (1)' }).click();
    await expect(page.getByTestId('wf-changes')).toContainText(
      '„Brief senden“ umbenannt in „Brief an den Kunden“',
    );
    await expect(page.locator(`.djs-element.wf-changed[data-element-id="${taskId}"]`)).toHaveCount(
      1,
    );
    await expectNoSeriousA11yViolations(page);

    // Bound to a domain event: each such event starts an instance (a mail to a test address).
    await page
      .getByRole('button', { name: 'Starten, wenn sich der Status eines Leads ändert' })
      .click();
    await expect(page.getByTestId('wf-bound-lead_status_changed')).toHaveText(
      'Startet, wenn sich der Status eines Leads ändert',
    );

    // Version 1 is shown read-only, with the way to the latest.
    await page.goto(`/u/0/management/workflow-editor/e2e-${id}/1`);
    await expect(page.getByText('Sie sehen Version 1')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Als neue Version speichern' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Neueste Version öffnen (2)' }).click();
    await expect(page.getByTestId('wf-version')).toHaveText('Version 2 von 2');
  });

  test('eine abgelehnte Speicherung zeigt den Grund übersetzt und behält die Zeichnung; Verlassen fragt nach', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    // The registry is offered a type the process manager does not run: its refusal is real.
    await page.route('**/processmanager/v1/service-event/types', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { taskTypes: string[] };
      await route.fulfill({
        response,
        json: { ...body, taskTypes: [...body.taskTypes, 'fax.send'] },
      });
    });
    await signIn(page, 'admin@demo.test');
    await inGerman(page);
    await page.goto('/u/0/management/workflow-editor/new');
    await page.getByLabel('Name des Workflows').fill(`E2E Fax ${stamp()}`);
    await drawServiceTask(page, 'Fax senden', 'fax.send');

    await page.getByRole('button', { name: 'Als neue Version speichern' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Der Prozessmanager kennt einen Aufgabentyp des Diagramms nicht.' }),
    ).toBeVisible();
    await expect(page.getByTestId('wf-error-detail')).toContainText('fax.send');
    // Nothing lost: still the new workflow, the task as drawn.
    await expect(page).toHaveURL(/\/workflow-editor\/new$/);
    await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue('Fax senden');

    // Leaving asks; staying keeps everything.
    await page
      .getByRole('navigation', { name: 'Brotkrumennavigation' })
      .getByRole('link', { name: 'Workflows', exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Ohne Speichern verlassen?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(page).toHaveURL(/\/workflow-editor\/new$/);
    await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue('Fax senden');
  });
});
