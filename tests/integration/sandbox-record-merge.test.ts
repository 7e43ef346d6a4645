import { describe, expect, it } from 'vitest';
import { api } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

/**
 * Edits that merge (issue 15, point 13): a save sends only the fields the user changed, so a
 * second user's save on top of the newer version keeps the first user's other changes; the 409
 * of a stale save names who saved the newer version.
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
