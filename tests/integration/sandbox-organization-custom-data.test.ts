import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#server/sandbox/testing.ts';
import { ORG_ADDRESS } from '#tests/support/organization-address.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

/**
 * Issue 16, defect 5: an organisation's custom data is edited after creation, on top of the
 * version read (a stale save is a 409 with the organisation as saved now), and list, yes/no and
 * phone values are checked against the tenant's organisation schema.
 */

const kit = withSandbox({ admin: 'admin@demo.test', nord: 'admin@nordlicht.test' });
const { admin, nord } = kit.sessions;
let base: string;

const T = '/tenantservice/v1';
const ADDRESS = ORG_ADDRESS;

type Org = { id: number; version: number; customFields: Record<string, unknown> };
let org: Org;

beforeAll(async () => {
  base = kit.base;
  // The seeded organisation schema, with a yes/no, two lists (with and without options) and a phone.
  const read = await api(base, `${T}/custom-schemas?entity=organization`, {
    token: admin.accessToken,
  });
  const seeded = read.body.items[0] as { fields: unknown[]; version: number };
  const saved = await api(base, `${T}/custom-schemas/organization`, {
    method: 'PUT',
    token: admin.accessToken,
    body: {
      version: seeded.version,
      fields: [
        ...seeded.fields,
        { name: 'certified', label: 'Certified', type: 'boolean' },
        { name: 'lines', label: 'Lines', type: 'array', options: ['car', 'home', 'travel'] },
        { name: 'branches', label: 'Branches', type: 'array' },
        { name: 'hotline', label: 'Hotline', type: 'phone' },
        { name: 'remarks', label: 'Remarks', type: 'textarea', maxLength: 50 },
        { name: 'audited', label: 'Audited', type: 'dateTime' },
      ],
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const created = await api(base, `${T}/organizations`, {
    method: 'POST',
    token: admin.accessToken,
    body: {
      name: 'Custom Data GmbH',
      ...ADDRESS,
      customFields: { registrationNumber: 'HRB 1600', certified: false, lines: ['car'] },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  org = created.body.organization as Org;
});

const put = (body: Record<string, unknown>, token = admin.accessToken) =>
  api(base, `${T}/organizations/${org.id}`, {
    method: 'PUT',
    token,
    body: { ...ADDRESS, ...body },
  });

describe('PUT /organizations/{id}: custom data after creation', () => {
  it('starts at version 1 and saves new custom data on top of the version read', async () => {
    expect(org.version).toBe(1);
    expect(org.customFields).toEqual({
      registrationNumber: 'HRB 1600',
      certified: false,
      lines: ['car'],
    });
    const customFields = {
      registrationNumber: 'HRB 1600',
      certified: true,
      lines: ['home', 'travel'],
      branches: ['Leipzig', 'Halle'],
      hotline: '+49 341 123456',
      remarks: 'line one\nline two',
      audited: '2026-11-20T09:15:00.000Z',
    };
    const res = await put({ customFields, version: org.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.organization).toMatchObject({ id: org.id, version: 2, customFields });
    const read = await api(base, `${T}/organizations/${org.id}`, { token: admin.accessToken });
    expect(read.body.organization).toMatchObject({ version: 2, customFields });
    org = read.body.organization as Org;
  });

  it('refuses a stale version 409 version_conflict with the organisation as saved now', async () => {
    const stale = org.version - 1;
    const res = await put({
      customFields: { registrationNumber: 'HRB 1600', certified: false },
      version: stale,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('version_conflict');
    expect(res.body.organization).toMatchObject({
      id: org.id,
      version: org.version,
      customFields: org.customFields,
    });
    const read = await api(base, `${T}/organizations/${org.id}`, { token: admin.accessToken });
    expect(read.body.organization).toMatchObject({
      version: org.version,
      customFields: org.customFields,
    });
  });

  it.each([
    ['a list entry outside the options', 'lines', { lines: ['boat'] }],
    ['a list that is not a list of texts', 'lines', { lines: 'car' }],
    ['a list without options holding a number', 'branches', { branches: [1] }],
    ['a yes/no that is a text', 'certified', { certified: 'true' }],
    ['a phone that is no phone', 'hotline', { hotline: '12' }],
    ['a text area above its length', 'remarks', { remarks: 'x'.repeat(51) }],
    ['a date-time that is no date', 'audited', { audited: 'yesterday' }],
  ])('refuses %s with 400 naming the field, saving nothing', async (_, field, values) => {
    const res = await put({
      customFields: { registrationNumber: 'HRB 1600', ...values },
      version: org.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual([`customFields.${field}`]);
    const read = await api(base, `${T}/organizations/${org.id}`, { token: admin.accessToken });
    expect(read.body.organization.version).toBe(org.version);
    expect(read.body.organization.customFields).toEqual(org.customFields);
  });

  it('keeps the custom data when a save leaves it out, and still moves the version', async () => {
    const res = await put({ email: 'office@customdata.test', version: org.version });
    expect(res.status).toBe(200);
    expect(res.body.organization.customFields).toEqual(org.customFields);
    expect(res.body.organization.version).toBe(org.version + 1);
    org = res.body.organization as Org;
  });

  it('answers another tenant 404 and leaves the organisation as it was', async () => {
    const res = await put(
      { customFields: { registrationNumber: 'HRB 9999' }, version: org.version },
      nord.accessToken,
    );
    expect(res.status).toBe(404);
    const read = await api(base, `${T}/organizations/${org.id}`, { token: admin.accessToken });
    expect(read.body.organization).toMatchObject({
      version: org.version,
      customFields: org.customFields,
    });
  });
});
