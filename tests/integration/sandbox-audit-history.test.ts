import { describe, expect, it } from 'vitest';
import { HistoryPageSchema, type HistoryEntry } from '#common/contracts/shared.ts';
import { contractProblems } from '#common/contracts/drift.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import type { Session } from '#server/sandbox/testing.ts';

/**
 * The audit trail (issue 15, point 12): a change to a customer, claim, lead, policy, product
 * version or user records who by name, when and which fields changed; each record's history is
 * read like the record (the same permission, 404 for another workspace's record).
 */

const kit = withSandbox({
  care: 'care@demo.test',
  manager: 'manager@demo.test',
  admin: 'admin@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
});
const { care, manager, admin, noui, nord } = kit.sessions;
const accounts = serviceCalls(kit, '/accountservice/v1');
const claims = serviceCalls(kit, '/claimservice/v1');
const insurance = serviceCalls(kit, '/insuranceservice/v1');
const tenant = serviceCalls(kit, '/tenantservice/v1');

/** The newest page of a record's history, checked against its contract. */
async function historyOf(
  calls: ReturnType<typeof serviceCalls>,
  session: Session,
  route: string,
): Promise<HistoryEntry[]> {
  const res = await calls.call(session, `${route}/history`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(contractProblems(HistoryPageSchema, res.body)).toEqual([]);
  return res.body.items;
}

/** The record's history cannot be read from another workspace, nor without the right to read. */
async function expectGuarded(calls: ReturnType<typeof serviceCalls>, route: string) {
  expect((await calls.call(nord, `${route}/history`)).status).toBe(404);
  const refused = await calls.call(noui, `${route}/history`);
  expect(refused.status).toBe(403);
  expect(refused.body.error).toBe('forbidden');
}

async function seeded<T>(sql: string): Promise<T> {
  const [row] = await kit.db().query<T>(sql);
  if (!row) throw new Error(`nothing seeded for ${sql}`);
  return row;
}

describe('the history of each kind of record', () => {
  it('a customer: who by name, when, and the changed field before and after', async () => {
    const { code } = await seeded<{ code: string }>(
      `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id AND t.slug = 'demo'
        WHERE a.type = 'person' ORDER BY a.id LIMIT 1`,
    );
    const account = (await accounts.call(care, `/accounts/${code}`)).body.account;
    const before = Date.now();
    const saved = await accounts.send(care, 'PUT', `/accounts/${code}`, {
      ...account,
      city: `${account.city} Nord`,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const [newest, ...older] = await historyOf(accounts, care, `/accounts/${code}`);
    expect(newest).toMatchObject({
      entityType: 'account',
      entityId: code,
      actorName: 'Clara Care',
      action: 'updated',
      changes: [{ field: 'city', before: account.city, after: `${account.city} Nord` }],
    });
    expect(Date.parse(newest!.at)).toBeGreaterThanOrEqual(before - 1000);
    // Nothing of the user's id or code is in the answer.
    expect(JSON.stringify(newest)).not.toMatch(/usr_/);
    expect(older).toEqual([]);

    // A save of what is saved already changes nothing and records nothing.
    const again = await accounts.send(care, 'PUT', `/accounts/${code}`, {
      ...saved.body.account,
    });
    expect(again.status).toBe(200);
    expect(await historyOf(accounts, care, `/accounts/${code}`)).toHaveLength(1);
    await expectGuarded(accounts, `/accounts/${code}`);
  });

  it('a claim: its creation, an edit, a status move and a settlement, newest first', async () => {
    const policy = await seeded<{ code: string; from: string }>(
      `SELECT p.code, to_char(min(t."from") AT TIME ZONE 'Europe/Berlin', 'YYYY-MM-DD') AS "from"
         FROM policies p
         JOIN tenants tn ON tn.id = p.tenant_id AND tn.slug = 'demo'
         JOIN products pr ON pr.id = p.product_id AND pr.category = 'car'
         JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
         JOIN timeslices t ON t.policy_version_id = v.id
        WHERE p.status = 'ACTIVE'
        GROUP BY p.id HAVING min(t."from") < now() - interval '10 days' ORDER BY p.id LIMIT 1`,
    );
    const damageDate = new Date(Date.parse(`${policy.from}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    const created = await claims.send(care, 'POST', '/claims', {
      policyCode: policy.code,
      title: 'Rear-end collision',
      damageDate,
      claimType: 'damage',
      customFields: { damageLocation: 'Berlin' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { code } = created.body.claim;
    const edited = await claims.send(care, 'PATCH', `/claims/${code}`, {
      title: 'Rear-end collision at a junction',
      customFields: { damageLocation: 'Hamburg' },
      version: created.body.claim.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const moved = await claims.send(care, 'PATCH', `/claims/${code}`, {
      status: 'in-review',
      version: edited.body.claim.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const settled = await claims.send(care, 'POST', '/settlements', {
      claimCode: code,
      insuredObject: 'vehicle',
      reserve: 150_000,
      payment: 0,
      recourse: 0,
    });
    expect(settled.status, JSON.stringify(settled.body)).toBe(201);

    const history = await historyOf(claims, care, `/claims/${code}`);
    expect(history.map((e) => e.action)).toEqual([
      'settlement_added',
      'status_changed',
      'updated',
      'created',
    ]);
    expect(history.every((e) => e.actorName === 'Clara Care')).toBe(true);
    // What a reader learns: the object and the amounts, not the claim itself or the currency.
    expect(history[0]!.changes.map((c: { field: string }) => c.field)).toEqual([
      'settlement.insuredObject',
      'settlement.reserve',
      'settlement.payment',
      'settlement.recourse',
    ]);
    expect(history[0]!.changes).toContainEqual({
      field: 'settlement.reserve',
      before: null,
      after: 150_000,
    });
    expect(history[1]!.changes).toEqual([
      { field: 'status', before: created.body.claim.status, after: 'in-review' },
    ]);
    expect(history[2]!.changes).toEqual([
      {
        field: 'title',
        before: 'Rear-end collision',
        after: 'Rear-end collision at a junction',
      },
      { field: 'customFields.damageLocation', before: 'Berlin', after: 'Hamburg' },
    ]);
    // Paged like every list.
    const first = await claims.call(care, `/claims/${code}/history?pageSize=3`);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextPageToken).toBe('2');
    const second = await claims.call(care, `/claims/${code}/history?pageSize=3&pageToken=2`);
    expect(second.body.items.map((e: HistoryEntry) => e.action)).toEqual(['created']);
    await expectGuarded(claims, `/claims/${code}`);
  });

  it('a lead: a status move names the status before and after', async () => {
    const lead = await seeded<{ code: string; status: string }>(
      `SELECT l.code, l.status FROM leads l JOIN tenants t ON t.id = l.tenant_id AND t.slug = 'demo'
        WHERE EXISTS (SELECT 1 FROM status_transition_rules r WHERE r.tenant_id = l.tenant_id
                        AND r.entity_type = 'lead' AND r.from_status = l.status
                        AND r.to_status <> 'converted')
        ORDER BY l.id LIMIT 1`,
    );
    const { to_status: next } = await seeded<{ to_status: string }>(
      `SELECT r.to_status FROM status_transition_rules r JOIN tenants t ON t.id = r.tenant_id
        WHERE t.slug = 'demo' AND r.entity_type = 'lead' AND r.from_status = '${lead.status}'
          AND r.to_status <> 'converted' ORDER BY r.id LIMIT 1`,
    );
    const current = (await insurance.call(care, `/leads/${lead.code}`)).body.lead;
    const moved = await insurance.send(care, 'PATCH', `/leads/${lead.code}`, {
      status: next,
      version: current.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [newest] = await historyOf(insurance, care, `/leads/${lead.code}`);
    expect(newest).toMatchObject({
      entityType: 'lead',
      actorName: 'Clara Care',
      action: 'status_changed',
      changes: [{ field: 'status', before: lead.status, after: next }],
    });
    await expectGuarded(insurance, `/leads/${lead.code}`);
  });

  it('a policy: a withdrawal records the status it left', async () => {
    const { code } = await seeded<{ code: string }>(
      `SELECT p.code FROM policies p JOIN tenants t ON t.id = p.tenant_id AND t.slug = 'demo'
        WHERE p.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM policy_versions d WHERE d.policy_id = p.id AND d.is_draft)
        ORDER BY p.id DESC LIMIT 1`,
    );
    const policy = (await insurance.call(care, `/policies/${code}`)).body.policy;
    const withdrawn = await insurance.send(care, 'POST', `/policies/${code}/withdraw`, {
      basedOnVersionId: policy.currentVersionId,
      reason: 'Cooling-off period',
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    const [newest] = await historyOf(insurance, care, `/policies/${code}`);
    expect(newest).toMatchObject({
      entityType: 'policy',
      actorName: 'Clara Care',
      action: 'withdrawn',
      changes: [{ field: 'status', before: 'ACTIVE', after: 'WITHDRAWN' }],
    });
    // Every seeded role reads policies; another workspace still cannot.
    expect((await insurance.call(nord, `/policies/${code}/history`)).status).toBe(404);
  });

  it('a product version: its creation and a new description', async () => {
    const { id: productId } = await seeded<{ id: number }>(
      `SELECT p.id FROM products p JOIN tenants t ON t.id = p.tenant_id AND t.slug = 'demo'
        ORDER BY p.id LIMIT 1`,
    );
    const created = await insurance.send(manager, 'POST', '/product-versions', {
      productId,
      description: 'Tariff 2027',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id } = created.body.productVersion;
    const saved = await insurance.send(manager, 'PUT', `/product-versions/${id}`, {
      description: 'Tariff 2027 (draft)',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const history = await historyOf(insurance, manager, `/product-versions/${id}`);
    expect(history).toMatchObject([
      {
        entityType: 'product_version',
        actorName: 'Max Manager',
        action: 'updated',
        changes: [{ field: 'description', before: 'Tariff 2027', after: 'Tariff 2027 (draft)' }],
      },
      { action: 'created', changes: [] },
    ]);
    await expectGuarded(insurance, `/product-versions/${id}`);
  });

  it("a product version's parts: an insured object, a field and a named range added, changed, removed", async () => {
    const { id: productId } = await seeded<{ id: number }>(
      `SELECT p.id FROM products p JOIN tenants t ON t.id = p.tenant_id AND t.slug = 'demo'
        ORDER BY p.id LIMIT 1`,
    );
    const version = await insurance.send(manager, 'POST', '/product-versions', {
      productId,
      description: 'Tariff with parts',
    });
    expect(version.status, JSON.stringify(version.body)).toBe(201);
    const versionId = version.body.productVersion.id;
    const object = await insurance.send(manager, 'POST', '/insured-objects', {
      productVersionId: versionId,
      name: 'trailer',
      label: 'Trailer',
    });
    expect(object.status, JSON.stringify(object.body)).toBe(201);
    const fieldBody = {
      insuredObjectId: object.body.insuredObject.id,
      name: 'trailerValue',
      label: 'Trailer value',
      type: 'number',
    };
    const field = await insurance.send(manager, 'POST', '/product-fields', fieldBody);
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const relabelled = await insurance.send(
      manager,
      'PUT',
      `/product-fields/${field.body.productField.id}`,
      { ...fieldBody, label: 'Value of the trailer' },
    );
    expect(relabelled.status, JSON.stringify(relabelled.body)).toBe(200);
    const range = await insurance.send(manager, 'POST', '/named-ranges', {
      productVersionId: versionId,
      name: 'ageBand',
      bands: [{ from: 0, to: 25, value: 1.5 }],
    });
    expect(range.status, JSON.stringify(range.body)).toBe(201);
    expect(
      (await insurance.send(manager, 'DELETE', `/named-ranges/${range.body.namedRange.id}`)).status,
    ).toBe(204);

    const history = await historyOf(insurance, manager, `/product-versions/${versionId}`);
    expect(history.slice(0, 5)).toMatchObject([
      { action: 'named_range_removed', entityLabel: 'ageBand', actorName: 'Max Manager' },
      { action: 'named_range_added', entityLabel: 'ageBand' },
      {
        action: 'field_changed',
        entityLabel: 'trailerValue',
        changes: [{ field: 'label', before: 'Trailer value', after: 'Value of the trailer' }],
      },
      { action: 'field_added', entityLabel: 'trailerValue' },
      { action: 'insured_object_added', entityLabel: 'trailer', actorName: 'Max Manager' },
    ]);
  });

  it("a claim's partner: linked and unlinked, by name and role", async () => {
    const link = await seeded<{ claim: string; partner: string; name: string; role: number }>(
      `SELECT c.code AS claim, p.code AS partner, p.display_name AS name, r.id AS role
         FROM claims c JOIN tenants t ON t.id = c.tenant_id AND t.slug = 'demo'
         JOIN partners p ON p.tenant_id = c.tenant_id
         JOIN claim_partner_roles r ON r.tenant_id = c.tenant_id
        WHERE c.status NOT IN ('closed', 'cancelled')
          AND NOT EXISTS (SELECT 1 FROM claim_partners cp WHERE cp.claim_id = c.id
                           AND cp.partner_id = p.id AND cp.claim_partner_role_id = r.id)
        ORDER BY c.id, p.id, r.id LIMIT 1`,
    );
    const linked = await claims.send(care, 'POST', `/claims/${link.claim}/partner`, {
      partnerCode: link.partner,
      claimPartnerRoleId: link.role,
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(
      (await claims.send(care, 'DELETE', `/claim-partners/${linked.body.claimPartner.id}`)).status,
    ).toBe(204);
    const [unlinked, added] = await historyOf(claims, care, `/claims/${link.claim}`);
    expect(added).toMatchObject({
      action: 'partner_linked',
      actorName: 'Clara Care',
      changes: [{ field: 'partner', before: null }],
    });
    expect(added!.entityLabel).toContain(link.name);
    expect(unlinked).toMatchObject({
      action: 'partner_unlinked',
      changes: [{ field: 'partner', after: null }],
    });
  });

  it('a user: roles given and taken, disabled and enabled again', async () => {
    const { id } = await seeded<{ id: number }>(
      `SELECT id FROM users WHERE email = 'jonas.becker@demo.test'`,
    );
    const roles = await tenant.call(admin, `/users/${id}?expand=roles`);
    expect(roles.status, JSON.stringify(roles.body)).toBe(200);
    const before: { id: number; label: string }[] = roles.body.user.roles;
    const { id: viewerRole } = await seeded<{ id: number }>(
      `SELECT r.id FROM roles r JOIN tenants t ON t.id = r.tenant_id AND t.slug = 'demo'
        WHERE r.label = 'Show only'`,
    );
    const assigned = await tenant.send(admin, 'POST', `/users/${id}/assign-roles`, {
      roleIds: [...before.map((r) => r.id), viewerRole],
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect((await tenant.send(admin, 'POST', '/users/disable-batch', { ids: [id] })).status).toBe(
      200,
    );
    expect((await tenant.send(admin, 'POST', '/users/enable-batch', { ids: [id] })).status).toBe(
      200,
    );
    const history = await historyOf(tenant, admin, `/users/${id}`);
    expect(history).toMatchObject([
      { action: 'enabled', changes: [{ field: 'status', before: 'disabled', after: 'active' }] },
      { action: 'disabled', changes: [{ field: 'status', before: 'active', after: 'disabled' }] },
      {
        entityType: 'user',
        actorName: 'Ada Admin',
        action: 'roles_changed',
        changes: [
          {
            field: 'roles',
            before: before.map((r) => r.label).sort(),
            after: [...before.map((r) => r.label), 'Show only'].sort(),
          },
        ],
      },
    ]);
    // Customer care reads no users, so no user's history either.
    expect((await tenant.call(care, `/users/${id}/history`)).status).toBe(403);
    expect((await tenant.call(nord, `/users/${id}/history`)).status).toBe(404);
  });
});
