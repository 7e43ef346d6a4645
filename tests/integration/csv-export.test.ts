import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantName, partyName } from '#common/party-name.ts';
import { timesliceAt } from '#common/policy-timeline.ts';
import { leadsParams } from '#client/api/leads-client.ts';
import { policiesParams } from '#client/api/policies-client.ts';
import { claimsParams } from '#client/api/claims-client.ts';
import { csvCell } from '#server/routes/csv-export.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

let stack: Stack;
let care: Agent;
let nord: Agent;
beforeAll(async () => {
  stack = await startStack();
  care = new Agent(stack.url);
  nord = new Agent(stack.url);
  expect((await care.login('care@demo.test')).status).toBe(200);
  expect((await nord.login('admin@nordlicht.test')).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

/** Splits a CSV answer into rows of cells (quoted cells in this data hold no line breaks). */
async function rowsOf(res: Response, separator: string): Promise<string[][]> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  // The byte order mark tells spreadsheets the file is UTF-8 (fetch's text() would hide it).
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return new TextDecoder()
    .decode(bytes)
    .split('\r\n')
    .filter(Boolean)
    .map((line) => {
      const cells: string[] = [];
      const re = new RegExp(`("(?:[^"]|"")*"|[^"${separator}]*)(${separator}|$)`, 'g');
      for (const m of line.matchAll(re)) {
        if (m.index === line.length && m[0] === '') break;
        cells.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!);
      }
      return cells;
    });
}

async function listAll(agent: Agent, path: string, query: string) {
  const items: Record<string, unknown>[] = [];
  let token: string | null = null;
  // The list's own query may name its page size; the export reads pages of 50, as here.
  const params = new URLSearchParams(query);
  params.set('pageSize', '50');
  do {
    if (token) params.set('pageToken', token);
    const { body } = await agent.json(`${path}?${params}`);
    items.push(...(body.items as Record<string, unknown>[]));
    token = body.nextPageToken as string | null;
  } while (token);
  return items;
}

describe('CSV export through the BFF', () => {
  it('exports exactly the filtered customers, in the order of the list, all pages', async () => {
    const query = 'filter=type%3Dperson&order=lastName:ASC';
    const expected = await listAll(care, '/api/0/accountservice/v1/accounts', query);
    expect(expected.length).toBeGreaterThan(50); // more than one upstream page
    const res = await care.fetch(`/api/0/export/customers.csv?${query}&lang=en`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = await rowsOf(res, ',');
    expect(rows[0]!.slice(0, 3)).toEqual(['Customer number', 'Code', 'Type']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(expected.map((c) => c.code));
    expect(rows.slice(1).every((r) => r[2] === 'person')).toBe(true);
  });

  it('exports exactly the filtered leads, with the applicant, product and premium of the list', async () => {
    // The product of a prospect's lead (one without a customer yet), so that the file must name
    // a holder the prospect gave as well as customers.
    const first = await care.json('/api/0/insuranceservice/v1/leads?pageSize=50');
    const prospect = (first.body.items as { account: unknown; productSlug: string }[]).find(
      (l) => l.account === null,
    );
    expect(prospect).toBeDefined();
    const productSlug = prospect!.productSlug;
    // The query the leads page sends for a product filter sorted by number.
    const query = leadsParams({ productSlug, order: { field: 'leadNumber', direction: 'ASC' } });
    const expected = await listAll(care, '/api/0/insuranceservice/v1/leads', query);
    expect(expected.length).toBeGreaterThan(20);
    const res = await care.fetch(`/api/0/export/leads.csv?${query}&lang=en`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /filename="leads-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const [header, ...rows] = await rowsOf(res, ',');
    expect(header).toEqual([
      'Lead number',
      'Code',
      'Status',
      'Customer code',
      'Applicant',
      'Product',
      'Product key',
      'Premium',
      'Currency',
      'Created',
    ]);
    expect(rows.map((r) => r[1])).toEqual(expected.map((l) => l.code));
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    rows.forEach((row, i) => {
      const lead = expected[i]! as Parameters<typeof applicantName>[0] & Record<string, unknown>;
      expect(cell(row, 'Applicant')).toBe(applicantName(lead));
      expect(cell(row, 'Applicant')).not.toBe('');
      expect(cell(row, 'Product key')).toBe(productSlug);
      expect(cell(row, 'Product')).toBe(lead.productName);
      expect(cell(row, 'Premium')).toBe(
        String((lead.premium as { grandTotal: number }).grandTotal),
      );
    });
    // A prospect has no customer yet: the list names the holder it gave, and so does the file.
    const prospects = rows.filter((r) => cell(r, 'Customer code') === '');
    expect(prospects.length).toBeGreaterThan(0);
  });

  it('exports the filtered policies with the holder and the premium in force that the list shows', async () => {
    const query = policiesParams({ statuses: ['TERMINATED', 'SUSPENDED'], order: 'oldest' });
    const expected = await listAll(care, '/api/0/insuranceservice/v1/policies', query);
    expect(expected.length).toBeGreaterThan(50); // more than one page of keyset tokens
    const res = await care.fetch(`/api/0/export/policies.csv?${query}&lang=en`);
    expect(res.status).toBe(200);
    const [header, ...rows] = await rowsOf(res, ',');
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(rows.map((r) => r[1])).toEqual(expected.map((p) => p.code));
    const now = new Date();
    rows.forEach((row, i) => {
      const policy = expected[i]!;
      // The status as the list shows it, in the file's language (issue 15).
      expect(['Terminated', 'Suspended']).toContain(cell(row, 'Status'));
      expect(cell(row, 'Policy holder')).toBe(
        partyName(policy.holder as Parameters<typeof partyName>[0]),
      );
      const timeline = policy.timeline as {
        from: string;
        to: string | null;
        premium: { grandTotal: number };
      }[];
      expect(cell(row, 'Premium')).toBe(String(timesliceAt(timeline, now)!.premium.grandTotal));
      // Dates as the list shows them, in the tenant's format (seeded DD.MM.YYYY): the start is
      // its UTC day, never moved by the tenant's zone.
      const start = policy.policyStartDate as string | null;
      if (start) {
        const [y, m, d] = start.slice(0, 10).split('-');
        expect(cell(row, 'Start')).toBe(`${d}.${m}.${y}`);
      }
      expect(cell(row, 'Created')).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    });
  });

  it('writes German headers, semicolons and decimal commas for German', async () => {
    const policies = await care.json(
      '/api/0/insuranceservice/v1/policies?filter=status%3DACTIVE&pageSize=1',
    );
    const policy = policies.body.items[0];
    const res = await care.fetch(
      `/api/0/export/policies.csv?filter=policyNumber%3D${policy.policyNumber}&lang=de`,
    );
    const rows = await rowsOf(res, ';');
    expect(rows[0]).toContain('Vertragsnummer');
    expect(rows).toHaveLength(2);
    const total = policy.timeline.at(-1).premium.grandTotal as number;
    expect(rows[1]![rows[0]!.indexOf('Beitrag')]).toBe(String(total).replace('.', ','));
  });

  it("keeps to the caller's tenant: Nordlicht's export holds none of the demo customers", async () => {
    const demo = await listAll(care, '/api/0/accountservice/v1/accounts', 'order=id:ASC');
    const res = await nord.fetch('/api/0/export/customers.csv?lang=en');
    const codes = (await rowsOf(res, ',')).slice(1).map((r) => r[1]);
    expect(codes.length).toBeGreaterThan(0);
    const demoCodes = new Set(demo.map((c) => c.code));
    expect(codes.filter((c) => demoCodes.has(c))).toEqual([]);
  });

  it('answers the upstream refusal before the first byte, and JSON for bad requests', async () => {
    const badFilter = await care.json('/api/0/export/policies.csv?filter=status%3DNONSENSE');
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error).toBeTruthy();
    expect((await care.json('/api/0/export/claims-of-mars.csv')).status).toBe(404);
    expect((await care.json('/api/0/export/customers.csv?lang=fr')).status).toBe(400);
    const anonymous = new Agent(stack.url);
    const out = await anonymous.json('/api/0/export/customers.csv');
    expect(out).toMatchObject({ status: 401, body: { error: 'session_expired' } });
    // A product manager may not read customers: the upstream's 403 reaches the user as JSON.
    const manager = new Agent(stack.url);
    expect((await manager.login('manager@demo.test')).status).toBe(200);
    const refused = await manager.json('/api/0/export/customers.csv');
    expect(refused.status).toBe(403);
    expect(refused.res.headers.get('content-type')).toMatch(/json/);
  });

  it('exports the claims exactly as the claim list asks for them, amounts in the currency', async () => {
    // The query the claim list sends for its first page (and its export link carries).
    const query = new URLSearchParams(
      claimsParams({
        statuses: ['open', 'in-review'],
        claimType: 'damage',
        order: { field: 'claimNumber', direction: 'ASC' },
      }),
    );
    query.delete('pageSize');
    const expected = await listAll(care, '/api/0/claimservice/v1/claims', query.toString());
    expect(expected.length).toBeGreaterThan(0);
    const res = await care.fetch(`/api/0/export/claims.csv?${query}&pageSize=30&lang=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /filename="claims-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = await rowsOf(res, ';');
    const header = rows[0]!;
    expect(header.slice(0, 3)).toEqual(['Schadennummer', 'Code', 'Titel']);
    const at = (name: string) => header.indexOf(name);
    expect(rows.slice(1).map((r) => r[at('Code')])).toEqual(expected.map((c) => c.code));
    // The status column carries the workspace's label in the file's language, not the slug.
    expect(new Set(rows.slice(1).map((r) => r[at('Status')]))).toEqual(
      new Set(['Offen', 'In Prüfung']),
    );
    expect(rows.slice(1).every((r) => r[at('Schadenart')] === 'damage')).toBe(true);
    // Cents become the amount with the decimal comma of a German spreadsheet.
    const settled = expected.findIndex((c) => (c.totals as { reserve: number }).reserve > 0);
    expect(settled).toBeGreaterThanOrEqual(0);
    const totals = expected[settled]!.totals as { reserve: number; currency: string };
    expect(rows[settled + 1]![at('Reserve')]).toBe(String(totals.reserve / 100).replace('.', ','));
    expect(rows[settled + 1]![at('Währung')]).toBe(totals.currency);

    // Bad filters are the service's refusal; no claims permission is its 403.
    const bad = await care.json('/api/0/export/claims.csv?filter=claimType%3Dflood');
    expect(bad.status).toBe(400);
    const manager = new Agent(stack.url);
    expect((await manager.login('manager@demo.test')).status).toBe(200);
    expect((await manager.json('/api/0/export/claims.csv')).status).toBe(403);
  });

  it('turns cells that would run as spreadsheet formulas into text', () => {
    expect(csvCell('=HYPERLINK("http://x")', 'en')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+49 221', 'en')).toBe("'+49 221");
    expect(csvCell(-12.5, 'de')).toBe('-12,5');
    expect(csvCell('Müller; Sohn', 'de')).toBe('"Müller; Sohn"');
    expect(csvCell(null, 'en')).toBe('');
  });
});
