import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantName, partyName } from '#common/party-name.ts';
import { timesliceAt } from '#common/policy-timeline.ts';
import { leadsParams } from '#client/api/leads-client.ts';
import { policiesParams } from '#client/api/policies-client.ts';
import { claimsParams } from '#client/api/claims-client.ts';
import { invitesParams, usersParams } from '#client/api/tenant-admin-client.ts';
import { rolesParams } from '#client/api/roles-client.ts';
import {
  organizationInvitationsParams,
  organizationsParams,
} from '#client/api/organizations-client.ts';
import { dateDisplayOf, formatInstant } from '#common/date-display.ts';
import { csvCell } from '#server/routes/csv-export.ts';
import { ORG_ADDRESS } from '#tests/support/organization-address.ts';
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

  it('exports invoices with their policy number before the policy code, in German', async () => {
    const { body } = await care.json('/api/0/billingservice/v1/invoices?pageSize=1');
    const policyNumber = (body.items as { policyNumber: string }[])[0]!.policyNumber;
    expect(policyNumber).toMatch(/^POL-\d{6}$/);
    // The invoice list's search for that number, as its export link carries it.
    const query = `search=${policyNumber}`;
    const expected = await listAll(care, '/api/0/billingservice/v1/invoices', query);
    expect(expected.length).toBeGreaterThan(0);
    const res = await care.fetch(`/api/0/export/invoices.csv?${query}&lang=de`);
    expect(res.status).toBe(200);
    const rows = await rowsOf(res, ';');
    const header = rows[0]!;
    expect(header.slice(0, 5)).toEqual([
      'Rechnungsnummer',
      'Code',
      'Vertragsnummer',
      'Vertragscode',
      'Kundennummer',
    ]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(expected.map((i) => i.code));
    expect(rows.slice(1).every((r) => r[2] === policyNumber)).toBe(true);
    expect(rows.slice(1).map((r) => r[3])).toEqual(expected.map((i) => i.policyCode));
  });

  it('turns cells that would run as spreadsheet formulas into text', () => {
    expect(csvCell('=HYPERLINK("http://x")', 'en')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+49 221', 'en')).toBe("'+49 221");
    expect(csvCell(-12.5, 'de')).toBe('-12,5');
    expect(csvCell('Müller; Sohn', 'de')).toBe('"Müller; Sohn"');
    expect(csvCell(null, 'en')).toBe('');
  });
});

