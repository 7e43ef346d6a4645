import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { api, login, makeTempDir, startTestSandbox } from '#server/sandbox/testing.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const T = '/tenantservice/v1';

async function counts(sandbox: RunningSandbox) {
  const [row] = await sandbox.db.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM tenant_users tu JOIN tenants t ON t.id = tu.tenant_id
              WHERE t.slug = 'demo') AS users,
            (SELECT count(*)::int FROM users u JOIN tenant_users tu ON tu.user_id = u.id
               JOIN tenants t ON t.id = tu.tenant_id
              WHERE t.slug = 'demo' AND u.status = 'disabled') AS disabled,
            (SELECT count(*)::int FROM users u JOIN tenant_users tu ON tu.user_id = u.id
               JOIN tenants t ON t.id = tu.tenant_id
              WHERE t.slug = 'demo' AND u.status = 'invited') AS invited,
            (SELECT count(*)::int FROM organizations) AS organizations,
            (SELECT count(*)::int FROM invites WHERE used_at IS NULL) AS invites,
            (SELECT count(*)::int FROM organization_invitations) AS org_invitations,
            (SELECT count(*)::int FROM custom_schemas WHERE entity = 'organization') AS schemas`,
  );
  return row;
}

describe('administration seed', () => {
  // How long the seed takes is a benchmark (bench/seed-time.ts): a wall-clock limit in CI fails at
  // random on a loaded machine (5.9 s, then 3.05 s, against a 3 s limit for a 1.5 s seed).
  it('seeds enough of everything for scrolling lists, in every step', async () => {
    const tmp = await makeTempDir();
    cleanups.push(tmp.remove);
    const lines: { msg?: string; ms?: number }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const sandbox = await startTestSandbox(tmp.dir, { logger });
    cleanups.push(() => sandbox.close());
    const steps = lines.filter((l) => l.msg?.endsWith('seeded'));
    // Demo world, administration, products, customers and partners, policies, leads (issue 4),
    // claims and their documents (issue 5), the claim payment limits per role (issue 15), the
    // process manager's workflows and their instances (issue 17), the customers' payment methods,
    // invoices and payments (issue 18).
    expect(steps).toHaveLength(12);
    const c = await counts(sandbox);
    expect(c?.users).toBeGreaterThanOrEqual(60);
    expect(c?.disabled).toBeGreaterThanOrEqual(3);
    expect(c?.invited).toBeGreaterThanOrEqual(3);
    expect(c?.organizations).toBeGreaterThanOrEqual(4);
    expect(c?.invites).toBeGreaterThanOrEqual(8);
    expect(c?.org_invitations).toBe(2);
    expect(c?.schemas).toBe(1);
    // Nordlicht gets none of it.
    const nord = await login(sandbox.url, 'admin@nordlicht.test');
    const users = await api(sandbox.url, `${T}/users`, { token: nord.accessToken });
    expect(users.body.items).toHaveLength(1);
    // A whole first seed: its time is bench/seed-time.ts's to judge, not this test's.
  }, 90_000);

  it('seeds a data directory created before migration 002, once', async () => {
    const tmp = await makeTempDir();
    cleanups.push(tmp.remove);
    const first = await startTestSandbox(tmp.dir);
    // Turn the database back into what the previous release left behind.
    for (const sql of [
      `DELETE FROM user_roles WHERE user_id IN (SELECT id FROM users WHERE email ~ '\\d@demo\\.test$')`,
      `DELETE FROM tenant_users WHERE user_id IN (SELECT id FROM users WHERE email ~ '\\d@demo\\.test$')`,
      `DELETE FROM users WHERE email ~ '\\d@demo\\.test$'`,
      `DROP TABLE outbox_emails, password_reset_tokens, user_settings, custom_schemas,
         organization_invitation_roles, organization_invitations, invite_roles, invites`,
      'ALTER TABLE tenant_users DROP COLUMN organization_id',
      'DROP TABLE organizations',
      'ALTER TABLE users DROP COLUMN tokens_valid_after, DROP COLUMN profile',
      // The outbox's HTML part (041) came long after 002: that release had neither.
      `DELETE FROM schema_migrations WHERE version IN ('002-administration', '041-outbox-html')`,
    ]) {
      await first.db.query(sql);
    }
    await first.close();

    const second = await startTestSandbox(tmp.dir);
    const afterUpgrade = await counts(second);
    expect(afterUpgrade?.users).toBeGreaterThanOrEqual(60);
    expect(afterUpgrade?.organizations).toBeGreaterThanOrEqual(4);
    await second.close();

    const third = await startTestSandbox(tmp.dir);
    cleanups.push(() => third.close());
    expect(await counts(third)).toEqual(afterUpgrade);
    await login(third.url, 'anna.albrecht0@demo.test');
    // Three sandboxes one after the other, each migrating and seeding: more than the default.
  }, 90_000);
});

// The default statuses' and roles' labels are stored by the seed with the rows, and given once by
// migration 026 to rows seeded before: a start-up labels nothing (issue 16).
describe('default name labels', () => {
  it('are given by migration 026 once, never at start-up', async () => {
    const tmp = await makeTempDir();
    cleanups.push(tmp.remove);
    const first = await startTestSandbox(tmp.dir);
    const unlabelled = `SELECT (SELECT count(*)::int FROM claim_statuses WHERE labels IS NULL)
                             + (SELECT count(*)::int FROM lead_statuses WHERE labels IS NULL)
                             + (SELECT count(*)::int FROM claim_partner_roles WHERE labels IS NULL) AS n`;
    const count = async (s: RunningSandbox) => (await s.db.query<{ n: number }>(unlabelled))[0]!.n;
    expect(await count(first)).toBe(0);
    // What a release before the labels left behind, with one status an admin cleared.
    for (const table of ['claim_statuses', 'lead_statuses', 'claim_partner_roles'])
      await first.db.query(`UPDATE ${table} SET labels = NULL`);
    await first.db.query(`UPDATE claim_statuses SET labels = '{}' WHERE slug = 'closed'`);
    await first.close();

    // A start without the migration pending does no labelling.
    const second = await startTestSandbox(tmp.dir);
    expect(await count(second)).toBeGreaterThan(0);
    await second.db.query(
      `DELETE FROM schema_migrations WHERE version = '026-default-name-labels'`,
    );
    await second.close();

    const third = await startTestSandbox(tmp.dir);
    cleanups.push(() => third.close());
    expect(await count(third)).toBe(0);
    const rows = await third.db.query<{ slug: string; labels: Record<string, string> }>(
      `SELECT s.slug, s.labels FROM claim_statuses s JOIN tenants t ON t.id = s.tenant_id
        WHERE t.slug = 'demo' AND s.slug IN ('open', 'closed') ORDER BY s.slug`,
    );
    expect(rows).toEqual([
      { slug: 'closed', labels: {} },
      { slug: 'open', labels: { de: 'Offen', en: 'Open', pl: 'Otwarta' } },
    ]);
    // Three sandboxes one after the other, the first seeding: more than the default.
  }, 90_000);
});
