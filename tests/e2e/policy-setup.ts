import type { APIRequestContext, Page } from '@playwright/test';
import { isoToday } from '#common/claims.ts';
import { expect } from './fixtures.ts';

const INSURANCE = '/api/0/insuranceservice/v1';
const CSRF = { 'X-CSRF': '1' };

/** YYYY-MM-DD, `offsetDays` from today (UTC). */
export const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A day as the screens show it: DD.MM.YYYY. */
export const displayDay = (iso: string) => iso.split('-').reverse().join('.');

/**
 * A policy's start as the policies list shows it (its UTC day, DD.MM.YYYY), read through the API
 * with the signed-in page's session: the demo world's dates follow the clock
 * (server/sandbox/platform/seed-time.ts), so a seeded policy's start is no fixed day.
 */
export async function shownStartOf(page: Page, policyNumber: string): Promise<string> {
  const res = await page.request.get(
    `${INSURANCE}/policies?search=${encodeURIComponent(policyNumber)}`,
  );
  expect(res.status()).toBe(200);
  const items = (await res.json()).items as {
    policyNumber: string;
    policyStartDate: string | null;
  }[];
  const start = items.find((p) => p.policyNumber === policyNumber)?.policyStartDate;
  expect(start, `the start of ${policyNumber}`).toBeTruthy();
  return displayDay(start!.slice(0, 10));
}

/**
 * A home-contents application (the policy part of a policy or a lead): the active version of the
 * seeded product, started ten days ago for a year, a household of 80 m² insured, held by a person
 * of the given name (unique per run, so that other specs never meet it).
 */
async function homeApplication(page: Page, holder: { firstName: string; lastName: string }) {
  const products = await page.request.get(
    `${INSURANCE}/products?filter=slug=home-contents&expand=versions`,
  );
  const product = (await products.json()).items[0];
  const version = product.versions.find((v: { status: string }) => v.status === 'active');
  const objects = await page.request.get(
    `${INSURANCE}/insured-objects?filter=productVersionId=${version.id}&expand=productFields`,
  );
  const byName = Object.fromEntries(
    (await objects.json()).items.map((o: { name: string; id: number }) => [o.name, o.id]),
  );
  return {
    productVersionId: version.id,
    holder: { type: 'person', ...holder },
    policyObjects: [
      {
        insuredObjectId: byName.default,
        data: {
          policyStartDate: isoDay(-10),
          policyDurationUnit: 'year',
          policyDurationValue: 1,
        },
      },
      {
        insuredObjectId: byName.household,
        data: { livingArea: 80, zipCode: '20095', sumInsured: 50000, bicycleCover: false },
      },
    ],
  };
}

/**
 * A home-contents policy of a spec's own (`homeApplication`), through the BFF with the signed-in
 * page's session (the calls the screens use).
 */
export async function createHomePolicy(
  page: Page,
  holder: { firstName: string; lastName: string },
): Promise<{ code: string; number: string }> {
  const created = await page.request.post(`${INSURANCE}/policies`, {
    headers: CSRF,
    data: await homeApplication(page, holder),
  });
  expect(created.status()).toBe(201);
  const { policy } = await created.json();
  return { code: policy.code, number: policy.policyNumber };
}

/** A new lead of a spec's own for a home-contents policy (`homeApplication`), as createHomePolicy. */
export async function createHomeLead(
  page: Page,
  holder: { firstName: string; lastName: string },
): Promise<{ code: string; number: string; version: number }> {
  const created = await page.request.post(`${INSURANCE}/leads`, {
    headers: CSRF,
    data: { policy: await homeApplication(page, holder) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { lead } = await created.json();
  return { code: lead.code, number: lead.leadNumber, version: lead.version };
}

/**
 * The newest seeded active car policy that started before today in `zone`: a claim of a spec's
 * own can go on it (a car policy covers water damage; the cover check refuses types a product
 * lacks).
 */
export async function startedCarPolicy(api: APIRequestContext, zone: string): Promise<string> {
  const policies = await api.get(
    `${INSURANCE}/policies?pageSize=20&filter=${encodeURIComponent(
      'status=ACTIVE&productSlug=car-comfort',
    )}&order=id:ASC`,
  );
  expect(policies.ok()).toBe(true);
  const today = isoToday(zone);
  return ((await policies.json()).items as { code: string; policyStartDate: string }[])
    .filter((p) => isoToday(zone, new Date(p.policyStartDate)) < today)
    .at(-1)!.code;
}
