import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, displayDay, isoDay } from './policy-setup.ts';

const INSURANCE = '/api/0/insuranceservice/v1';
const CLAIMS = '/api/0/claimservice/v1';
const CSRF = { 'X-CSRF': '1' };
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test.describe('the cover override on a new claim', () => {
  test('a claim on a withdrawn policy is refused with the reason; the admin ticks the override, files it, and the override is recorded', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The administrator holds claim-management.cover-overrides.create (customer care does not).
    await signIn(page, 'admin@demo.test');
    const policy = await createHomePolicy(page, {
      firstName: 'Otto',
      lastName: `Ohnedeckung ${stamp()}`,
    });
    // Withdrawn: void from the start, so no day of its term is covered any more.
    const read = await page.request.get(`${INSURANCE}/policies/${policy.code}`);
    expect(read.status()).toBe(200);
    const { currentVersionId } = (await read.json()).policy;
    const withdrawn = await page.request.post(`${INSURANCE}/policies/${policy.code}/withdraw`, {
      headers: CSRF,
      data: { basedOnVersionId: currentVersionId, reason: 'Cooling-off period' },
    });
    expect(withdrawn.status()).toBe(200);

    await page.goto('/u/0/claims/new');
    await expect(page.getByRole('heading', { level: 1, name: 'New claim' })).toBeVisible();
    const picker = page.getByRole('combobox', { name: 'Policy' });
    await picker.click();
    await picker.fill(policy.number);
    await page.getByRole('option', { name: new RegExp(`^${policy.number}`) }).click();
    const title = `Water damage ${stamp()}`;
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page.getByRole('combobox', { name: 'Claim type' }).selectOption({ label: 'Damage' });
    await page.getByRole('textbox', { name: 'Date of damage' }).fill(displayDay(isoDay(-2)));
    await page.getByRole('textbox', { name: 'Damage location' }).fill('Bad');
    await page.getByRole('textbox', { name: 'Estimated damage (EUR)' }).fill('800');

    // Refused by the claim service's cover check, said in words at the date.
    await page.getByRole('button', { name: 'Create claim' }).click();
    await expect(
      page.getByText(
        'The policy gives no cover on the date of loss (not in force, withdrawn or terminated before).',
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/claims\/new$/);

    // The override wants a reason; with it, the claim is filed.
    const override = page.getByRole('checkbox', {
      name: 'Register despite missing cover (cover override)',
    });
    await override.check();
    const reason = `Goodwill after the storm ${stamp()}`;
    await page.getByRole('textbox', { name: 'Reason for the cover override' }).fill(reason);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Create claim' }).click();
    await expect(page).toHaveURL(/\/u\/0\/claims\/clm_[A-Za-z0-9]+$/);
    await expect(page.getByTestId('claim-title')).toHaveText(title);

    // The audit: who, when and why, on the claim and in the service's answer.
    const shown = page.getByTestId('claim-cover-override');
    await expect(shown).toContainText('Cover overridden on');
    await expect(shown).toContainText(reason);
    await expect(shown).toContainText('Ada Admin');
    const code = new URL(page.url()).pathname.split('/').at(-1)!;
    const claim = (await (await page.request.get(`${CLAIMS}/claims/${code}`)).json()).claim;
    expect(claim.coverOverride).toMatchObject({
      codes: ['no_cover_on_loss_date'],
      reason,
    });
    expect(claim.coverOverride.by).toBeTruthy();

    // The history names the refusal set aside and the reason in words, beside who.
    await page.getByRole('tab', { name: 'History' }).click();
    const line = page
      .getByTestId('history')
      .getByRole('row')
      .filter({ hasText: 'Cover overridden' });
    await expect(line).toContainText('Ada Admin');
    await expect(line).toContainText('Refusals set aside');
    await expect(line).toContainText('The policy gives no cover on the date of loss');
    await expect(line).toContainText('Reason for the override');
    await expect(line).toContainText(reason);
  });
});
