import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * What the e-mail and the document template specs check alike in the German editor (issue 19):
 * a source with an unclosed output (`{{ <variable>`) refused at its line, at the field and in the
 * summary that names the field (`where`), then the source as it was saved as the next version,
 * with its author (the demo administrator) at the top of the versions.
 */
export async function expectRefusedThenSaved(
  page: Page,
  field: Locator,
  { where, variable, before }: { where: string; variable: string; before: number },
): Promise<void> {
  const versionInfo = page.getByTestId('template-version');
  const valid = await field.inputValue();
  const brokenLine = valid.split('\n').length + 1;
  await field.fill(`${valid}\n{{ ${variable}`);
  await page.getByRole('button', { name: 'Speichern', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'nicht gespeichert' });
  await expect(refusal).toContainText(
    new RegExp(`${where}: Zeile ${brokenLine}, Spalte \\d+: Syntaxfehler`),
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  await field.fill(valid);
  await page.getByRole('button', { name: 'Speichern', exact: true }).click();
  await expect(versionInfo).toContainText(`Version ${before + 1} ·`);
  await expect(versionInfo).not.toContainText('Ungespeicherte Änderungen');
  await expect(refusal).toHaveCount(0);
  const newest = page.getByTestId('template-versions').getByRole('row').nth(1);
  await expect(newest).toContainText(String(before + 1));
  await expect(newest).toContainText('Ada Admin');
}
