import { describe, expect, it } from 'vitest';
import { api } from '#server/sandbox/testing.ts';
import { isoToday } from '#common/claims.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

/**
 * Edits that merge (issue 15, point 13): a save sends only the fields the user changed, so a
 * second user's save on top of the newer version keeps the first user's other changes; the 409
 * of a stale save names who saved the newer version. Customers, claims and leads alike: their
 * PATCH takes the changed fields on top of a version, and a stale one answers 409
 * `version_conflict` with the record as it is now, which the record-edit flow shows and re-applies
 * the user's own changes to ("keep mine").
 */

const kit = withSandbox({ care: 'care@demo.test', admin: 'admin@demo.test' });
const ACC = '/accountservice/v1';

const PERSON = {
  type: 'person',
  firstName: 'Jonas',
  lastName: 'Merger',
  email: 'jonas.merger@example.test',
  street: 'Holtenauer Straße',
  houseNumber: '12',
  zipCode: '24105',
  city: 'Kiel',
  phone: '0431 123456',
};

async function newCustomer(email: string): Promise<string> {
  const created = await api(kit.base, `${ACC}/accounts`, {
    token: kit.sessions.care.accessToken,
    body: { ...PERSON, email },
  });
  expect(created.status).toBe(201);
  return created.body.account.code as string;
}

const patch = (code: string, token: string, body: Record<string, unknown>) =>
  api(kit.base, `${ACC}/accounts/${code}`, { method: 'PATCH', token, body });

