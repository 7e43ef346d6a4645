import type { Page } from '@playwright/test';
import {
  colleague,
  expect,
  expectNoSeriousA11yViolations,
  fillSignIn,
  signIn,
  test,
} from './fixtures.ts';

// A seeded product manager no other spec signs in with: this spec signs their session out.
const SIGNED_OUT = 'paul.hoffmann@demo.test';
// A seeded, active user no other spec uses: this spec flags and unflags their password.
const REQUIRED = 'viktor.jung21@demo.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function inGerman(page: Page) {
  await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
}

async function openUsers(page: Page) {
  await page.goto('/u/0/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Benutzer' })).toBeVisible();
}

async function outbox(page: Page, to: string) {
  const response = await page.request.get(`/sandbox/outbox?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { items: { subject: string; link: string | null }[] }).items;
}

test.describe('die Benutzerseite', () => {
  test('die Administratorin legt einen Benutzer direkt an, ändert seinen Namen und sieht Rollen und Berechtigungen', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, 'admin@demo.test');
    await inGerman(page);
    await openUsers(page);

    const email = `direkt.${stamp()}@demo.test`;
    await page.getByRole('button', { name: 'Benutzer anlegen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Einen Benutzer anlegen' });
    // Nothing typed: each field says so, the service is not asked.
    await dialog.getByRole('button', { name: 'Benutzer anlegen' }).click();
    await expect(dialog.getByText('Vorname ist ein Pflichtfeld')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Vorname' }).fill('Dora');
    await dialog.getByRole('textbox', { name: 'Nachname' }).fill('Direkt');
    await dialog.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill(email);
    await dialog.getByRole('checkbox', { name: 'Nur lesen' }).check();
    await dialog.getByRole('button', { name: 'Benutzer anlegen' }).click();

    // The new user's page opens; the set-password e-mail is in the outbox.
    await expect(page).toHaveURL(/\/u\/0\/admin\/users\/\d+(#.*)?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dora Direkt' })).toBeVisible();
    const [mail] = await outbox(page, email);
    expect(mail?.subject).toBe('Ihr Konto ist eingerichtet');
    expect(mail?.link).toMatch(/^http:\/\/[^/]+\/account\/resetpassword\?resetToken=/);

    // Edit the name, on top of the version shown.
    await page.getByRole('textbox', { name: 'Vorname' }).fill('Doris');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Der Benutzer wurde gespeichert.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Doris Direkt' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The history names the administrator and the changed field; newest first, then the creation.
    await page.getByRole('tab', { name: 'Verlauf' }).click();
    const rows = page.getByTestId('history').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Ada Admin');
    await expect(rows.nth(0)).toContainText('Geändert');
    await expect(rows.nth(0)).toContainText(/Vorname: Dora →.* Doris/);
    await expect(rows.nth(1)).toContainText('Angelegt');
    await expect(page.locator('body')).not.toContainText('usr_');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'Rollen und Berechtigungen' }).click();
    await expect(page.getByTestId('user-roles')).toHaveText('Nur lesen');
    await expect(page.getByText('tenant-management.users.view')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('eine vergebene E-Mail-Adresse wird am Feld abgelehnt, und nichts geht verloren', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    await inGerman(page);
    await openUsers(page);
    await page.getByRole('button', { name: 'Benutzer anlegen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Einen Benutzer anlegen' });
    await dialog.getByRole('textbox', { name: 'Vorname' }).fill('Zweite');
    await dialog.getByRole('textbox', { name: 'Nachname' }).fill('Ada');
    // The administrator's own address: the service refuses it at the field (409 email_taken).
    const email = dialog.getByRole('textbox', { name: 'E-Mail-Adresse' });
    await email.fill('admin@demo.test');
    await dialog.getByRole('button', { name: 'Benutzer anlegen' }).click();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(
      /Ein anderer Benutzer hat diese E-Mail-Adresse bereits\./,
    );
    await expect(dialog.getByRole('alert')).toContainText(
      'Ein anderer Benutzer hat diese E-Mail-Adresse bereits.',
    );
    // The dialog stays open with what was typed.
    await expect(dialog.getByRole('textbox', { name: 'Vorname' })).toHaveValue('Zweite');
    await expect(email).toHaveValue('admin@demo.test');
    await expectNoSeriousA11yViolations(page);
  });

  test('die Administratorin meldet eine Sitzung eines Benutzers ab; dessen Browser ist sofort abgemeldet', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const other = await colleague(browser, SIGNED_OUT);
    try {
      await signIn(page, 'admin@demo.test');
      await inGerman(page);
      await openUsers(page);
      await page.getByLabel('Benutzer suchen').fill(SIGNED_OUT);
      // The found user alone, so that the click does not land on a row of the list going away.
      await expect(page.getByRole('link', { name: /^Benutzerseite von / })).toHaveCount(1);
      await page.getByRole('link', { name: `Benutzerseite von ${SIGNED_OUT} öffnen` }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Paul Hoffmann' })).toBeVisible();

      await page.getByRole('tab', { name: 'Sitzungen' }).click();
      const sessions = page.getByRole('table', { name: 'Aktive Sitzungen' });
      const signOutButtons = sessions.getByRole('button', { name: /^Sitzung vom .* abmelden$/ });
      await expect(signOutButtons.first()).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      // A retry finds the first try's session too: every session is signed out, one by one.
      for (let left = await signOutButtons.count(); left > 0; left -= 1) {
        await signOutButtons.first().click();
        const confirm = page.getByRole('dialog', { name: 'Diese Sitzung abmelden?' });
        await confirm.getByRole('button', { name: 'Abmelden' }).click();
        await expect(page.getByText('Die Sitzung wurde abgemeldet.')).toBeVisible();
        await expect(signOutButtons).toHaveCount(left - 1);
      }
      await expect(
        page.getByText('Dieser Benutzer hat in diesem Arbeitsbereich keine aktive Sitzung.'),
      ).toBeVisible();

      // The signed-out browser's next call is refused and its account gone.
      await expect
        .poll(async () =>
          (await other.page.request.get('/api/0/tenantservice/v1/general')).status(),
        )
        .toBe(401);
      await other.page.reload();
      await expect(other.page).toHaveURL(/\/login/);
    } finally {
      await other.close();
    }
  });

  test('die Administratorin sendet eine E-Mail zum Zurücksetzen und verlangt eine Passwortänderung, die der Benutzer dann vornehmen muss', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, 'admin@demo.test');
    await inGerman(page);
    await openUsers(page);
    await page.getByLabel('Benutzer suchen').fill(REQUIRED);
    await expect(page.getByRole('link', { name: /^Benutzerseite von / })).toHaveCount(1);
    await page.getByRole('link', { name: `Benutzerseite von ${REQUIRED} öffnen` }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Viktor Jung' })).toBeVisible();
    const required = page.getByTestId('required-action');
    await expect(required).toHaveText('Bei der nächsten Anmeldung ist nichts erforderlich.');

    // The reset e-mail, behind the confirmation that names the address.
    await page
      .getByRole('button', { name: 'E-Mail zum Zurücksetzen des Passworts senden' })
      .click();
    const resetDialog = page.getByRole('dialog', { name: 'E-Mail zum Zurücksetzen senden?' });
    await expect(resetDialog).toContainText(REQUIRED);
    await expectNoSeriousA11yViolations(page);
    await resetDialog.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(
      page.getByText('Die E-Mail zum Zurücksetzen des Passworts wurde gesendet.'),
    ).toBeVisible();
    const [mail] = await outbox(page, REQUIRED);
    expect(mail?.subject).toBe('Passwort zurücksetzen');
    expect(mail?.link).toMatch(/^http:\/\/[^/]+\/account\/resetpassword\?resetToken=/);

    // The required action: the page says it at once, and the user's next sign-in asks for it.
    await page
      .getByRole('button', { name: 'Passwortänderung bei der nächsten Anmeldung verlangen' })
      .click();
    await page
      .getByRole('dialog', { name: 'Passwortänderung verlangen?' })
      .getByRole('button', { name: 'Bestätigen' })
      .click();
    await expect(required).toHaveText('Bei der nächsten Anmeldung erforderlich: Passwort ändern.');
    await page.reload();
    await expect(required).toHaveText('Bei der nächsten Anmeldung erforderlich: Passwort ändern.');

    const context = await browser.newContext();
    try {
      const user = await context.newPage();
      await user.goto('/login');
      await fillSignIn(user, REQUIRED);
      await expect(user).toHaveURL(/\/u\/0\/changepassword$/);
    } finally {
      await context.close();
    }

    // Taken back, the next sign-in goes straight in.
    await page.getByRole('button', { name: 'Verlangte Passwortänderung aufheben' }).click();
    await page
      .getByRole('dialog', { name: 'Verlangte Passwortänderung aufheben?' })
      .getByRole('button', { name: 'Bestätigen' })
      .click();
    await expect(required).toHaveText('Bei der nächsten Anmeldung ist nichts erforderlich.');
    const again = await colleague(browser, REQUIRED);
    await expect(again.page).toHaveURL(/\/u\/0\/home$/);
    await again.close();
  });
});
