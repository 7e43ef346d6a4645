import { describe, expect, it } from 'vitest';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

// Tenant-defined names in the user's language (issue 15 point 16): claim and lead statuses and
// claim partner roles carry labels per language; the seeded ones have de, en and pl.
const kit = withSandbox({
  admin: 'admin@demo.test',
  care: 'care@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, care, nord } = kit.sessions;
const claims = serviceCalls(kit, '/claimservice/v1');
const insurance = serviceCalls(kit, '/insuranceservice/v1');

interface Named {
  slug: string;
  name: string;
  labels: Record<string, string>;
}
const items = (body: { items: Named[] }) => body.items;
const bySlug = (list: Named[], slug: string) => list.find((s) => s.slug === slug)!;

describe('labels of tenant-defined names', () => {
  it('gives every seeded claim status, lead status and partner role de, en and pl labels', async () => {
    for (const [calls, path] of [
      [claims, '/claim-statuses'],
      [claims, '/claim-partner-roles'],
      [insurance, '/lead-statuses'],
    ] as const) {
      for (const session of [care, nord]) {
        const list = items((await calls.call(session, path)).body);
        expect(list.length).toBeGreaterThan(4);
        for (const s of list) expect(Object.keys(s.labels).sort()).toEqual(['de', 'en', 'pl']);
      }
    }
    const open = bySlug(items((await claims.call(care, '/claim-statuses')).body), 'open');
    expect(open).toMatchObject({
      name: 'Open',
      labels: { de: 'Offen', en: 'Open', pl: 'Otwarta' },
    });
    // Nordlicht named it in German; the labels are the same texts per language.
    const nordOpen = bySlug(items((await claims.call(nord, '/claim-statuses')).body), 'open');
    expect(nordOpen).toMatchObject({ name: 'Offen', labels: { en: 'Open', pl: 'Otwarta' } });
  });

  it("lets an admin relabel a status of the own workspace only, stamped, without touching the other workspace's", async () => {
    const edit = await claims.send(admin, 'PUT', '/claim-statuses/in-review/labels', {
      de: ' Wird geprüft ',
      en: 'Being checked',
      pl: '',
    });
    expect(edit.status).toBe(200);
    // Trimmed; an empty text clears the language, so the name shows there.
    expect(edit.body).toMatchObject({
      slug: 'in-review',
      name: 'In review',
      labels: { de: 'Wird geprüft', en: 'Being checked' },
    });
    expect(edit.body.labels.pl).toBeUndefined();
    const [row] = await kit
      .db()
      .query<{ updated_by: string }>(
        `SELECT s.updated_by FROM claim_statuses s JOIN tenants t ON t.id = s.tenant_id
          WHERE t.slug = 'demo' AND s.slug = 'in-review'`,
      );
    expect(row!.updated_by).toMatch(/^usr_/);

    const demo = items((await claims.call(care, '/claim-statuses')).body);
    expect(bySlug(demo, 'in-review').labels).toEqual({ de: 'Wird geprüft', en: 'Being checked' });
    const north = items((await claims.call(nord, '/claim-statuses')).body);
    expect(bySlug(north, 'in-review').labels).toEqual({
      de: 'In Prüfung',
      en: 'In review',
      pl: 'W weryfikacji',
    });

    // Lead statuses and partner roles alike.
    const lead = await insurance.send(admin, 'PUT', '/lead-statuses/new/labels', { pl: 'Świeży' });
    expect(lead.status).toBe(200);
    expect(lead.body.labels).toEqual({ pl: 'Świeży' });
    const role = await claims.send(admin, 'PUT', '/claim-partner-roles/witness/labels', {
      en: 'Eyewitness',
    });
    expect(role.body).toMatchObject({ slug: 'witness', labels: { en: 'Eyewitness' } });
    const northRoles = items((await claims.call(nord, '/claim-partner-roles')).body);
    expect(bySlug(northRoles, 'witness').labels.en).toBe('Witness');
  });

  it('refuses a label edit without the settings permission, of an unknown slug, or with a bad body', async () => {
    const refused = await claims.send(care, 'PUT', '/claim-statuses/open/labels', { de: 'X' });
    expect(refused.status).toBe(403);
    const unknown = await claims.send(admin, 'PUT', '/claim-statuses/nope/labels', { de: 'X' });
    expect(unknown.status).toBe(404);
    const long = await claims.send(admin, 'PUT', '/claim-statuses/open/labels', {
      de: 'x'.repeat(101),
    });
    expect(long.status).toBe(400);
    const french = await claims.send(admin, 'PUT', '/claim-statuses/open/labels', { fr: 'Ouvert' });
    expect(french.status).toBe(400);
    // Nothing of those changed the status.
    const open = bySlug(items((await claims.call(care, '/claim-statuses')).body), 'open');
    expect(open.labels).toEqual({ de: 'Offen', en: 'Open', pl: 'Otwarta' });
  });
});