describe('PATCH /accounts/{id}', () => {
  it('changes only the fields named and says who saved, by name', async () => {
    const code = await newCustomer('patch-one@example.test');
    const res = await patch(code, kit.sessions.care.accessToken, {
      phone: '0431 999999',
      version: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({
      ...PERSON,
      email: 'patch-one@example.test',
      phone: '+49431999999',
      version: 2,
      updatedByName: 'Clara Care',
    });
  });

  it('answers a stale save with 409 naming the other user; the save on top keeps their change', async () => {
    const code = await newCustomer('patch-two@example.test');
    const first = await patch(code, kit.sessions.care.accessToken, {
      phone: '0431 555555',
      version: 1,
    });
    expect(first.status).toBe(200);

    // The admin loaded version 1 and changed the city only.
    const stale = await patch(code, kit.sessions.admin.accessToken, { city: 'Lübeck', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.account).toMatchObject({
      phone: '+49431555555',
      city: 'Kiel',
      version: 2,
      updatedByName: 'Clara Care',
    });
    expect(stale.body.account.updatedBy).toMatch(/^usr_/);

    // "Keep mine": the same change on top of version 2; Clara's phone stays.
    const kept = await patch(code, kit.sessions.admin.accessToken, { city: 'Lübeck', version: 2 });
    expect(kept.status).toBe(200);
    expect(kept.body.account).toMatchObject({
      phone: '+49431555555',
      city: 'Lübeck',
      version: 3,
      updatedByName: 'Ada Admin',
    });
  });

  it('checks the record as it would be saved, and refuses unknown fields or no version', async () => {
    const code = await newCustomer('patch-three@example.test');
    const token = kit.sessions.care.accessToken;
    const invalid = await patch(code, token, { zipCode: 'ABCDE', version: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: 'validation_error',
      issues: [{ path: 'zipCode', code: 'invalid_zip' }],
    });
    // A person keeps needing a last name, whichever fields the patch names.
    const emptied = await patch(code, token, { lastName: '', version: 1 });
    expect(emptied.status).toBe(400);
    expect(emptied.body.issues).toEqual([{ path: 'lastName', code: 'required' }]);
    const unknown = await patch(code, token, { accountNumber: 'K-1', version: 1 });
    expect(unknown.status).toBe(400);
    const noVersion = await patch(code, token, { city: 'Bonn' });
    expect(noVersion.status).toBe(400);
    // Nothing of it was saved.
    const read = await api(kit.base, `${ACC}/accounts/${code}`, { token });
    expect(read.body.account).toMatchObject({ version: 1, zipCode: '24105', lastName: 'Merger' });
  });
});

const claims = serviceCalls(kit, '/claimservice/v1');
const leads = serviceCalls(kit, '/insuranceservice/v1');

/** A new claim of care's, on a seeded active policy that covers it on today's loss date. */
async function newClaim(): Promise<{ code: string; version: number; updatedBy: string }> {
  const { care } = kit.sessions;
  const policies = await api(
    kit.base,
    '/insuranceservice/v1/policies?pageSize=30&filter=status%3DACTIVE&order=id:ASC',
    { token: care.accessToken },
  );
  const today = isoToday('Europe/Berlin');
  for (const policy of policies.body.items as { code: string; policyStartDate: string }[]) {
    if (isoToday('Europe/Berlin', new Date(policy.policyStartDate)) >= today) continue;
    const created = await claims.send(care, 'POST', '/claims', {
      policyCode: policy.code,
      title: 'Merge test',
      description: 'As first told',
      claimType: 'other',
      damageDate: today,
      customFields: { damageLocation: 'Kiel' },
    });
    if (created.status === 201) return created.body.claim;
  }
  throw new Error('no seeded active policy takes a claim today');
}

describe('PATCH /claims/{code}: two users, different fields', () => {
  it('answers the stale save with 409 and the claim as saved; the save on top keeps both', async () => {
    const { care, admin } = kit.sessions;
    const claim = await newClaim();
    expect(claim.version).toBe(1);

    // Care changes the title.
    const first = await claims.send(care, 'PATCH', `/claims/${claim.code}`, {
      title: 'Merge test: water in the cellar',
      version: 1,
    });
    expect(first.status).toBe(200);
    // Only the field sent changed: an omitted description is kept, not cleared (as a PUT would).
    expect(first.body.claim).toMatchObject({ description: 'As first told', version: 2 });

    // The admin loaded version 1 and changed the description only.
    const stale = await claims.send(admin, 'PATCH', `/claims/${claim.code}`, {
      description: 'The neighbour reported it',
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      claim: {
        title: 'Merge test: water in the cellar',
        description: 'As first told',
        version: 2,
        updatedBy: claim.updatedBy,
        // Who saved meanwhile, by name, as a lead's and a customer's conflict say it.
        updatedByName: 'Clara Care',
      },
    });

    // "Keep mine": the same change on top of version 2; care's title stays.
    const kept = await claims.send(admin, 'PATCH', `/claims/${claim.code}`, {
      description: 'The neighbour reported it',
      version: 2,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.claim).toMatchObject({
      title: 'Merge test: water in the cellar',
      description: 'The neighbour reported it',
      customFields: { damageLocation: 'Kiel' },
      version: 3,
    });
    expect(kept.body.claim.updatedBy).not.toBe(claim.updatedBy);
    // Each save is in the claim's history under its author's name.
    const [names] = await kit.db().query<{ actors: string[] }>(
      `SELECT array_agg(actor_name ORDER BY id) AS actors FROM audit_events
        WHERE entity_type = 'claim' AND entity_id = $1 AND action = 'updated'`,
      [claim.code],
    );
    expect(names!.actors).toEqual(['Clara Care', 'Ada Admin']);
  });

  it('keeps the version when a save on top sends what is saved already', async () => {
    const { care, admin } = kit.sessions;
    const claim = await newClaim();
    await claims.send(care, 'PATCH', `/claims/${claim.code}`, { title: 'Same', version: 1 });
    const same = await claims.send(admin, 'PATCH', `/claims/${claim.code}`, {
      title: 'Same',
      version: 2,
    });
    expect(same.status).toBe(200);
    expect(same.body.claim).toMatchObject({ title: 'Same', version: 2 });
  });
});

const IBAN = 'DE89370400440532013000';
const SEPA = { type: 'sepa', sepa: { iban: IBAN } };

describe('PATCH /leads/{id}: two users, different fields', () => {
  it('answers the stale save with 409 naming the other user; the save on top keeps both', async () => {
    const { care, admin } = kit.sessions;
    // A seeded lead still open for edits, of the demo workspace.
    const list = await leads.call(care, '/leads?pageSize=1&filter=status%3Dnew&order=id:DESC');
    const lead = list.body.items[0] as { code: string; version: number };
    expect(lead).toBeDefined();
    const v = lead.version;

    const first = await leads.send(care, 'PATCH', `/leads/${lead.code}`, {
      version: v,
      customData: { source: 'merge-test' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.lead.version).toBe(v + 1);

    // The admin loaded the same version and changed the payment only.
    const stale = await leads.send(admin, 'PATCH', `/leads/${lead.code}`, {
      version: v,
      paymentMethod: SEPA,
      bankAccount: { iban: IBAN },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      lead: {
        customData: { source: 'merge-test' },
        version: v + 1,
        updatedByName: 'Clara Care',
      },
    });

    const kept = await leads.send(admin, 'PATCH', `/leads/${lead.code}`, {
      version: v + 1,
      paymentMethod: SEPA,
      bankAccount: { iban: IBAN },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.lead).toMatchObject({
      customData: { source: 'merge-test' },
      paymentMethod: SEPA,
      bankAccount: { iban: IBAN },
      version: v + 2,
      updatedByName: 'Ada Admin',
    });
  });
});
