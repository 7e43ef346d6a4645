import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  ActivityEntrySchema,
  ADMIN_ENTITY_TYPES,
  type ActivityEntry,
} from '#common/contracts/activity-log.ts';
import { pageOf } from '#common/contracts/shared.ts';
import { contractProblems } from '#common/contracts/drift.ts';
import { dateDisplayOf, formatInstant } from '#common/date-display.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * The tenant's activity log (issue 16): changes to roles, settings, organisations and their
 * invitations are recorded with who by name and each field before and after; the log filters by
 * kind, actor, time and search, pages by keyset, exports as CSV, is an administrator's only, and
 * keeps to the caller's workspace. Through the BFF, as the screen calls it.
 */

let stack: Stack;
let admin: Agent;
let care: Agent;
let nord: Agent;
const T = '/api/0/tenantservice/v1';
const LogPage = v.strictObject({ ...pageOf(ActivityEntrySchema).entries });

beforeAll(async () => {
  stack = await startStack();
  admin = new Agent(stack.url);
  care = new Agent(stack.url);
  nord = new Agent(stack.url);
  expect((await admin.login('admin@demo.test')).status).toBe(200);
  expect((await care.login('care@demo.test')).status).toBe(200);
  expect((await nord.login('admin@nordlicht.test')).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

async function log(agent: Agent, query = ''): Promise<ActivityEntry[] & { total?: number }> {
  const res = await agent.json(`${T}/audit-events?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(contractProblems(LogPage, res.body)).toEqual([]);
  return Object.assign(res.body.items as ActivityEntry[], { total: res.body.totalItems });
}

const send = (agent: Agent, method: string, path: string, json?: unknown) =>
  agent.json(`${T}${path}`, { method, ...(json === undefined ? {} : { json }) });

const unique = Date.now().toString(36);
const roleCode = `auditor-${unique}`;
let roleId = 0;

describe('what the activity log records', () => {
  it('a role: created, its permissions edited, removed, each with the name of who did it', async () => {
    const created = await send(admin, 'POST', '/roles', {
      code: roleCode,
      label: 'Auditor',
      description: 'Reads',
      permissions: ['policy-management.policies.view'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    roleId = created.body.role.id;
    const edited = await send(admin, 'PUT', `/roles/${roleId}`, {
      label: 'Auditor',
      description: 'Reads claims too',
      permissions: ['policy-management.policies.view', 'claim-management.claims.view'],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const [update, creation] = await log(admin, `entityType=role&search=${roleCode}`);
    expect(update).toMatchObject({
      entityType: 'role',
      entityId: roleCode,
      entityLabel: 'Auditor',
      actorName: 'Ada Admin',
      action: 'updated',
      changes: expect.arrayContaining([
        { field: 'description', before: 'Reads', after: 'Reads claims too' },
        {
          field: 'permissions',
          before: ['policy-management.policies.view'],
          after: ['claim-management.claims.view', 'policy-management.policies.view'],
        },
      ]),
    });
    expect(creation).toMatchObject({ action: 'created', actorName: 'Ada Admin' });
    expect(creation!.changes).toContainEqual({ field: 'label', before: null, after: 'Auditor' });
    // No user id or code reaches the screen.
    expect(JSON.stringify(update)).not.toMatch(/usr_/);

    expect((await send(admin, 'DELETE', `/roles/${roleId}`)).status).toBe(204);
    const [removal] = await log(admin, `entityType=role&search=${roleCode}`);
    expect(removal).toMatchObject({ action: 'removed', entityLabel: 'Auditor' });
    expect(removal!.changes).toContainEqual({
      field: 'description',
      before: 'Reads claims too',
      after: null,
    });
  });

  it('the general settings and a setting key, before and after; a secret without its value', async () => {
    const { body } = await admin.json(`${T}/general`);
    const general = body.general;
    const other = general.currency === 'EUR' ? 'PLN' : 'EUR';
    const saved = await send(admin, 'PUT', '/general', { ...general, currency: other });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [entry] = await log(admin, 'entityType=setting&search=general');
    expect(entry).toMatchObject({
      entityId: 'general',
      actorName: 'Ada Admin',
      action: 'updated',
      changes: [{ field: 'currency', before: general.currency, after: other }],
    });
    // Put back, so that other tests read the seeded currency.
    await send(admin, 'PUT', '/general', { ...general, version: saved.body.general.version });

    const key = `audit.test.${unique}`;
    expect((await send(admin, 'POST', '/settings/tenant', { key, value: 'one' })).status).toBe(200);
    expect((await send(admin, 'POST', '/settings/tenant', { key, value: 'two' })).status).toBe(200);
    const [second, first] = await log(admin, `entityType=setting&search=${key}`);
    expect(first).toMatchObject({ action: 'created', changes: [{ field: 'value', after: 'one' }] });
    expect(second).toMatchObject({
      action: 'updated',
      changes: [{ field: 'value', before: 'one', after: 'two' }],
    });

    const secretKey = `audit.secret.${unique}`;
    const secret = { key: secretKey, value: 'sk_live_hush', isSensitive: true };
    expect((await send(admin, 'POST', '/settings/tenant', secret)).status).toBe(200);
    const [hidden] = await log(admin, `search=${secretKey}`);
    expect(hidden).toMatchObject({ entityId: secretKey, changes: [] });
    expect(JSON.stringify(await log(admin, 'entityType=setting'))).not.toContain('sk_live_hush');
  });

  it('an organisation created and edited (custom data too), an invitation sent and revoked', async () => {
    const name = `Audit Org ${unique}`;
    const address = {
      street: 'Hauptstr.',
      houseNumber: '1',
      zipCode: '10115',
      city: 'Berlin',
      country: 'DE',
    };
    const created = await send(admin, 'POST', '/organizations', {
      name,
      email: 'a@org.test',
      ...address,
      customFields: { registrationNumber: 'HRB 1' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const org = created.body.organization;
    const edited = await send(admin, 'PUT', `/organizations/${org.id}`, {
      email: 'b@org.test',
      ...address,
      customFields: { registrationNumber: 'HRB 2' },
      version: org.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const [update, creation] = await log(admin, `entityType=organization&search=${unique}`);
    expect(update).toMatchObject({
      entityId: org.code,
      entityLabel: name,
      actorName: 'Ada Admin',
      action: 'updated',
      changes: [
        { field: 'email', before: 'a@org.test', after: 'b@org.test' },
        { field: 'customFields.registrationNumber', before: 'HRB 1', after: 'HRB 2' },
      ],
    });
    expect(creation).toMatchObject({ action: 'created' });

    const invName = `Invited ${unique}`;
    const sent = await send(admin, 'POST', '/invitations/organizations', {
      email: 'invitee@org.test',
      name: invName,
      slug: `inv-${unique}`,
      ...address,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(
      (await send(admin, 'DELETE', `/invitations/organizations/${sent.body.invitation.id}`)).status,
    ).toBe(204);
    const [revoked, invited] = await log(
      admin,
      `entityType=organization_invitation&search=${unique}`,
    );
    expect(invited).toMatchObject({
      action: 'sent',
      entityLabel: invName,
      changes: [{ field: 'email', before: null, after: 'invitee@org.test' }],
    });
    expect(revoked).toMatchObject({ action: 'revoked', actorName: 'Ada Admin' });
  });
});

describe('what the activity log records beside (issue 16, K3)', () => {
  it('user invitations sent, and deleted one by one or in a batch', async () => {
    const emails = [`inv-a-${unique}@example.test`, `inv-b-${unique}@example.test`];
    const sent = await send(admin, 'POST', '/users/invites/batch', {
      emails,
      roleCodes: ['show-only'],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [a, b] = (sent.body.results as { invite: { id: number } }[]).map((r) => r.invite);
    expect((await send(admin, 'DELETE', `/users/invites/${a!.id}`)).status).toBe(204);
    const batch = await send(admin, 'POST', '/users/invites/delete-batch', { ids: [b!.id] });
    expect(batch.body.results).toEqual([{ id: b!.id, ok: true }]);

    const entries = await log(admin, `entityType=user_invitation&search=${unique}`);
    expect(entries.map((e) => [e.action, e.entityLabel])).toEqual([
      ['revoked', emails[1]],
      ['revoked', emails[0]],
      ['sent', emails[1]],
      ['sent', emails[0]],
    ]);
    expect(entries[3]).toMatchObject({
      actorName: 'Ada Admin',
      changes: [
        { field: 'email', before: null, after: emails[0] },
        { field: 'roles', before: null, after: ['show-only'] },
      ],
    });
    expect(entries[0]).toMatchObject({
      actorName: 'Ada Admin',
      changes: [{ field: 'email', before: emails[1], after: null }],
    });
    // Another workspace's invitation is not found, and nothing is logged for it.
    const theirs = await send(nord, 'DELETE', `/users/invites/${a!.id}`);
    expect(theirs.status).toBe(404);
  });

  it('a Names-tab label edit, each language before and after; the same texts again are none', async () => {
    const path = '/api/0/claimservice/v1/claim-partner-roles/assessor/labels';
    const before = await admin.json('/api/0/claimservice/v1/claim-partner-roles');
    const expert = (before.body.items as { slug: string; labels: Record<string, string> }[]).find(
      (r) => r.slug === 'assessor',
    )!;
    const texts = { ...expert.labels, pl: `Rzeczoznawca ${unique}` };
    const edited = await admin.json(path, { method: 'PUT', json: texts });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await admin.json(path, { method: 'PUT', json: texts })).status).toBe(200);
    const entries = await log(admin, `entityType=name_label&search=${unique}`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      entityType: 'name_label',
      entityId: 'claim_partner_roles:assessor',
      entityLabel: 'Assessor',
      actorName: 'Ada Admin',
      action: 'updated',
      changes: [{ field: 'labels.pl', before: expert.labels.pl ?? null, after: texts.pl }],
    });
    // Put back for the other tests.
    await admin.json(path, { method: 'PUT', json: expert.labels });
  });

  it('a role description translated, each language before and after', async () => {
    const code = `translated-${unique}`;
    const created = await send(admin, 'POST', '/roles', {
      code,
      label: 'Translated',
      description: 'Reads',
      descriptionLabels: { de: 'Liest' },
      permissions: ['policy-management.policies.view'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const edited = await send(admin, 'PUT', `/roles/${created.body.role.id}`, {
      label: 'Translated',
      description: 'Reads',
      descriptionLabels: { de: 'Liest alles', pl: 'Czyta' },
      permissions: ['policy-management.policies.view'],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const [update, creation] = await log(admin, `entityType=role&search=${code}`);
    expect(creation!.changes).toContainEqual({
      field: 'descriptionLabels.de',
      before: null,
      after: 'Liest',
    });
    expect(update).toMatchObject({ action: 'updated', actorName: 'Ada Admin' });
    expect(update!.changes).toEqual([
      { field: 'descriptionLabels.de', before: 'Liest', after: 'Liest alles' },
      { field: 'descriptionLabels.pl', before: null, after: 'Czyta' },
    ]);
    await send(admin, 'DELETE', `/roles/${created.body.role.id}`);
  });
});

describe('reading the log', () => {
  it('filters by kind, actor and time, counts, and pages by keyset without repeats', async () => {
    const all = await log(admin, '');
    expect(all.length).toBeGreaterThan(5);
    expect(all.total).toBeGreaterThanOrEqual(all.length);
    const kinds = new Set(all.map((e) => e.entityType));
    expect([...kinds].every((k) => (ADMIN_ENTITY_TYPES as readonly string[]).includes(k))).toBe(
      true,
    );

    expect((await log(admin, 'entityType=role')).every((e) => e.entityType === 'role')).toBe(true);
    expect((await log(admin, 'actor=ada')).every((e) => e.actorName === 'Ada Admin')).toBe(true);
    expect(await log(admin, 'actor=nobody-at-all')).toHaveLength(0);
    expect(await log(admin, 'to=2000-01-01')).toHaveLength(0);
    const today = await log(
      admin,
      `from=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}`,
    );
    expect(today.length).toBeGreaterThan(0);

    // Two pages of 3 follow each other, newest first, with nothing twice.
    const first = await admin.json(`${T}/audit-events?pageSize=3`);
    const second = await admin.json(
      `${T}/audit-events?pageSize=3&pageToken=${first.body.nextPageToken}`,
    );
    const ids = [...first.body.items, ...second.body.items].map((e: ActivityEntry) => e.id);
    expect(new Set(ids).size).toBe(6);
    expect(ids).toEqual(all.slice(0, 6).map((e) => e.id));

    const bad = await admin.json(`${T}/audit-events?entityType=policy`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_query');
  });

  it('is refused to a user without the settings right, and another workspace sees none of it', async () => {
    const refused = await care.json(`${T}/audit-events`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const theirs = await log(nord, '');
    expect(JSON.stringify(theirs)).not.toContain(unique);
    expect(JSON.stringify(theirs)).not.toContain('Ada Admin');
    const csv = await nord.fetch('/api/0/export/activity_log.csv?lang=en');
    expect(csv.status).toBe(200);
    expect(await csv.text()).not.toContain(unique);
  });

  it('exports the filtered log as CSV: translated headers, tenant date display, no formulas', async () => {
    // A label that a spreadsheet would run as a formula.
    const code = `formula-${unique}`;
    const made = await send(admin, 'POST', '/roles', {
      code,
      label: '=HYPERLINK("x")',
      description: '',
      permissions: ['policy-management.policies.view'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await admin.fetch(
      `/api/0/export/activity_log.csv?entityType=role&search=${code}&lang=de`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="activity_log-/);
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const [header, row, more] = text.split('\r\n');
    expect(header).toBe('Zeitpunkt;Geändert von;Art;Datensatz;Aktion;Änderungen');
    expect(row).toContain(';Ada Admin;Rolle;');
    expect(row).toContain(`'=HYPERLINK`);
    expect(row).toContain(';Angelegt;');
    // The time in the demo tenant's date display (its general settings), not ISO.
    const { body } = await admin.json(`${T}/general`);
    const [entry] = await log(admin, `entityType=role&search=${code}`);
    expect(row!.split(';')[0]).toBe(formatInstant(dateDisplayOf(body.general), entry!.at));
    expect(row).not.toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(more).toBe('');
    expect((await care.json('/api/0/export/activity_log.csv?lang=en')).status).toBe(403);
  });
});
