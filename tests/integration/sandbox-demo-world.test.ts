import { describe, expect, it } from 'vitest';
import type { Db } from '#server/sandbox/platform/db.ts';
import { coverIssues } from '#server/sandbox/services/claim/claim-cover.ts';
import { runPolicyRenewals } from '#server/sandbox/services/insurance/policy-renewal.ts';
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
    const [row] = await kit.db().query<{ updated_by: string }>(
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

describe('a label edit on top of the labels it started from', () => {
  it('saves when they are still stored, else is a 409 with the current row', async () => {
    const before = bySlug(items((await claims.call(care, '/claim-statuses')).body), 'settled');
    const first = await claims.send(admin, 'PUT', '/claim-statuses/settled/labels', {
      ...before.labels,
      de: 'Bezahlt',
      basedOn: before.labels,
    });
    expect(first.status).toBe(200);
    // A second editor who loaded the labels before the first save.
    const stale = await claims.send(admin, 'PUT', '/claim-statuses/settled/labels', {
      ...before.labels,
      en: 'Paid',
      basedOn: before.labels,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      current: { slug: 'settled', labels: { de: 'Bezahlt', en: 'Settled' } },
    });
    const after = bySlug(items((await claims.call(care, '/claim-statuses')).body), 'settled');
    expect(after.labels.de).toBe('Bezahlt');
    const tooLong = await insurance.send(admin, 'PUT', '/lead-statuses/quoted/labels', {
      de: 'x'.repeat(101),
      basedOn: {},
    });
    expect(tooLong.status).toBe(400);
  });
});

// The demo world is coherent (issue 15 point 17).
describe('the seeded demo world', () => {
  const db = () => kit.db();

  it('gives the partners of a workspace distinct names', async () => {
    const rows = await db().query<{ slug: string; n: number; names: number }>(
      `SELECT t.slug, count(*)::int AS n, count(DISTINCT p.display_name)::int AS names
         FROM partners p JOIN tenants t ON t.id = p.tenant_id GROUP BY t.slug ORDER BY t.slug`,
    );
    expect(rows.map((r) => r.slug)).toEqual(['demo', 'nordlicht']);
    for (const r of rows) expect(r.names).toBe(r.n);
  });

  it('puts every seeded claim on a policy that covers it (the cover check of a new claim)', async () => {
    const claims = await db().query<{
      tenant_id: number;
      policy_code: string;
      damage_date: string;
      claim_type: string;
      time_zone: string;
    }>(
      `SELECT c.tenant_id, c.policy_code, to_char(c.damage_date, 'YYYY-MM-DD') AS damage_date,
              c.claim_type, s.time_zone
         FROM claims c JOIN general_settings s ON s.tenant_id = c.tenant_id ORDER BY c.id`,
    );
    expect(claims.length).toBe(510);
    const uncovered = [];
    for (const c of claims) {
      const issues = await coverIssues(
        db(),
        c.tenant_id,
        { policyCode: c.policy_code, damageDate: c.damage_date, claimType: c.claim_type },
        c.time_zone,
      );
      if (issues.length) uncovered.push({ ...c, issues });
    }
    expect(uncovered).toEqual([]);
  });

  it('created every customer before the policies sold to them', async () => {
    const [row] = await db().query<{ policies: number; early: number }>(
      `SELECT count(*)::int AS policies,
              count(*) FILTER (WHERE a.created_at > p.created_at
                                  OR a.created_at > coalesce(p.policy_start_date, p.created_at))::int
                AS early
         FROM policies p JOIN accounts a ON a.code = p.account_code AND a.tenant_id = p.tenant_id`,
    );
    expect(row!.policies).toBeGreaterThan(2000);
    expect(row!.early).toBe(0);
  });

  it('gives every terminated policy its termination date and reason, within its first term', async () => {
    const [row] = await db().query<{ n: number; dated: number; within: number }>(
      `SELECT count(*)::int AS n,
              count(p.termination_date) FILTER (WHERE p.termination_reason <> '')::int AS dated,
              count(*) FILTER (WHERE p.termination_date >= t.first AND p.termination_date < now())::int
                AS within
         FROM policies p
         JOIN LATERAL (SELECT min(ts."from") AS first FROM policy_versions v
                         JOIN timeslices ts ON ts.policy_version_id = v.id
                        WHERE v.policy_id = p.id) t ON true
        WHERE p.status = 'TERMINATED'`,
    );
    expect(row!.n).toBeGreaterThan(100);
    expect(row!.dated).toBe(row!.n);
    expect(row!.within).toBe(row!.n);
  });

  it('dates the demo world up to the clock: its newest policies, claims and leads are weeks old', async () => {
    const [newest] = await db().query<Record<'account' | 'policy' | 'claim' | 'lead', Date>>(
      `SELECT (SELECT max(created_at) FROM accounts) AS account,
              (SELECT max(created_at) FROM policies) AS policy,
              (SELECT max(created_at) FROM claims) AS claim,
              (SELECT max(created_at) FROM leads) AS lead`,
    );
    const weeksOld = (date: Date) => (Date.now() - new Date(date).getTime()) / (7 * 86_400_000);
    // Policies, claims and leads: the newest of the seed (whole weeks moved), or one a test made.
    for (const kind of ['policy', 'claim', 'lead'] as const) {
      expect(weeksOld(newest![kind]), kind).toBeGreaterThanOrEqual(0);
      expect(weeksOld(newest![kind]), kind).toBeLessThan(7);
    }
    // Customers were all made before the first policy, nearly two years before the newest.
    expect(weeksOld(newest!.account)).toBeLessThan(7 + 100);
  });

  it('seeds policies as the renewal run leaves them: none due, some expired, some renewed', async () => {
    const overdue = await db().query<{ id: number }>(
      `SELECT p.id FROM policies p
         JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
         JOIN timeslices t ON t.policy_version_id = v.id
        WHERE p.status IN ('ACTIVE', 'SUSPENDED')
        GROUP BY p.id HAVING bool_and(t."to" IS NOT NULL) AND max(t."to") <= now()`,
    );
    expect(overdue).toEqual([]);
    const [counts] = await db().query<{ expired: number; renewed: number }>(
      `SELECT count(*) FILTER (WHERE p.status = 'EXPIRED' AND v.metadata->>'reason' = 'expired')::int
                AS expired,
              count(*) FILTER (WHERE p.status = 'ACTIVE' AND v.metadata->>'reason' = 'renewed')::int
                AS renewed
         FROM policies p JOIN policy_versions v ON v.policy_id = p.id AND v.is_current`,
    );
    expect(counts!.expired).toBeGreaterThan(100);
    expect(counts!.renewed).toBeGreaterThan(100);
    // The run at the sandbox's start, and any run now, has nothing to do.
    expect(await runPolicyRenewals(kit.db() as Db, Date.now())).toEqual({ renewed: 0, expired: 0 });
  });
});
