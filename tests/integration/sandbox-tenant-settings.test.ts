import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '#common/contracts/error.ts';
import {
  BrandingRecordSchema,
  CustomSchemaRecordSchema,
  GeneralSettingsSchema,
  TenantSettingValueSchema,
} from '#common/contracts/tenant.ts';
import { api, type Session } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';
import { startStack, type Stack } from '#tests/support/stack.ts';

/** Tenant settings as the settings screen saves them: custom schemas, logos, the chat widget. */

const kit = withSandbox({
  admin: 'admin@demo.test',
  viewer: 'viewer@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, viewer, nord } = kit.sessions;
let base: string;

const T = '/tenantservice/v1';

beforeAll(() => {
  base = kit.base;
});

const claimFields = [
  { name: 'damageCode', label: 'Damage code', type: 'string', isRequired: true, maxLength: 8 },
  { name: 'estimate', label: 'Estimate', type: 'number', minimum: 0, maximum: 1_000_000 },
  { name: 'channel', label: 'Channel', type: 'string', options: ['phone', 'mail'] },
];

type Schema = {
  entity: string;
  fields: { name: string }[];
  productCode: string | null;
  version: number;
};
const schemasOf = async (s: Session, entity: string) =>
  (await api(base, `${T}/custom-schemas?entity=${entity}`, { token: s.accessToken })).body as {
    items: Schema[];
  };
/** The version a save of the entity's schema builds on: the one read, 0 while there is none. */
const versionOf = async (s: Session, entity: string) =>
  (await schemasOf(s, entity)).items[0]?.version ?? 0;

describe('PUT /custom-schemas/{entity}', () => {
  it('creates the tenant schema of an entity, then replaces its fields', async () => {
    const created = await api(base, `${T}/custom-schemas/claim`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { fields: claimFields, version: await versionOf(admin, 'claim') },
    });
    expect(created.status).toBe(200);
    expect(created.body.schema).toMatchObject({
      entity: 'claim',
      productCode: null,
      fields: [
        { name: 'damageCode', isRequired: true, maxLength: 8 },
        { name: 'estimate', isRequired: false, minimum: 0 },
        { name: 'channel', options: ['phone', 'mail'] },
      ],
    });
    const updated = await api(base, `${T}/custom-schemas/claim`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { fields: [claimFields[1]], version: created.body.schema.version },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.schema.id).toBe(created.body.schema.id);
    const { items } = await schemasOf(admin, 'claim');
    expect(items).toHaveLength(1);
    expect(items[0]!.fields.map((f) => f.name)).toEqual(['estimate']);
  });

  it('edits the seeded organisation schema in place (registration reads it)', async () => {
    const before = await schemasOf(admin, 'organization');
    const seeded = before.items[0]!;
    const res = await api(base, `${T}/custom-schemas/organization`, {
      method: 'PUT',
      token: admin.accessToken,
      body: {
        fields: [...seeded.fields, { name: 'website', label: 'Website', type: 'string' }],
        version: seeded.version,
      },
    });
    expect(res.status).toBe(200);
    const after = await schemasOf(admin, 'organization');
    expect(after.items).toHaveLength(1);
    expect(after.items[0]!.fields.at(-1)).toMatchObject({ name: 'website' });
  });

  it.each([
    ['an unknown type', [{ name: 'a', label: 'A', type: 'colour' }]],
    ['a bad name', [{ name: '1st', label: 'A', type: 'string' }]],
    ['an empty label', [{ name: 'a', label: '  ', type: 'string' }]],
    [
      'min length above max',
      [{ name: 'a', label: 'A', type: 'string', minLength: 5, maxLength: 2 }],
    ],
    ['a range on text', [{ name: 'a', label: 'A', type: 'string', minimum: 1 }]],
    ['a length on a number', [{ name: 'a', label: 'A', type: 'number', maxLength: 3 }]],
    ['minimum above maximum', [{ name: 'a', label: 'A', type: 'number', minimum: 9, maximum: 1 }]],
    ['options on a date', [{ name: 'a', label: 'A', type: 'date', options: ['x'] }]],
    [
      'a name twice',
      [
        { name: 'a', label: 'A', type: 'string' },
        { name: 'a', label: 'B', type: 'number' },
      ],
    ],
    ['no list', 'fields'],
  ])('refuses %s with 400 and keeps what was saved', async (_, fields) => {
    const before = await schemasOf(admin, 'claim');
    const res = await api(base, `${T}/custom-schemas/claim`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { fields, version: await versionOf(admin, 'claim') },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(await schemasOf(admin, 'claim')).toEqual(before);
  });

  it('refuses an unknown entity', async () => {
    const res = await api(base, `${T}/custom-schemas/spaceship`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { fields: [] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_entity');
  });

  it('keeps tenants apart: another tenant saves only its own schema', async () => {
    const demoBefore = await schemasOf(admin, 'invoice');
    const res = await api(base, `${T}/custom-schemas/invoice`, {
      method: 'PUT',
      token: nord.accessToken,
      body: {
        fields: [{ name: 'nordOnly', label: 'Nord', type: 'boolean' }],
        version: await versionOf(nord, 'invoice'),
      },
    });
    expect(res.status).toBe(200);
    expect(await schemasOf(admin, 'invoice')).toEqual(demoBefore);
    const nordItems = (await schemasOf(nord, 'invoice')).items;
    expect(nordItems[0]!.fields.map((f) => f.name)).toEqual(['nordOnly']);
  });

  it('needs tenant-management.settings.update and a token', async () => {
    const before = await schemasOf(admin, 'claim');
    const denied = await api(base, `${T}/custom-schemas/claim`, {
      method: 'PUT',
      token: viewer.accessToken,
      body: { fields: [] },
    });
    expect(denied.status).toBe(403);
    const anonymous = await api(base, `${T}/custom-schemas/claim`, {
      method: 'PUT',
      body: { fields: [] },
    });
    expect(anonymous.status).toBe(401);
    expect(await schemasOf(admin, 'claim')).toEqual(before);
  });
});

/** The version of a tenant's branding as saved now: every save is based on it. */
const brandingVersion = async (s: Session): Promise<number> =>
  (await api(base, `${T}/branding`, { token: s.accessToken })).body.branding.version;

describe('PUT /branding with an uploaded logo', () => {
  const branding = async (logo: unknown) => ({
    name: 'Nordlicht Makler GmbH',
    address: null,
    logo,
    main_color: '#0b5394',
    version: await brandingVersion(nord),
  });
  const png =
    'data:image/png;base64,iVBORw0KGoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  it('stores a resized raster image as a data URL and an address as before', async () => {
    const saved = await api(base, `${T}/branding`, {
      method: 'PUT',
      token: nord.accessToken,
      body: await branding(png),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.branding.logo).toBe(png);
    const path = await api(base, `${T}/branding`, {
      method: 'PUT',
      token: nord.accessToken,
      body: await branding('/logos/nordlicht.png'),
    });
    expect(path.status).toBe(200);
  });

  it.each([
    ['an SVG (it may carry script)', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4='],
    ['a javascript: address', 'javascript:alert(1)'],
    ['another host over http', 'http://evil.example/logo.png'],
    ['a protocol-relative address', '//evil.example/logo.png'],
    ['an oversized image', `data:image/png;base64,${'A'.repeat(150_000)}`],
  ])('refuses %s', async (_, logo) => {
    const res = await api(base, `${T}/branding`, {
      method: 'PUT',
      token: nord.accessToken,
      body: await branding(logo),
    });
    expect(res.status).toBe(400);
  });
});

describe('versioned settings: two admins saving the same tab', () => {
  const records = {
    general: {
      schema: GeneralSettingsSchema,
      mine: { currency: 'CHF' },
      theirs: { currency: 'PLN' },
    },
    branding: {
      schema: BrandingRecordSchema,
      mine: { main_color: '#123456' },
      theirs: { main_color: '#654321' },
    },
  } as const;

  it.each(['general', 'branding'] as const)(
    '%s: a save on a stale version is refused 409 with the record as saved now',
    async (name) => {
      const { schema, mine, theirs } = records[name];
      const read = async () =>
        (await api(base, `${T}/${name}`, { token: nord.accessToken })).body[name] as Record<
          string,
          unknown
        > & { version: number };
      const loaded = await read();
      expect(v.is(schema, loaded)).toBe(true);
      // Both admins read the same version; the first save moves it on.
      const { version, updatedAt: _at, updatedBy: _by, tenant_id: _tenant, ...fields } = loaded;
      const put = (body: Record<string, unknown>) =>
        api(base, `${T}/${name}`, { method: 'PUT', token: nord.accessToken, body });

      const first = await put({ ...fields, ...mine, version });
      expect(first.status).toBe(200);
      expect(first.body[name]).toMatchObject({ ...mine, version: version + 1 });
      expect(first.body[name].updatedBy).not.toBe('system');

      const stale = await put({ ...fields, ...theirs, version });
      expect(stale.status).toBe(409);
      expect(v.is(ErrorBodySchema, stale.body)).toBe(true);
      expect(stale.body.error).toBe('version_conflict');
      // The conflict carries the record as saved now, as a read answers it.
      expect(stale.body[name]).toEqual(first.body[name]);
      expect(v.is(schema, stale.body[name])).toBe(true);
      expect(await read()).toEqual(first.body[name]);

      // Saving over it knowingly: on top of the version the conflict named.
      const kept = await put({ ...fields, ...theirs, version: stale.body[name].version });
      expect(kept.status).toBe(200);
      expect(kept.body[name]).toMatchObject({ ...theirs, version: version + 2 });

      // A save without a version is no save: it would overwrite unseen.
      const unversioned = await put({ ...fields, ...theirs });
      expect(unversioned.status).toBe(400);
      expect(unversioned.body.error).toBe('validation_error');
      expect(unversioned.body.issues).toContainEqual({ path: 'version', code: expect.any(String) });
    },
  );
});

describe('versioned settings: the key/value tabs and custom fields', () => {
  type Stored = { key: string; value: unknown; version: number; updatedBy: string | null };
  const readKeys = async (keys: readonly string[]) => {
    const res = await api(base, `${T}/settings/tenant?keys=${keys.join(',')}`, {
      token: nord.accessToken,
    });
    expect(v.is(v.strictObject({ values: v.array(TenantSettingValueSchema) }), res.body)).toBe(
      true,
    );
    return (res.body as { values: Stored[] }).values;
  };
  const post = (body: Record<string, unknown>) =>
    api(base, `${T}/settings/tenant`, { method: 'POST', token: nord.accessToken, body });

  // Each tab with its keys, the value this admin saves and the one another admin saves.
  const tabs = {
    'chat widget': {
      chatWidget: [
        { enabled: true, webhookUrl: '/chat-widget/webhook', version: '1.0.0' },
        { enabled: false, webhookUrl: '', version: '' },
      ],
    },
    payment: {
      braintree_config: [
        { environment: 'sandbox', merchantId: 'mine', publicKey: 'pk_mine' },
        { environment: 'production', merchantId: 'theirs', publicKey: 'pk_theirs' },
      ],
      active_psp: ['braintree', 'none'],
    },
    'dashboard and brokers': {
      dashboardAlert: ['Mine', 'Theirs'],
      brokermanagement_version: ['v2', 'v1'],
    },
  } as const;

  it.each(Object.keys(tabs) as (keyof typeof tabs)[])(
    '%s: a key saved on a stale version of the tab is refused 409 with the setting as saved now',
    async (tab) => {
      const entries = Object.entries(tabs[tab]) as [string, readonly [unknown, unknown]][];
      const keys = entries.map(([key]) => key);
      // The tab's version: the newest of its keys (0 while none was ever saved).
      const tabVersion = Math.max(0, ...(await readKeys(keys)).map((s) => s.version));

      for (const [key, [mine, theirs]] of entries) {
        const first = await post({ key, value: mine, version: tabVersion });
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ key, value: mine });
        expect(first.body.version).toBeGreaterThan(tabVersion);
        expect(first.body.updatedBy).not.toBe('system');
        expect(v.is(TenantSettingValueSchema, first.body)).toBe(true);

        // Another admin's save based on the same read comes too late.
        const stale = await post({ key, value: theirs, version: tabVersion });
        expect(stale.status).toBe(409);
        expect(v.is(ErrorBodySchema, stale.body)).toBe(true);
        expect(stale.body.error).toBe('version_conflict');
        expect(stale.body.setting).toEqual(first.body);
        expect(await readKeys([key])).toEqual([first.body]);

        // Saving over it knowingly: on top of the version the conflict named.
        const kept = await post({ key, value: theirs, version: stale.body.setting.version });
        expect(kept.status).toBe(200);
        expect(kept.body.value).toEqual(theirs);
        expect(kept.body.version).toBeGreaterThan(first.body.version);
      }
    },
  );

  it('a save of a key never saved builds on version 0; one based on it later is stale', async () => {
    const key = 'dashboardAlert_never_saved';
    const [unsaved] = await readKeys([key]);
    expect(unsaved).toEqual({
      key,
      value: null,
      type: 'null',
      version: 0,
      updatedAt: null,
      updatedBy: null,
    });
    expect((await post({ key, value: 'first', version: 0 })).status).toBe(200);
    const second = await post({ key, value: 'second', version: 0 });
    expect(second.status).toBe(409);
    expect(second.body.setting).toMatchObject({ key, value: 'first' });
  });

  it('a save without a version stays unconditional (the spec’s callers send none)', async () => {
    const [before] = await readKeys(['dashboardAlert']);
    const res = await post({ key: 'dashboardAlert', value: 'Unversioned' });
    expect(res.status).toBe(200);
    expect(res.body.version).toBeGreaterThan(before!.version);
    const refused = await post({ key: 'dashboardAlert', value: 'x', version: -1 });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toContainEqual({ path: 'version', code: expect.any(String) });
  });

  it('custom fields: a save on a stale version is refused 409 with the schema as saved now', async () => {
    const put = (body: Record<string, unknown>) =>
      api(base, `${T}/custom-schemas/payment`, { method: 'PUT', token: nord.accessToken, body });
    const version = await versionOf(nord, 'payment');
    const mine = [{ name: 'iban', label: 'IBAN', type: 'string' }];
    const theirs = [{ name: 'reference', label: 'Reference', type: 'string' }];

    const first = await put({ fields: mine, version });
    expect(first.status).toBe(200);
    expect(first.body.schema).toMatchObject({ fields: [{ name: 'iban' }] });
    expect(v.is(CustomSchemaRecordSchema, first.body.schema)).toBe(true);

    const stale = await put({ fields: theirs, version });
    expect(stale.status).toBe(409);
    expect(v.is(ErrorBodySchema, stale.body)).toBe(true);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.schema).toEqual(first.body.schema);
    expect((await schemasOf(nord, 'payment')).items).toEqual([first.body.schema]);

    const kept = await put({ fields: theirs, version: stale.body.schema.version });
    expect(kept.status).toBe(200);
    expect(kept.body.schema).toMatchObject({
      id: first.body.schema.id,
      fields: [{ name: 'reference' }],
      version: first.body.schema.version + 1,
    });

    // A save without a version is no save: it would overwrite unseen.
    const unversioned = await put({ fields: mine });
    expect(unversioned.status).toBe(400);
    expect(unversioned.body.issues).toContainEqual({ path: 'version', code: expect.any(String) });
  });
});

describe('chat widget stand-in', () => {
  it('serves the widget script of a version as JavaScript', async () => {
    const res = await api(base, '/chat-widget/1.0.0/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(String(res.body)).toContain('document.currentScript');
  });

  it.each(['latest', '1.0.0.0', '..%2F..%2Fetc'])(
    'has no widget of version %s',
    async (version) => {
      const res = await api(base, `/chat-widget/${version}/widget.js`);
      expect(res.status).toBe(404);
    },
  );

  it('answers the demo webhook and refuses an empty message', async () => {
    const ok = await api(base, '/chat-widget/webhook', { body: { message: 'Hallo' } });
    expect(ok.status).toBe(200);
    expect(ok.body.reply).toContain('Hallo');
    const empty = await api(base, '/chat-widget/webhook', { body: { message: ' ' } });
    expect(empty.status).toBe(400);
  });
});

describe('the BFF in front of the embedded sandbox', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('serves the widget from its own origin under its strict CSP', async () => {
    const res = await fetch(`${stack.url}/chat-widget/2/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });
});
