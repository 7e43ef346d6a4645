import { expect, signIn, test } from './fixtures.ts';

test('applies the tenant colour and the demo default', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const brand = () =>
    page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--color-brand').trim(),
    );
  await expect.poll(brand).toBe('#1dc4e9');
});

test('a tenant logo that fails to load is swapped once for the fallback logo', async ({ page }) => {
  // The branding answer is replaced in the browser: a colour of its own and a logo that 404s.
  await page.route('**/api/*/tenantservice/v1/branding', (route) =>
    route.fulfill({
      json: { branding: { name: 'Demo', main_color: '#0b5394', logo: '/no-such-logo.png' } },
    }),
  );
  await signIn(page, 'admin@demo.test');
  const logo = page.getByRole('img', { name: 'Logo of Demo Versicherung AG' });
  await expect(logo).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await expect
    .poll(() =>
      page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-brand').trim(),
      ),
    )
    .toBe('#0b5394');
});
