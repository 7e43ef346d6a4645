import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, displayDay, isoDay } from './policy-setup.ts';

// The workflow monitor (issue 17): the list with its filters in the address, an instance's page
// with the path it took, retry and complete-task. The admin may run workflows.
const ADMIN = 'admin@demo.test';
const PM = '/api/0/processmanager/v1';

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const table = (page: Page, name = 'Workflow instances') =>
  page.getByRole('table', { name, exact: true });

/** The diagram's element by its BPMN id, once bpmn-js has drawn it. */
const element = (page: Page, id: string) =>
  page.getByTestId('instance-diagram').locator(`.djs-element[data-element-id="${id}"]`);

async function choose(page: Page, language: 'pl') {
  await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

test.describe('workflow monitor', () => {
  // 8 to 10 s each on a quiet box (measured 2026-11-27 at one worker); the shared box's load
  // stretches sign-in and axe.
  test.describe.configure({ timeout: 45_000 });

  test('po polsku: nieudane instancje, ścieżka z błędem, ponowienie kończy instancję', async ({
    page,
  }) => {
    await signIn(page, ADMIN);
    await page.goto('/u/0/management/workflow-monitor/policy-termination');
    await choose(page, 'pl');
    await expect(page.getByRole('heading', { level: 1, name: 'Monitor przepływów' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Przepływ' })).toHaveValue(
      'policy-termination',
    );

    // Failed ones only: the address keeps the choice.
    await page.getByRole('checkbox', { name: 'Nieudana' }).check();
    await expect(page).toHaveURL(/\/workflow-monitor\/policy-termination\?status=failed$/);
    const list = table(page, 'Instancje przepływów');
    const links = list.getByRole('link', { name: /^wfi_/ });
    await expect(links.first()).toBeVisible();
    await expect(list.getByText('Zakończona', { exact: true })).toHaveCount(0);
    await expect(list.getByText('Nieudana', { exact: true }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The oldest: other specs retry from the top of the list.
    await links.last().click();
    await expect(page.getByRole('heading', { level: 1, name: /^Instancja wfi_/ })).toBeVisible();
    await expect(page.getByTestId('instance-status')).toHaveText('Nieudana');
    await expect(page.getByTestId('instance-failed-at')).toHaveText('Send termination letter');
    await expect(page.getByTestId('instance-error')).toContainText('not reachable');
    // The path up to the failed letter, the letter in red with the error beside it.
    await expect(page.getByTestId('instance-diagram')).toHaveAttribute('data-state', 'drawn');
    await expect(element(page, 'letter')).toHaveClass(/wfm-failed/);
    await expect(element(page, 'f1')).toHaveClass(/wfm-executed/);
    await expect(element(page, 'end')).not.toHaveClass(/wfm-executed/);
    await expect(page.locator('.wfm-error')).toContainText('not reachable');
    await expect(page.getByTestId('instance-history')).toContainText('Rozpoczęto');
    await expectNoSeriousA11yViolations(page);

    await page.getByTestId('instance-actions').getByRole('button', { name: 'Ponów' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ponowić tę instancję?' });
    await expect(dialog.getByRole('button', { name: 'Anuluj', exact: true })).toBeFocused();
    await dialog.getByRole('button', { name: 'Ponów', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('instance-status')).toHaveText('Zakończona');
    await expect(page.getByTestId('instance-outcome')).toHaveText(
      'Instancja została uruchomiona ponownie: ma teraz status Zakończona.',
    );
    // The whole path now: the letter sent, the end reached; nothing failed, no action left.
    await expect(element(page, 'letter')).toHaveClass(/wfm-executed/);
    await expect(element(page, 'letter')).not.toHaveClass(/wfm-failed/);
    await expect(element(page, 'f2')).toHaveClass(/wfm-executed/);
    await expect(element(page, 'end')).toHaveClass(/wfm-executed/);
    await expect(page.getByTestId('instance-error')).toHaveCount(0);
    await expect(page.getByTestId('instance-actions')).toHaveCount(0);
    await expect(page.getByTestId('instance-history')).toContainText('Zakończono');
  });

  test('a claim created in the form starts claim intake: found by its code, shown waiting, its task completed', async ({
    page,
  }) => {
    await signIn(page, ADMIN);
    const policy = await createHomePolicy(page, {
      firstName: 'Wanda',
      lastName: `Fluss ${stamp()}`,
    });
    await page.goto('/u/0/claims/new');
    await expect(page.getByRole('heading', { level: 1, name: 'New claim' })).toBeVisible();
    const picker = page.getByRole('combobox', { name: 'Policy' });
    await picker.click();
    await picker.fill(policy.number);
    await page.getByRole('option', { name: new RegExp(`^${policy.number}`) }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill(`Hail ${stamp()}`);
    await page.getByRole('combobox', { name: 'Claim type' }).selectOption({ label: 'Damage' });
    await page.getByRole('textbox', { name: 'Date of damage' }).fill(displayDay(isoDay(-2)));
    await page.getByRole('textbox', { name: 'Damage location' }).fill('Garten');
    // Over 1 000 EUR: the routing table sends it to a person.
    await page.getByRole('textbox', { name: 'Estimated damage (EUR)' }).fill('1500');
    await page.getByRole('button', { name: 'Create claim' }).click();
    await expect(page).toHaveURL(/\/u\/0\/claims\/clm_[A-Za-z0-9]+$/);
    const claimCode = page.url().split('/').at(-1)!;

    // The event starts the workflow a moment after the claim's answer. Claim intake's only:
    // a workflow another spec drew and bound to the same event starts beside it.
    await expect
      .poll(async () => {
        const filter = encodeURIComponent(`entityCode=${claimCode}`);
        const res = await page.request.get(`${PM}/workflow-instances?filter=${filter}`);
        const { items } = (await res.json()) as { items: { workflow: { code: string } }[] };
        return items.filter((i) => i.workflow.code === 'claim-intake').length;
      })
      .toBe(1);

    await page.goto('/u/0/management/workflow-monitor/claim-intake');
    await page.getByRole('searchbox', { name: 'Entity code' }).fill(claimCode);
    await expect(page).toHaveURL(new RegExp(`[?&]entity=${claimCode}(&|$)`));
    const list = table(page);
    await expect(list.getByRole('row')).toHaveCount(2);
    await expect(list.getByRole('row').nth(1)).toContainText('Claim intake, version 2');
    await expect(list.getByRole('row').nth(1)).toContainText('Active');
    await expect(list.getByRole('link', { name: `Claim ${claimCode}` })).toHaveAttribute(
      'href',
      `/u/0/claims/${claimCode}`,
    );

    // Created within these days (the tenant's days): still there; from the day after tomorrow: none.
    await page.getByRole('textbox', { name: 'Created from' }).fill(displayDay(isoDay(-1)));
    await page.getByRole('textbox', { name: 'Created to' }).fill(displayDay(isoDay(1)));
    await expect(page).toHaveURL(/[?&]to=\d{4}-\d{2}-\d{2}(&|$)/);
    await expect(list.getByRole('row')).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Created from' }).fill(displayDay(isoDay(2)));
    await expect(page.getByRole('alert')).toHaveText(
      'The end date lies before the start date: the dates are not applied.',
    );
    await page.getByRole('textbox', { name: 'Created to' }).fill(displayDay(isoDay(3)));
    await expect(page.getByText('No workflow instances match the filters.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Created from' }).fill('31.02.2026');
    await expect(page.getByText('Please enter a valid date (DD.MM.YYYY)')).toBeVisible();
    await page.getByRole('button', { name: 'Clear date' }).first().click();
    await page.getByRole('button', { name: 'Clear date' }).last().click();
    await expect(list.getByRole('row')).toHaveCount(2);

    await list.getByRole('link', { name: /^wfi_/ }).click();
    await expect(page.getByTestId('instance-status')).toHaveText('Active');
    await expect(page.getByTestId('instance-entity')).toHaveText(claimCode);
    // The token waits in the user task; the rule task's answer is a variable.
    await expect(page.getByTestId('instance-diagram')).toHaveAttribute('data-state', 'drawn');
    await expect(element(page, 'assess')).toHaveClass(/wfm-current/);
    await expect(element(page, 'route')).toHaveClass(/wfm-executed/);
    await expect(element(page, 'review')).not.toHaveClass(/wfm-executed/);
    await expect(page.locator('.wfm-badge-current')).toHaveText('waiting');
    await expect(page.getByTestId('instance-variables')).toContainText('"manual"');
    await expectNoSeriousA11yViolations(page);

    await page
      .getByTestId('instance-actions')
      .getByRole('button', { name: 'Complete task “Assess claim”' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Complete the task “Assess claim”?' });
    await dialog.getByRole('button', { name: 'Complete task', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('instance-status')).toHaveText('Completed');
    await expect(page.getByTestId('instance-outcome')).toHaveText(
      'The task is completed: the instance is Completed now.',
    );
    await expect(element(page, 'end')).toHaveClass(/wfm-executed/);
    await expect(page.locator('.wfm-badge-current')).toHaveCount(0);
  });

  test("the 'Unselected' status gives an empty list without asking the service", async ({
    page,
  }) => {
    await signIn(page, ADMIN);
    await page.goto('/u/0/management/workflow-monitor');
    const list = table(page);
    await expect(list.getByRole('link', { name: /^wfi_/ }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/workflow-instances?')) asked.push(r.url());
    });
    await page.getByRole('checkbox', { name: 'Failed' }).check();
    await expect(page).toHaveURL(/[?&]status=failed(&|$)/);
    await expect(list.getByText('Failed', { exact: true }).first()).toBeVisible();
    const before = asked.length;
    await page.getByRole('checkbox', { name: 'Unselected' }).check();
    // Unselected stands alone.
    await expect(page.getByRole('checkbox', { name: 'Failed' })).not.toBeChecked();
    await expect(page).toHaveURL(/[?&]status=unselected(&|$)/);
    await expect(page.getByText('No workflow instances match the filters.')).toBeVisible();
    expect(asked.length).toBe(before);
    await expectNoSeriousA11yViolations(page);
  });
});
