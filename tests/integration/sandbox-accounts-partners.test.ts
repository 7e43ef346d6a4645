import { beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '#server/sandbox/testing.ts';
import { INSURANCE_USERS, withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox(INSURANCE_USERS);
const { care, viewer, noui, nord } = kit.sessions;
let base: string;

const ACC = '/accountservice/v1';
const PTN = '/partnerservice/v1';
const PERSON = {
  type: 'person',
  title: 'Dr.',
  firstName: 'Erika',
  lastName: 'Mustermann',
  email: 'erika.mustermann@example.test',
  gender: 'female',
  street: 'Heidestraße',
  houseNumber: '17',
  zipCode: '51147',
  city: 'Köln',
  birthDate: '1964-08-12',
  phone: '0221 4711234',
};

beforeAll(() => {
  base = kit.base;
});

describe('accountservice', () => {
  it('lists the seeded customers in pages of the requested size', async () => {
    const first = await api(base, `${ACC}/accounts?pageSize=50`, { token: care.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(50);
    // A keyset token for page 2; the contract's page numbers are read as well.
    expect(first.body.nextPageToken).toMatch(/^2\./);
    const last = await api(base, `${ACC}/accounts?pageSize=50&pageToken=6`, {
      token: care.accessToken,
    });
    expect(last.body.items).toHaveLength(50);
    expect(last.body.nextPageToken).toBeNull();
    const item = first.body.items[0];
    expect(item.code).toMatch(/^acc_/);
    expect(item).toMatchObject({ version: 1, policies: [] });
    expect(Object.keys(item)).toEqual(
      expect.arrayContaining(['accountNumber', 'gender', 'zipCode', 'createdAt', 'updatedBy']),
    );
  });

  it('searches, filters and orders', async () => {
    const orgs = await api(
      base,
      `${ACC}/accounts?filter=type%3Dorg&order=lastName:ASC&pageSize=50`,
      {
        token: care.accessToken,
      },
    );
    expect(orgs.status).toBe(200);
    expect(orgs.body.items.length).toBeGreaterThan(10);
    expect(orgs.body.items.every((a: { type: string }) => a.type === 'org')).toBe(true);
    const names = orgs.body.items.map((a: { companyName: string }) => a.companyName.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));

    const search = await api(base, `${ACC}/accounts?search=m%C3%BCnchen`, {
      token: care.accessToken,
    });
    expect(search.body.items.length).toBeGreaterThan(0);
    expect(search.body.items.every((a: { city: string }) => a.city === 'München')).toBe(true);
  });

  it('refuses unknown filters and orders', async () => {
    for (const q of ['filter=password%3Dx', 'order=phone:ASC', 'pageSize=abc']) {
      const res = await api(base, `${ACC}/accounts?${q}`, { token: care.accessToken });
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe('invalid_query');
    }
  });

  it('filters by a value holding & and =, each value URI-encoded as the client sends it', async () => {
    const created = await api(base, `${ACC}/accounts`, {
      token: care.accessToken,
      body: { ...PERSON, email: 'bunt@example.test', city: 'Bad & Bunt' },
    });
    expect(created.status).toBe(201);
    // listParams: `city=${encodeURIComponent(value)}`, the whole filter encoded once more.
    const filter = `type=person&city=${encodeURIComponent('Bad & Bunt')}`;
    const found = await api(base, `${ACC}/accounts?filter=${encodeURIComponent(filter)}`, {
      token: care.accessToken,
    });
    expect(found.status).toBe(200);
    expect(found.body.items.map((a: { email: string }) => a.email)).toEqual(['bunt@example.test']);
    const odd = await api(base, `${ACC}/accounts?filter=${encodeURIComponent('city=100%')}`, {
      token: care.accessToken,
    });
    expect(odd.status).toBe(400);
    expect(odd.body).toMatchObject({ error: 'invalid_query' });
  });

  it('creates a customer, reads it by id and by code, and checks the input', async () => {
    const created = await api(base, `${ACC}/accounts`, { token: care.accessToken, body: PERSON });
    expect(created.status).toBe(201);
    const account = created.body.account;
    expect(account).toMatchObject({
      ...PERSON,
      phone: '+492214711234',
      companyName: null,
      version: 1,
    });
    expect(account.accountNumber).toMatch(/^K-\d+$/);
    for (const ref of [account.id, account.code]) {
      const read = await api(base, `${ACC}/accounts/${ref}`, { token: care.accessToken });
      expect(read.status).toBe(200);
      expect(read.body.account.email).toBe(PERSON.email);
    }

    const bad: [Record<string, unknown>, string][] = [
      [{ ...PERSON, phone: '12' }, 'phone: invalid_phone'],
      [{ ...PERSON, email: 'nope' }, 'email: invalid_email'],
      [{ ...PERSON, birthDate: '2999-01-01' }, 'birthDate: invalid_birth_date'],
      [{ ...PERSON, lastName: '' }, 'lastName: required'],
      [{ ...PERSON, type: 'org' }, 'companyName: required'],
      [{ ...PERSON, gender: 'x' }, 'gender: invalid_gender'],
      // A German address has a postcode of five digits (issue 15, point 5).
      [{ ...PERSON, zipCode: 'ABCDE' }, 'zipCode: invalid_zip'],
      [{ ...PERSON, zipCode: '5114' }, 'zipCode: invalid_zip'],
      [{ ...PERSON, brokerCode: 'ptn_doesnotexist' }, 'brokerCode: unknown_partner'],
    ];
    for (const [body, message] of bad) {
      const res = await api(base, `${ACC}/accounts`, { token: care.accessToken, body });
      expect(res.status, message).toBe(400);
      // The field and the rule as an issue too: the client reads those, never the message.
      const [path, code] = message.split(': ');
      expect(res.body).toEqual({ error: 'validation_error', message, issues: [{ path, code }] });
    }
  });

  it('saves an edit based on the current version and refuses a stale one with the record', async () => {
    const created = await api(base, `${ACC}/accounts`, {
      token: care.accessToken,
      body: { ...PERSON, email: 'conflict@example.test' },
    });
    const { code } = created.body.account;
    const first = await api(base, `${ACC}/accounts/${code}`, {
      method: 'PUT',
      token: care.accessToken,
      body: { ...PERSON, email: 'conflict@example.test', city: 'Bonn', version: 1 },
    });
    expect(first.status).toBe(200);
    expect(first.body.account).toMatchObject({ city: 'Bonn', version: 2 });

    const stale = await api(base, `${ACC}/accounts/${code}`, {
      method: 'PUT',
      token: care.accessToken,
      body: { ...PERSON, email: 'conflict@example.test', street: 'Altweg', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.account).toMatchObject({ city: 'Bonn', street: PERSON.street, version: 2 });

    const missingVersion = await api(base, `${ACC}/accounts/${code}`, {
      method: 'PUT',
      token: care.accessToken,
      body: PERSON,
    });
    expect(missingVersion.status).toBe(400);
  });

  it('keeps tenants apart', async () => {
    const demo = await api(base, `${ACC}/accounts?pageSize=1`, { token: care.accessToken });
    const { id, code } = demo.body.items[0];
    for (const ref of [id, code]) {
      const res = await api(base, `${ACC}/accounts/${ref}`, { token: nord.accessToken });
      expect(res.status).toBe(404);
      const put = await api(base, `${ACC}/accounts/${ref}`, {
        method: 'PUT',
        token: nord.accessToken,
        body: { ...PERSON, version: 1 },
      });
      expect(put.status).toBe(404);
    }
    const list = await api(base, `${ACC}/accounts?pageSize=50`, { token: nord.accessToken });
    expect(list.body.items).toHaveLength(12);
    expect(list.body.items.some((a: { code: string }) => a.code === code)).toBe(false);
  });

  it('checks the permissions, also in their legacy eis form', async () => {
    const demo = await api(base, `${ACC}/accounts?pageSize=1`, { token: care.accessToken });
    const one = `${ACC}/accounts/${demo.body.items[0].code}`;
    const noToken = await api(base, `${ACC}/accounts`);
    expect(noToken.status).toBe(401);
    expect((await api(base, `${ACC}/accounts`, { token: noui.accessToken })).status).toBe(403);
    // Read-only users read but neither create nor edit.
    expect((await api(base, one, { token: viewer.accessToken })).status).toBe(200);
    const create = await api(base, `${ACC}/accounts`, { token: viewer.accessToken, body: PERSON });
    expect(create.status).toBe(403);
    const put = await api(base, one, {
      method: 'PUT',
      token: viewer.accessToken,
      body: { ...PERSON, version: 1 },
    });
    expect(put.status).toBe(403);

    await kit.db().query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT tenant_id, id, 'eis.accounts.view' FROM roles
        WHERE code = 'noui' AND tenant_id = (SELECT id FROM tenants WHERE slug = 'demo')`,
    );
    const legacy = await login(base, 'noui@demo.test');
    expect((await api(base, one, { token: legacy.accessToken })).status).toBe(200);
    const legacyPut = await api(base, one, {
      method: 'PUT',
      token: legacy.accessToken,
      body: { ...PERSON, version: 1 },
    });
    expect(legacyPut.status).toBe(403);
  });
});

describe('partnerservice', () => {
  it('pages partners of a tag in displayName order with their expansions', async () => {
    const url = `${PTN}/partners?pageSize=10&filter=tagSlugs%3Dbroker&order=displayName%20asc&expand=tags,partnerType`;
    const first = await api(base, url, { token: care.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(10);
    expect(first.body.nextPageToken).toBe('2');
    const second = await api(base, `${url}&pageToken=2`, { token: care.accessToken });
    expect(second.body.items.length).toBeGreaterThan(0);
    const all = [...first.body.items, ...second.body.items];
    expect(new Set(all.map((p: { id: number }) => p.id)).size).toBe(all.length);
    for (const p of all) {
      expect(p.tags.map((t: { slug: string }) => t.slug)).toContain('broker');
      expect(['person', 'organization']).toContain(p.partnerType.slug);
    }
    const names = first.body.items.map((p: { displayName: string }) => p.displayName.toLowerCase());
    expect(names).toEqual([...names].sort());

    const plain = await api(base, `${PTN}/partners?pageSize=1`, { token: care.accessToken });
    expect(plain.body.items[0].tags).toBeUndefined();
  });

  it('reads one partner, the tags and the partner types', async () => {
    const list = await api(base, `${PTN}/partners?pageSize=1`, { token: viewer.accessToken });
    const { id, code } = list.body.items[0];
    const one = await api(base, `${PTN}/partners/${code}?expand=tags`, {
      token: viewer.accessToken,
    });
    expect(one.status).toBe(200);
    expect(one.body.partner).toMatchObject({ id, code, version: 1 });
    expect(one.body.partner.tags.length).toBeGreaterThan(0);
    const tags = await api(base, `${PTN}/tags`, { token: viewer.accessToken });
    expect(tags.body.items.map((t: { slug: string }) => t.slug).sort()).toEqual([
      'agent',
      'assessor',
      'broker',
      'workshop',
    ]);
    const types = await api(base, `${PTN}/partner-types`, { token: viewer.accessToken });
    expect(types.body.items.map((t: { slug: string }) => t.slug)).toEqual([
      'person',
      'organization',
    ]);
  });

  it('refuses bad input, other tenants and missing permissions', async () => {
    for (const q of ['expand=secrets', 'filter=tagSlugs%3D', 'order=code:ASC']) {
      const res = await api(base, `${PTN}/partners?${q}`, { token: care.accessToken });
      expect(res.status, q).toBe(400);
    }
    const demo = await api(base, `${PTN}/partners?pageSize=1`, { token: care.accessToken });
    const { code } = demo.body.items[0];
    expect((await api(base, `${PTN}/partners/${code}`, { token: nord.accessToken })).status).toBe(
      404,
    );
    const nordList = await api(base, `${PTN}/partners?pageSize=50`, { token: nord.accessToken });
    expect(nordList.body.items).toHaveLength(6);
    for (const route of ['/partners', `/partners/${code}`, '/tags', '/partner-types']) {
      expect((await api(base, PTN + route, { token: noui.accessToken })).status, route).toBe(403);
      expect((await api(base, PTN + route)).status, route).toBe(401);
    }
  });

  it('links a customer to a broker of the same tenant only', async () => {
    const demo = await api(base, `${PTN}/partners?pageSize=1&filter=tagSlugs%3Dbroker`, {
      token: care.accessToken,
    });
    const broker = demo.body.items[0].code;
    const created = await api(base, `${ACC}/accounts`, {
      token: care.accessToken,
      body: { ...PERSON, email: 'brokered@example.test', brokerCode: broker },
    });
    expect(created.status).toBe(201);
    expect(created.body.account.brokerCode).toBe(broker);
    const foreign = await api(base, `${ACC}/accounts`, {
      token: nord.accessToken,
      body: { ...PERSON, brokerCode: broker },
    });
    expect(foreign.status).toBe(400);
  });
});
