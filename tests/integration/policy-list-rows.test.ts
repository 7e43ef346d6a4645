import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PolicyRowSchema, type Policy } from '#common/contracts/policy.ts';
import { contractProblems } from '#common/contracts/drift.ts';
import { pageOf } from '#common/contracts/shared.ts';
import { premiumInForce } from '#common/policy-timeline.ts';
import { grandTotalUnit } from '#common/premium.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * The policies list's row view through the real BFF and sandbox (docs/decisions/004-list-rows.md):
 * the same policies, order and page tokens as the full list, each row with the premium in force
 * and no timeline, compressed on the wire.
 */

let stack: Stack;
let care: Agent;
beforeAll(async () => {
  stack = await startStack();
  care = new Agent(stack.url);
  expect((await care.login('admin@demo.test')).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

const LIST = '/api/0/insuranceservice/v1/policies';
const QUERY = 'pageSize=30&order=id%3ADESC';

interface Page<T> {
  items: T[];
  nextPageToken: string | null;
}

describe('policies list rows (view=row)', () => {
  it('answers the full list page as rows with the premium in force, without timelines', async () => {
    const full = await care.json<Page<Policy>>(
      `${LIST}?${QUERY}&expand=timelines,product,premiumUnits`,
    );
    const rows = await care.json<Page<Record<string, unknown>>>(`${LIST}?${QUERY}&view=row`);
    expect(full.status).toBe(200);
    expect(rows.status, JSON.stringify(rows.body)).toBe(200);
    expect(contractProblems(pageOf(PolicyRowSchema), rows.body)).toEqual([]);
    expect(rows.body.nextPageToken).toBe(full.body.nextPageToken);
    expect(rows.body.items.map((row) => row.code)).toEqual(full.body.items.map((p) => p.code));
    const now = new Date();
    const expected = full.body.items.map((policy) => {
      const premium = premiumInForce(policy.timeline, now);
      return premium
        ? {
            grandTotal: premium.grandTotal,
            currency: premium.currency,
            unit: grandTotalUnit(premium.premiumItems),
          }
        : null;
    });
    expect(rows.body.items.map((row) => row.premium)).toEqual(expected);
    expect(expected.some((premium) => premium?.unit)).toBe(true);
    expect(rows.body.items.map((row) => row.productName)).toEqual(
      full.body.items.map((p) => p.product?.name ?? p.productName),
    );
    // A third of the full page's size at most: the timeline is what the list does not show.
    expect(JSON.stringify(rows.body).length).toBeLessThan(JSON.stringify(full.body).length / 3);
  });

  it('pages on with the upstream tokens and keeps the filters', async () => {
    const first = await care.json<Page<{ id: number; status: string }>>(
      `${LIST}?pageSize=5&filter=status%3DACTIVE&view=row`,
    );
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(5);
    expect(first.body.items.every((row) => row.status === 'ACTIVE')).toBe(true);
    const token = encodeURIComponent(first.body.nextPageToken ?? '');
    const second = await care.json<Page<{ id: number; status: string }>>(
      `${LIST}?pageSize=5&filter=status%3DACTIVE&view=row&pageToken=${token}`,
    );
    expect(second.status).toBe(200);
    expect(second.body.items[0]!.id).toBeLessThan(first.body.items.at(-1)!.id);
  });

  it('is gzipped on the wire for a browser that takes gzip', async () => {
    const answer = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        get(
          `${stack.url}${LIST}?${QUERY}&view=row`,
          { headers: { cookie: care.cookie, 'accept-encoding': 'gzip' } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        ).on('error', reject);
      },
    );
    expect(answer.headers['content-encoding']).toBe('gzip');
    const page = JSON.parse(gunzipSync(answer.body).toString('utf8')) as Page<unknown>;
    expect(page.items).toHaveLength(30);
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
  });

  it('leaves other lists and the upstream error shape alone', async () => {
    const accounts = await care.json<Page<Record<string, unknown>>>(
      '/api/0/accountservice/v1/accounts?pageSize=2&view=row',
    );
    expect(accounts.status).toBe(200);
    expect(accounts.body.items[0]).toHaveProperty('email');
    const bad = await care.json(`${LIST}?pageSize=5&order=nope%3ASIDEWAYS&view=row`);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.body).toHaveProperty('error');
    const guest = new Agent(stack.url);
    const signedOut = await guest.json(`${LIST}?${QUERY}&view=row`);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error).toBe('session_expired');
  });
});
