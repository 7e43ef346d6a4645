import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

/**
 * The BPMN example (spec route /management/bpmn-example, issue 17): the example workflow drawn
 * read-only beside the conventions, opened in the editor as a new workflow, and saved there as it
 * is: the process manager takes what the page teaches.
 */

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const drawn = (page: Page, canvas: string, id: string) =>
  page
    .getByRole('region', { name: canvas, exact: true })
    .locator(`.djs-element[data-element-id="${id}"]`)
    .first();

test('the BPMN example shows its diagram and opens in the editor as a new workflow', async ({
  page,
}) => {
  // Two bpmn-js canvases, a save and an axe run: 6 to 9 s on a quiet box (measured 2026-11-27
  // at one worker), twice that on a loaded one.
  test.setTimeout(45_000);
  await signIn(page, 'admin@demo.test');
  await page.goto('/u/0/management/bpmn-example');
  await expect(page.getByRole('heading', { level: 1, name: 'BPMN example' })).toBeVisible();
  // Laid out and drawn: the events, tasks and timer, and the gateway's two flows (a straight
  // flow's box has no height, so it is drawn but not "visible" to Playwright).
  for (const id of ['start', 'route', 'fastTrack', 'approve', 'wait', 'remind', 'reminded']) {
    await expect(drawn(page, 'Example workflow diagram', id)).toBeVisible();
  }
  for (const id of ['f3', 'f4']) {
    await expect(drawn(page, 'Example workflow diagram', id)).toBeAttached();
  }
  await expect(page.getByText('The example could not be shown.')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Conventions' })).toBeVisible();
  await expect(page.locator('code', { hasText: 'dmn:claim-routing' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Open as a new workflow' }).click();
  await expect(page).toHaveURL(/\/u\/0\/management\/workflow-editor\/new$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New workflow' })).toBeVisible();
  await expect(page.getByLabel('Name of the workflow')).toHaveValue(
    'Claim routing (from the example)',
  );
  for (const id of ['route', 'approve', 'remind']) {
    await expect(drawn(page, 'Workflow diagram', id)).toBeVisible();
  }

  // Saved as it came: the service takes the example (its checks are the deployment's).
  const id = stamp();
  await page.getByLabel('Name of the workflow').fill(`E2E example ${id}`);
  await page.getByLabel('Code (optional)').fill(`e2e-example-${id}`);
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page).toHaveURL(new RegExp(`/management/workflow-editor/e2e-example-${id}$`));
  await expect(page.getByText('Version 1 saved.')).toBeVisible();
  await expect(drawn(page, 'Workflow diagram', 'route')).toBeVisible();

  // Version 2 does other work under the same names: the comparison says what, not only names.
  const panel = page.getByRole('region', { name: 'Properties' });
  await panel.getByLabel('Element').selectOption('wait');
  await panel.getByLabel('Waits for (ISO 8601)').fill('PT2H');
  await panel.getByLabel('Element').selectOption('remind');
  await panel.getByLabel('Value of subject').fill('Claim {entityCode} still waits');
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByText('Version 2 saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Compare with the previous version (1)' }).click();
  const changes = page.getByTestId('wf-changes');
  await expect(changes).toContainText('"One day later" now waits PT2H instead of P1D');
  // The panel offers the type's optional parameters too (text=, left empty).
  await expect(changes).toContainText(
    /"Remind the claims team" now does notification\.sendEmail \(to=claims@demo\.test, subject=Claim \{entityCode\} still waits[^)]*\) instead of notification\.sendEmail \(to=claims@demo\.test, subject=Claim \{entityCode\} waits\)/,
  );
  await expect(page.locator('.djs-element.wf-changed[data-element-id="wait"]')).toHaveCount(1);
});
