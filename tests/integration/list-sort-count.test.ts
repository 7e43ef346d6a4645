import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { premiumInForce } from '#common/policy-timeline.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * Issue 15, point 15: lists carry their total (`totalItems`, upstream contract), the policies list
 * sorts by its columns with keyset pages on (column, id), a sort outside the allowlist is a 400
 * with a code, and the CSV names the premium's unit and the statuses in the file's language.
 */

let stack: Stack;
let care: Agent;
beforeAll(async () => {
  stack = await startStack();
  care = new Agent(stack.url);
  expect((await care.login('care@demo.test')).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

const POLICIES = '/api/0/insuranceservice/v1/policies';

interface PolicyItem {
  id: number;
  code: string;
  status: string;
  timeline?: { from: string; to: string | null; premium?: { grandTotal?: number } }[];
}

/** Every page of `query`, with the totals each page answered. */
async function allPages(path: string, query: string) {
  const items: PolicyItem[] = [];
  const totals: number[] = [];
  const params = new URLSearchParams(query);
  let token: string | null = null;
  do {
    if (token) params.set('pageToken', token);
    const { status, body } = await care.json(`${path}?${params}`);
    expect(status, JSON.stringify(body)).toBe(200);
    items.push(...(body.items as PolicyItem[]));
    totals.push(body.totalItems as number);
    token = body.nextPageToken as string | null;
  } while (token);
  return { items, totals };
}

/** Splits a CSV answer into rows of cells (no quoted separators in the cells read here). */
async function csvRows(res: Response, separator: string): Promise<string[][]> {
  const text = (await res.text()).replace(/^\uFEFF/, '');
  return text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(separator).map((c) => c.replace(/^"|"$/g, '')));
}

describe('list totals', () => {
  it('counts the whole filtered list, the same on every page', async () => {
    const filter = 'filter=status%3DTERMINATED&pageSize=50';
    const { items, totals } = await allPages(POLICIES, filter);
    expect(items.length).toBeGreaterThan(50);
    expect(new Set(totals)).toEqual(new Set([items.length]));
    const all = await care.json(`${POLICIES}?pageSize=1`);
    expect(all.body.totalItems).toBeGreaterThan(items.length);
    // A search narrows the count as it narrows the rows.
    const one = await care.json(
      `${POLICIES}?filter=policyNumber%3D${encodeURIComponent(String(all.body.items[0].policyNumber))}`,
    );
    expect(one.body.totalItems).toBe(1);
  });

  it('is carried by the other insurance and admin lists too', async () => {
    const admin = new Agent(stack.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
    for (const path of [
      '/api/0/claimservice/v1/claims?pageSize=5',
      '/api/0/insuranceservice/v1/leads?pageSize=5',
      '/api/0/accountservice/v1/accounts?pageSize=5&filter=type%3Dperson',
      '/api/0/insuranceservice/v1/products?pageSize=5',
      '/api/0/tenantservice/v1/users?pageSize=5',
      '/api/0/tenantservice/v1/roles?pageSize=5',
    ]) {
      const { status, body } = await admin.json(path);
      expect(status, path).toBe(200);
      expect(typeof body.totalItems, path).toBe('number');
      expect(body.totalItems, path).toBeGreaterThanOrEqual(body.items.length);
      if (body.nextPageToken === null) expect(body.totalItems, path).toBe(body.items.length);
      else expect(body.totalItems, path).toBeGreaterThan(body.items.length);
    }
  });
});

describe('policies sorted by a column', () => {
  const premiumOf = (p: PolicyItem) => premiumInForce(p.timeline, new Date())?.grandTotal ?? -1;

  for (const direction of ['ASC', 'DESC'] as const) {
    it(`pages by premium ${direction} across pages without duplicates or gaps`, async () => {
      const query = `filter=status%3DTERMINATED&pageSize=20&order=premium%3A${direction}&expand=timelines`;
      const { items } = await allPages(POLICIES, query);
      const byId = await allPages(POLICIES, 'filter=status%3DTERMINATED&pageSize=50&order=id:ASC');
      expect(items.length).toBeGreaterThan(40); // three pages and more
      // No duplicates, no gaps: exactly the filtered policies, each once.
      expect(new Set(items.map((p) => p.id)).size).toBe(items.length);
      expect([...items.map((p) => p.id)].sort((a, b) => a - b)).toEqual(
        byId.items.map((p) => p.id),
      );
      // In premium order, equal premiums by id, as the keyset (premium, id) walks them.
      const premiums = items.map(premiumOf);
      const sign = direction === 'ASC' ? 1 : -1;
      items.forEach((p, i) => {
        if (i === 0) return;
        const prev = items[i - 1]!;
        const cmp = premiums[i]! - premiums[i - 1]! || p.id - prev.id;
        expect(sign * cmp, `${prev.code} before ${p.code}`).toBeGreaterThan(0);
      });
      expect(new Set(premiums).size).toBeGreaterThan(5);
    });
  }

  it('sorts by number, holder, product, status and start too, every page in order', async () => {
    for (const field of ['policyNumber', 'holder', 'productName', 'status', 'policyStartDate']) {
      const { items } = await allPages(
        POLICIES,
        `filter=status%3DSUSPENDED,TERMINATED&pageSize=25&order=${field}%3ADESC&expand=product`,
      );
      expect(new Set(items.map((p) => p.id)).size, field).toBe(items.length);
      expect(items.length, field).toBeGreaterThan(50);
    }
    const byStatus = await allPages(
      POLICIES,
      'filter=status%3DSUSPENDED,TERMINATED&pageSize=25&order=status%3AASC',
    );
    const statuses = byStatus.items.map((p) => p.status);
    expect(statuses).toEqual([...statuses].sort());
    expect(new Set(statuses)).toEqual(new Set(['SUSPENDED', 'TERMINATED']));
  });

  it('refuses an order outside the allowlist and a token of another order with 400 and a code', async () => {
    for (const order of ['createdBy:ASC', 'premium:UP', 'holder;DROP', 'p.id']) {
      const bad = await care.json(`${POLICIES}?order=${encodeURIComponent(order)}`);
      expect(bad.status, order).toBe(400);
      expect(bad.body.error, order).toBe('invalid_query');
    }
    const first = await care.json(`${POLICIES}?pageSize=5&order=premium:ASC`);
    const token = first.body.nextPageToken as string;
    expect(token).toMatch(/^2\.\d+\.a\.t\d+\.premium\./);
    const other = await care.json(
      `${POLICIES}?pageSize=5&order=holder:ASC&pageToken=${encodeURIComponent(token)}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_query');
    // A hand-made value that is no number is refused, not cast into a 500.
    const forged = token.replace(/[^.]+$/, Buffer.from('abc').toString('base64url'));
    const bad = await care.json(
      `${POLICIES}?pageSize=5&order=premium:ASC&pageToken=${encodeURIComponent(forged)}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_query');
    // The BFF's row view passes the order and its tokens unchanged.
    const rows = await care.json(`${POLICIES}?pageSize=5&order=premium:ASC&view=row`);
    expect(rows.body.nextPageToken).toBe(token);
    expect(rows.body.totalItems).toBe(first.body.totalItems);
  });
});

describe('policies CSV', () => {
  const query = 'filter=status%3DTERMINATED,SUSPENDED&order=premium:DESC';
  const cases = [
    {
      lang: 'en',
      sep: ',',
      unit: 'Premium unit',
      status: 'Status',
      labels: ['Terminated', 'Suspended'],
      per: /^(per (day|week|month|quarter|year)|one-time)$/,
    },
    {
      lang: 'de',
      sep: ';',
      unit: 'Beitragseinheit',
      status: 'Status',
      labels: ['Gekündigt', 'Ruhend'],
      per: /^(pro (Tag|Woche|Monat|Quartal|Jahr)|einmalig)$/,
    },
    {
      lang: 'pl',
      sep: ';',
      unit: 'Jednostka składki',
      status: 'Status',
      labels: ['Rozwiązana', 'Zawieszona'],
      per: /^(dziennie|tygodniowo|miesięcznie|kwartalnie|rocznie|jednorazowo)$/,
    },
  ];
  for (const c of cases) {
    it(`names the premium's unit and the statuses in ${c.lang}`, async () => {
      const res = await care.fetch(`/api/0/export/policies.csv?${query}&lang=${c.lang}`);
      expect(res.status).toBe(200);
      const [header, ...rows] = await csvRows(res, c.sep);
      expect(header).toContain(c.unit);
      const unit = header!.indexOf(c.unit);
      expect(header!.indexOf(c.unit)).toBe(
        header!.findIndex((h) => /Premium|Beitrag|Składka/.test(h)) + 1,
      );
      const status = header!.indexOf(c.status);
      expect(new Set(rows.map((r) => r[status]))).toEqual(new Set(c.labels));
      const units = rows.map((r) => r[unit]!).filter(Boolean);
      expect(units.length).toBeGreaterThan(rows.length / 2);
      for (const u of units) expect(u).toMatch(c.per);
    });
  }
});

/**
 * Issue 15 for the other lists: each sorts by the columns its table offers, pages by keyset on
 * (column, id) with tokens that carry the sort and the total, and refuses a sort it does not offer.
 */
describe('claims, leads, customers and products sorted by a column', () => {
  interface Row {
    id: number;
    [key: string]: unknown;
  }
  const lists: {
    path: string;
    query: string;
    fields: string[];
    /** Fields whose values compare in JavaScript as in the database (dates, numbers). */
    keys: Record<string, (row: Row) => string | number>;
  }[] = [
    {
      path: '/api/0/claimservice/v1/claims',
      query: 'filter=claimType%3Dtheft&pageSize=15',
      fields: [
        'claimNumber',
        'title',
        'policyNumber',
        'holder',
        'status',
        'damageDate',
        'createdAt',
      ],
      keys: { damageDate: (c) => c.damageDate as string, createdAt: (c) => c.createdAt as string },
    },
    {
      path: '/api/0/insuranceservice/v1/leads',
      query: 'filter=status%3Dquoted&pageSize=15&expand=',
      fields: ['leadNumber', 'applicant', 'productName', 'status', 'premium', 'createdAt'],
      keys: {
        premium: (l) => (l.premium as { grandTotal?: number }).grandTotal ?? -1,
        createdAt: (l) => l.createdAt as string,
      },
    },
    {
      path: '/api/0/accountservice/v1/accounts',
      query: 'filter=type%3Dorg&pageSize=10',
      fields: ['lastName', 'accountNumber', 'type', 'city', 'email', 'createdAt'],
      keys: { createdAt: (a) => a.createdAt as string },
    },
    {
      path: '/api/0/insuranceservice/v1/products',
      query: 'pageSize=2',
      fields: ['name', 'slug', 'category', 'createdAt', 'updatedAt'],
      keys: { updatedAt: (p) => p.updatedAt as string },
    },
  ];

  let admin: Agent;
  beforeAll(async () => {
    admin = new Agent(stack.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
  });

  /** Every page by the tokens the list answers, and the totals each page answered. */
  async function walk(path: string, query: string) {
    const items: Row[] = [];
    const totals: number[] = [];
    let token: string | null = null;
    do {
      const params = new URLSearchParams(query);
      if (token) params.set('pageToken', token);
      const { status, body } = await admin.json(`${path}?${params}`);
      expect(status, JSON.stringify(body)).toBe(200);
      items.push(...(body.items as Row[]));
      totals.push(body.totalItems as number);
      token = body.nextPageToken as string | null;
      if (token) expect(token).toMatch(/^\d+\.\d+\.[ad]\.t\d+\.[A-Za-z]+\./);
    } while (token);
    return { items, totals };
  }

  /** The same list by page numbers (OFFSET, the contract's 1, 2, ...): one statement's order. */
  async function numbered(path: string, query: string) {
    const items: Row[] = [];
    for (let page = 1; ; page += 1) {
      const { body } = await admin.json(`${path}?${query}&pageToken=${page}`);
      items.push(...(body.items as Row[]));
      if (!body.nextPageToken) return items;
    }
  }

  for (const list of lists) {
    it(`${list.path.split('/').pop()}: every sort, both ways, in order across pages`, async () => {
      const all = await numbered(list.path, list.query);
      expect(all.length).toBeGreaterThan(4); // three pages and more
      const ids = all.map((r) => r.id).sort((a, b) => a - b);
      for (const field of list.fields) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const label = `${field} ${direction}`;
          const query = `${list.query}&order=${field}%3A${direction}`;
          const { items, totals } = await walk(list.path, query);
          // Each row once, none missing, and the first page's total on every page.
          expect(
            items.map((r) => r.id).sort((a, b) => a - b),
            label,
          ).toEqual(ids);
          expect(new Set(totals), label).toEqual(new Set([ids.length]));
          // The keyset pages walk the order one statement gives, ties by id.
          expect(
            items.map((r) => r.id),
            label,
          ).toEqual((await numbered(list.path, query)).map((r) => r.id));
          const key = list.keys[field];
          if (!key) continue;
          const sign = direction === 'ASC' ? 1 : -1;
          items.forEach((row, i) => {
            if (i === 0) return;
            const prev = items[i - 1]!;
            const [a, b] = [key(prev), key(row)];
            const cmp = a < b ? 1 : a > b ? -1 : row.id - prev.id;
            expect(sign * cmp, `${label}: ${prev.id} before ${row.id}`).toBeGreaterThan(0);
          });
        }
      }
    });

    it(`${list.path.split('/').pop()}: refuses a sort it does not offer and a token of another order`, async () => {
      for (const order of ['createdBy:ASC', `${list.fields[0]}:UP`, 'id;DROP']) {
        const bad = await admin.json(`${list.path}?order=${encodeURIComponent(order)}`);
        expect(bad.status, order).toBe(400);
        expect(bad.body, order).toMatchObject({ error: 'invalid_query' });
        expect(typeof bad.body.message, order).toBe('string');
      }
      const first = await admin.json(`${list.path}?${list.query}&order=${list.fields[0]}:ASC`);
      const token = first.body.nextPageToken as string;
      for (const order of [`${list.fields[0]}:DESC`, `${list.fields[1]}:ASC`]) {
        const other = await admin.json(
          `${list.path}?${list.query}&order=${order}&pageToken=${encodeURIComponent(token)}`,
        );
        expect(other.status, order).toBe(400);
        expect(other.body.error, order).toBe('invalid_query');
      }
    });
  }
});