describe('CSV export of the administration lists (issue 16)', () => {
  let admin: Agent;
  beforeAll(async () => {
    admin = new Agent(stack.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
  });

  /** The list's query as its page sends it, without the page size (the export pages itself). */
  const exportQuery = (params: string) => {
    const query = new URLSearchParams(params);
    query.delete('pageSize');
    return query.toString();
  };
  const T = '/api/0/tenantservice/v1';
  async function tenantDisplay() {
    const { body } = await admin.json(`${T}/general`);
    return dateDisplayOf(body.general);
  }

  it('exports exactly the filtered users, status and headers in German, dates as the tenant shows them', async () => {
    const query = exportQuery(
      usersParams({ status: 'active', search: '', order: { field: 'email', direction: 'ASC' } }),
    );
    const expected = await listAll(admin, `${T}/users`, query);
    expect(expected.length).toBeGreaterThan(50); // more than one upstream page
    const res = await admin.fetch(`/api/0/export/users.csv?${query}&lang=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /filename="users-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const [header, ...rows] = await rowsOf(res, ';');
    expect(header).toEqual([
      'Code',
      'E-Mail',
      'Vorname',
      'Nachname',
      'Organisation',
      'Rollen',
      'Status',
      'Angelegt',
    ]);
    expect(rows.map((r) => r[0])).toEqual(expected.map((u) => u.code));
    const display = await tenantDisplay();
    rows.forEach((row, i) => {
      const user = expected[i]! as Record<string, unknown> & {
        roles: { label: string }[];
        organization: { name: string } | null;
      };
      expect(row[1]).toBe(user.email);
      expect(row[4]).toBe(user.organization?.name ?? '');
      expect(row[5]).toBe(user.roles.map((r) => r.label).join(' | '));
      // The status as the list shows it, in the file's language, never the slug.
      expect(row[6]).toBe('Aktiv');
      expect(row[7]).toBe(formatInstant(display, user.createdAt as string));
      expect(row[7]).toMatch(/^\d{2}\.\d{2}\.\d{4} /);
    });

    // A disabled user reads as such in Polish.
    const disabled = await admin.fetch(
      `/api/0/export/users.csv?${exportQuery(usersParams({ status: 'disabled' }))}&lang=pl`,
    );
    const [plHeader, ...plRows] = await rowsOf(disabled, ';');
    expect(plHeader).toContain('Nazwisko');
    expect(plRows.length).toBeGreaterThan(0);
    expect(new Set(plRows.map((r) => r[plHeader!.indexOf('Status')]))).toEqual(
      new Set(['Wyłączony']),
    );
  });

  it('exports the roles of a module, the organisations of a search and both kinds of invitations', async () => {
    const roles = exportQuery(
      rolesParams({ module: 'claim-management', order: { field: 'code', direction: 'ASC' } }),
    );
    const expectedRoles = await listAll(admin, `${T}/roles`, roles);
    const allRoles = await listAll(admin, `${T}/roles`, '');
    expect(expectedRoles.length).toBeGreaterThan(0);
    expect(expectedRoles.length).toBeLessThan(allRoles.length);
    const [roleHeader, ...roleRows] = await rowsOf(
      await admin.fetch(`/api/0/export/roles.csv?${roles}&lang=en`),
      ',',
    );
    expect(roleHeader).toEqual(['Code', 'Role', 'Description', 'Permissions', 'Created']);
    expect(roleRows.map((r) => r[0])).toEqual(expectedRoles.map((r) => r.code));
    expect(roleRows[0]![3]).toBe(
      (expectedRoles[0]!.permissions as { code: string }[]).map((p) => p.code).join(' | '),
    );

    const orgs = exportQuery(
      organizationsParams({ search: 'Agentur', order: { field: 'name', direction: 'DESC' } }),
    );
    const [orgHeader, ...orgRows] = await rowsOf(
      await admin.fetch(`/api/0/export/organizations.csv?${orgs}&lang=en`),
      ',',
    );
    expect(orgHeader!.slice(0, 3)).toEqual(['Code', 'Name', 'E-mail']);
    expect(orgRows.map((r) => r[1])).toEqual(['Agentur West', 'Agentur Süd', 'Agentur Nord']);

    const invites = exportQuery(invitesParams({ search: 'invitee' }));
    const expectedInvites = await listAll(admin, `${T}/users/invites`, invites);
    expect(expectedInvites.length).toBeGreaterThan(0);
    const [inviteHeader, ...inviteRows] = await rowsOf(
      await admin.fetch(`/api/0/export/user-invites.csv?${invites}&lang=de`),
      ';',
    );
    expect(inviteHeader).toEqual(['E-Mail', 'Organisation', 'Rollen', 'Läuft ab', 'Zustand']);
    expect(inviteRows.map((r) => r[0])).toEqual(expectedInvites.map((i) => i.email));
    inviteRows.forEach((row, i) =>
      expect(row[4]).toBe(expectedInvites[i]!.isExpired ? 'Abgelaufen' : 'Offen'),
    );

    const invitations = exportQuery(organizationInvitationsParams({}));
    const expectedInvitations = await listAll(admin, `${T}/invitations/organizations`, invitations);
    const [invitationHeader, ...invitationRows] = await rowsOf(
      await admin.fetch(`/api/0/export/organization-invitations.csv?${invitations}&lang=pl`),
      ';',
    );
    expect(invitationHeader).toEqual([
      'Organizacja',
      'E-mail kontaktowy',
      'Role',
      'Wygasa',
      'Stan',
    ]);
    expect(invitationRows.map((r) => r[1])).toEqual(expectedInvitations.map((i) => i.email));
  });

  it('writes an organisation named like a formula as text', async () => {
    const name = `=HYPERLINK("http://evil.test";"Agentur ${Date.now()}")`;
    const created = await admin.json(`${T}/organizations`, {
      json: { name, ...ORG_ADDRESS, customFields: { registrationNumber: 'HRB 1' } },
    });
    expect(created.status).toBe(201);
    const query = exportQuery(organizationsParams({ search: 'evil.test' }));
    const [header, ...rows] = await rowsOf(
      await admin.fetch(`/api/0/export/organizations.csv?${query}&lang=en`),
      ',',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]![header!.indexOf('Name')]).toBe(`'${name}`);
  });

  it('keeps to the permissions and the tenant of the caller, and refuses a bad filter in the one shape', async () => {
    // Customer care may read no administration list: the upstream's 403, as JSON, before a byte.
    for (const list of [
      'users',
      'roles',
      'organizations',
      'user-invites',
      'organization-invitations',
    ]) {
      const refused = await care.json(`/api/0/export/${list}.csv?lang=en`);
      expect(refused.status, list).toBe(403);
      expect(refused.res.headers.get('content-type')).toMatch(/json/);
      expect(refused.body).toMatchObject({ error: 'forbidden', message: expect.any(String) });
    }
    // The viewer reads users but not organisations.
    const viewer = new Agent(stack.url);
    expect((await viewer.login('viewer@demo.test')).status).toBe(200);
    expect((await viewer.fetch('/api/0/export/users.csv?lang=en')).status).toBe(200);
    expect((await viewer.json('/api/0/export/organizations.csv?lang=en')).status).toBe(403);

    // Nordlicht's administrator exports Nordlicht's users, none of the demo workspace's.
    const demo = await listAll(admin, `${T}/users`, '');
    const demoEmails = new Set(demo.map((u) => u.email));
    const nordRows = (await rowsOf(await nord.fetch('/api/0/export/users.csv?lang=en'), ','))
      .slice(1)
      .map((r) => r[1]);
    expect(nordRows.length).toBeGreaterThan(0);
    expect(nordRows.filter((email) => demoEmails.has(email))).toEqual([]);
    const nordOrgs = (
      await rowsOf(await nord.fetch('/api/0/export/organizations.csv?lang=en'), ',')
    ).slice(1);
    expect(nordOrgs.map((r) => r[1])).not.toContain('Agentur Nord');

    // A status the list does not know is the service's 400, in the one error shape.
    const bad = await admin.json(`/api/0/export/users.csv?filter=status%3Dsleeping&lang=en`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'invalid_query',
      message: 'unknown status',
      issues: [{ path: 'filter.status', code: 'invalid' }],
    });
    const badRole = await admin.json(`/api/0/export/users.csv?filter=roleId%3Dabc&lang=en`);
    expect(badRole.status).toBe(400);
    expect(badRole.body).toMatchObject({
      error: 'invalid_query',
      issues: [{ path: 'filter.roleId', code: 'invalid' }],
    });
  });

  it("exports the roles the user's list shows: none outside their modules, none that grant nothing", async () => {
    const stampCode = Date.now().toString(36);
    const hidden = `wf-only-${stampCode}`;
    const empty = `empty-${stampCode}`;
    for (const [code, permissions] of [
      [hidden, ['process-management.workflows.view']],
      [empty, []],
    ] as const) {
      const res = await admin.fetch(`${T}/roles`, {
        method: 'POST',
        json: { code, label: code, permissions },
      });
      expect(res.status).toBe(201);
    }
    const viewer = new Agent(stack.url);
    expect((await viewer.login('viewer@demo.test')).status).toBe(200);
    const codesIn = async (agent: Agent) => {
      const [header, ...rows] = await rowsOf(
        await agent.fetch('/api/0/export/roles.csv?lang=en'),
        ',',
      );
      expect(header![0]).toBe('Code');
      return rows.map((r) => r[0]);
    };
    // The viewer sees no process-management module: the workflow role is not theirs to list.
    const viewerCodes = await codesIn(viewer);
    expect(viewerCodes).not.toContain(hidden);
    expect(viewerCodes).not.toContain(empty);
    expect(viewerCodes).toContain('show-only');
    // The administrator sees every module; a role without permissions grants nothing anywhere.
    const adminCodes = await codesIn(admin);
    expect(adminCodes).toContain(hidden);
    expect(adminCodes).not.toContain(empty);
  });
});
