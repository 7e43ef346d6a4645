import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { isoToday } from '#common/claims.ts';
import { makePdf } from '#server/sandbox/services/document/demo-files.ts';
import { seededClaimDocument } from './document-setup.ts';
import { apiAs, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { startedCarPolicy } from './policy-setup.ts';

/**
 * A claims handler's way around claims and their documents in German and Polish: document search
 * with a product and a keyword, the /download/{s3Key} page, the partner page reached from a
 * claim, and the claim documents' time filter; texts, dates and numbers in the language.
 *
 * Demo users no other e2e spec signs in with: a show-only reader (it changes nothing) and a
 * customer-care handler who makes claims of their own. Other specs upload documents to claims
 * of their own at the same time, so nothing here counts rows that those could change.
 */
const READER = 'ben.horn1@demo.test';
const HANDLER = 'piotr.nowak15@demo.test';
const PRODUCT = 'Kfz-Versicherung Komfort';
const ZONE = 'Europe/Berlin';
const CLAIMS = '/api/0/claimservice/v1';

/** DD.MM.YYYY HH:mm:ss: the demo tenant's general settings (hh:mm:ss, read as 24 hours), in
 * both languages. */
const DATE_TIME = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;

async function choose(page: Page, language: 'de' | 'pl') {
  await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** One of the oldest seeded claims with a linked partner, and that partner. */
async function seededClaimPartner(api: APIRequestContext) {
  const claims = await api.get(`${CLAIMS}/claims?pageSize=20&order=createdAt:ASC`);
  expect(claims.ok()).toBe(true);
  for (const claim of (await claims.json()).items as { code: string; claimNumber: string }[]) {
    const filter = encodeURIComponent(`claimCode=${claim.code}`);
    const links = await api.get(
      `${CLAIMS}/claim-partners?pageSize=100&filter=${filter}&expand=partner,role`,
    );
    const items = (await links.json()).items as {
      partnerCode: string;
      partner: { displayName: string; partnerNumber: string } | null;
    }[];
    const linked = items.find((l) => l.partner);
    if (linked) return { claim, partner: { code: linked.partnerCode, ...linked.partner! } };
  }
  throw new Error('no seeded claim with a partner');
}

test.describe('claims and documents in German and Polish', () => {
  // Each signs in, reloads in the language and runs axe: near the 30 s default on a busy machine.
  test.describe.configure({ timeout: 90_000 });

  test('document search in German: a product, a keyword, German columns, kinds and dates', async ({
    page,
  }) => {
    await signIn(page, READER);
    await choose(page, 'de');
    await page
      .getByRole('navigation', { name: 'Hauptmenü' })
      .getByRole('link', { name: 'Dokumente', exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dokumente' })).toBeVisible();
    await expect(page.getByTestId('documents-choose-product')).toHaveText(
      'Wählen Sie ein Produkt, um seine Dokumente zu durchsuchen.',
    );

    const searches: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/searchable-documents?')) searches.push(new URL(r.url()));
    });
    await page.getByRole('combobox', { name: 'Produkt' }).selectOption({ label: PRODUCT });
    const results = page.getByRole('table', { name: 'Gefundene Dokumente' });
    await expect(results.getByRole('columnheader')).toHaveText([
      /^Dateiname/,
      'Inhaber',
      'Art',
      /^Erstellt/,
      'Datei',
    ]);
    await expect(results.getByRole('row').nth(1)).toBeVisible();

    // A keyword suggestion completes the word; the search asks for it within the product.
    const text = page.getByRole('combobox', { name: 'Suchtext' });
    await expect(text).toHaveAttribute('placeholder', 'Wörter in Name oder Beschreibung');
    await text.fill('dam');
    await page.getByRole('listbox').getByRole('option', { name: 'damage' }).click();
    await expect(text).toHaveValue('damage ');
    await expect.poll(() => searches.at(-1)?.searchParams.get('searchText')).toBe('damage');
    expect(searches.at(-1)!.searchParams.get('product')).toBe('car-comfort');
    expect(searches.at(-1)!.searchParams.get('ownerIds')).toBe('*');

    const first = results.getByRole('row').nth(1);
    await expect(first).toBeVisible();
    const cells = first.getByRole('cell');
    // The kind in German (the seeded matches are claim documents), the date as DD.MM.YYYY HH:mm.
    await expect(cells.nth(2)).toHaveText('Schadendokument');
    await expect(cells.nth(3)).toHaveText(DATE_TIME);
    const filename = (await cells.first().textContent())!;
    await expect(first.getByRole('button', { name: `${filename} herunterladen` })).toHaveText(
      'Herunterladen',
    );
    await expectNoSeriousA11yViolations(page);

    // A word nothing has: the German empty message instead of rows.
    await text.fill('zzzkeinwort');
    await expect(page.getByText('Kein Dokument passt zur Suche.')).toBeVisible();
  });

  for (const language of ['de', 'pl'] as const) {
    const texts = {
      de: {
        title: 'Download',
        close: 'Sie können dieses Fenster schließen.',
        back: 'Zurück zur Anwendung',
        error: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
      },
      pl: {
        title: 'Pobieranie',
        close: 'Możesz zamknąć to okno.',
        back: 'Wróć do aplikacji',
        error: 'Coś poszło nie tak. Spróbuj ponownie.',
      },
    }[language];

    test(`the /download/{s3Key} page in ${language === 'de' ? 'German' : 'Polish'}`, async ({
      page,
      baseURL,
    }) => {
      const api = await apiAs(baseURL!, READER);
      const doc = await seededClaimDocument(api);
      await api.dispose();
      await signIn(page, READER);
      await choose(page, language);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.goto(`/download/${encodeURIComponent(doc.s3Key)}`),
      ]);
      expect(download.suggestedFilename()).toBe(doc.filename);
      expect((await readFile((await download.path())!)).length).toBeGreaterThan(0);
      await expect(page.getByRole('heading', { level: 1, name: texts.title })).toBeVisible();
      await expect(page.getByRole('status')).toHaveText(texts.close);
      await expect(page.getByRole('link', { name: texts.back })).toHaveAttribute('href', '/u/0');
      // Spec: no navigation bar, header or footer.
      await expect(page.getByRole('navigation')).toHaveCount(0);
      await expect(page.getByRole('banner')).toHaveCount(0);
      await expect(page.getByRole('contentinfo')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);

      // A key outside the workspace: the generic danger alert in the language.
      await page.goto(`/download/${encodeURIComponent('nordlicht/claims/clm_x/doc_x.pdf')}`);
      await expect(page.getByRole('alert')).toHaveText(texts.error);
      await expect(page.getByRole('link', { name: texts.back })).toBeVisible();
    });
  }

  test('the partner page in Polish, opened from the claim it is linked to', async ({
    page,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, READER);
    const { claim, partner } = await seededClaimPartner(api);
    await api.dispose();
    await signIn(page, READER);
    await choose(page, 'pl');

    await page.goto(`/u/0/claims/${claim.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Szkoda ${claim.claimNumber}` }),
    ).toBeVisible();
    await page.getByRole('tab', { name: 'Partnerzy' }).click();
    const table = page.getByRole('table', { name: `Partnerzy szkody ${claim.claimNumber}` });
    await table.getByRole('link', { name: partner.displayName }).first().click();

    await expect(page).toHaveURL(new RegExp(`/u/0/partners/${partner.code}$`));
    await expect(page.getByRole('heading', { level: 1, name: partner.displayName })).toBeVisible();
    const facts = page.locator('main dl');
    await expect(facts.locator('dt')).toHaveText([
      'Nr partnera',
      'Typ',
      'Tagi',
      'Konto klienta',
      'Utworzono',
      'Zmieniono',
    ]);
    await expect(facts.locator('dd').first()).toHaveText(partner.partnerNumber);
    await expect(facts.locator('dd').nth(4)).toHaveText(DATE_TIME);
    await expect(page.getByRole('link', { name: 'Wróć do partnerów' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.goto('/u/0/partners/ptn_missing');
    await expect(page.getByText('Partner nie istnieje.')).toBeVisible();
  });

  test('a claim in Polish: its estimate with a decimal comma, its documents by time range', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // A claim of the handler's own, on an active car policy that started before today (a car
    // policy covers the water damage to the car; the cover check refuses types a product lacks).
    const api = await apiAs(baseURL!, HANDLER);
    const today = isoToday(ZONE);
    const policyCode = await startedCarPolicy(api, ZONE);
    const created = await api.post(`${CLAIMS}/claims`, {
      data: {
        policyCode,
        title: `Zalanie piwnicy ${Date.now().toString(36)}`,
        claimType: 'damage',
        damageDate: today,
        customFields: { damageLocation: 'Kraków', estimatedDamage: 2500.75 },
      },
    });
    expect(created.status()).toBe(201);
    const claim = (await created.json()).claim as { code: string; claimNumber: string };
    await api.dispose();

    await signIn(page, HANDLER);
    await choose(page, 'pl');
    await page.goto(`/u/0/claims/${claim.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Szkoda ${claim.claimNumber}` }),
    ).toBeVisible();
    // Polish writes 2500,75: what is shown saves back unchanged.
    await expect(page.getByRole('textbox', { name: 'Szacowana szkoda (EUR)' })).toHaveValue(
      '2500,75',
    );
    // Date fields name the format in Polish letters, as the error messages do.
    await expect(page.getByRole('textbox', { name: 'Data szkody' })).toHaveAttribute(
      'placeholder',
      'DD.MM.RRRR',
    );

    await page.getByRole('tab', { name: 'Dokumenty' }).click();
    const panel = page.getByRole('region', { name: 'Dokumenty' });
    const list = panel.getByRole('list', { name: 'Dokumenty szkody' });
    // A new claim has its acknowledgement, issued by the sandbox from the workspace's (German)
    // template (issue 19).
    await expect(
      list.getByRole('button', {
        name: `Schadenbestätigung-${claim.claimNumber}.pdf`,
        exact: true,
      }),
    ).toBeVisible();
    await panel.locator('input[type="file"]').setInputFiles({
      name: 'protokół szkody.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf('Protokol szkody', ['Zalana piwnica']),
    });
    await expect(
      list.getByRole('button', { name: 'protokół szkody.pdf', exact: true }),
    ).toBeVisible();
    await expect(list.getByText(DATE_TIME)).toBeVisible();

    // Last month holds nothing of a claim made today: the range's message, not "no documents".
    await panel.getByRole('button', { name: 'Okres: Dowolny czas' }).click();
    await page.getByRole('radio', { name: 'Poprzedni miesiąc' }).check();
    await page.getByRole('button', { name: 'Zastosuj' }).first().click();
    await expect(panel.getByTestId('claim-documents-empty')).toHaveText(
      'Brak dokumentów w tym okresie.',
    );
    await expectNoSeriousA11yViolations(page);
    // Any time again, chosen in the panel: the document is back.
    await panel.getByRole('button', { name: 'Okres: Poprzedni miesiąc' }).click();
    await page.getByRole('radio', { name: 'Dowolny czas' }).check();
    await page.getByRole('button', { name: 'Zastosuj' }).first().click();
    await expect(
      list.getByRole('button', { name: 'protokół szkody.pdf', exact: true }),
    ).toBeVisible();
  });
});
