import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import pg from 'pg';
import { WebSocket } from 'ws';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  api,
  createTestDatabase,
  latestMail,
  linkParam,
  login,
  makeTempDir,
  startTestSandbox,
  type ApiResponse,
  type Session,
} from '#server/sandbox/testing.ts';

// The same core flows as the PGlite files, on a real PostgreSQL server (DATABASE_URL-style).
let database: { url: string; drop(): Promise<void> };
let tmp: { dir: string; remove(): Promise<void> };
let sandbox: RunningSandbox;

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = await makeTempDir();
  sandbox = await startTestSandbox(tmp.dir, { databaseUrl: database.url });
});

afterAll(async () => {
  await sandbox?.close();
  await database?.drop();
  await tmp?.remove();
});

describe('sandbox on PostgreSQL', () => {
  it('signs in, refreshes with rotation and rejects the old cookie', async () => {
    const session = await login(sandbox.url, 'care@demo.test');
    expect(decodeJwt(session.accessToken).tenant_slug).toBe('demo');
    const next = await api(sandbox.url, '/authservice/v1/refresh-token', {
      body: { username: 'care@demo.test' },
      cookie: session.cookie,
    });
    expect(next.status).toBe(200);
    const replay = await api(sandbox.url, '/authservice/v1/refresh-token', {
      body: { username: 'care@demo.test' },
      cookie: session.cookie,
    });
    expect(replay.status).toBe(401);
    const wrong = await api(sandbox.url, '/authservice/v1/login', {
      body: { username: 'care@demo.test', password: 'Wrong1234' },
    });
    expect(wrong.status).toBe(401);
  });

  it('lists users with paging, filter and roles, isolated per tenant', async () => {
    const admin = await login(sandbox.url, 'admin@demo.test');
    const nord = await login(sandbox.url, 'admin@nordlicht.test');
    const page = await api(sandbox.url, '/tenantservice/v1/users?pageSize=10&expand=roles', {
      token: admin.accessToken,
    });
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(10);
    expect(page.body.nextPageToken).toBe('2');
    expect(page.body.items[0].roles[0].code).toBe('admin');
    const nordUser = (
      await api(sandbox.url, '/tenantservice/v1/users', { token: nord.accessToken })
    ).body.items[0];
    expect(
      (
        await api(sandbox.url, `/tenantservice/v1/users/${nordUser.id}`, {
          token: admin.accessToken,
        })
      ).status,
    ).toBe(404);
    const forbidden = await api(sandbox.url, '/tenantservice/v1/users', {
      token: (await login(sandbox.url, 'care@demo.test')).accessToken,
    });
    expect(forbidden.status).toBe(403);
  });

  it('switches workspaces and refuses the disabled one', async () => {
    const session = await login(sandbox.url, 'admin@demo.test');
    const ok = await api(sandbox.url, '/authservice/v1/workspaces/switch', {
      body: { username: 'admin@demo.test', targetWorkspace: 'demo-sandbox' },
      token: session.accessToken,
      cookie: session.cookie,
    });
    expect(decodeJwt(ok.body.accessToken).tenant_slug).toBe('demo-sandbox');
    const disabled = await api(sandbox.url, '/authservice/v1/workspaces/switch', {
      body: { username: 'admin@demo.test', targetWorkspace: 'demo-archive' },
      token: session.accessToken,
    });
    expect(disabled.status).toBe(403);
  });

  it('runs the SAML code exchange once', async () => {
    const pageHtml = (await api(sandbox.url, '/sandbox-idp/login?tenantSlug=demo')).body as string;
    const user = /value="(usr_[0-9a-f]+)"/.exec(pageHtml)?.[1] ?? '';
    const redirect = await fetch(`${sandbox.url}/sandbox-idp/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tenantSlug: 'demo', user }).toString(),
      redirect: 'manual',
    });
    const code = new URL(redirect.headers.get('location') ?? '', 'http://x').searchParams.get(
      'code',
    );
    const body = { tenantSlug: 'demo', code };
    expect((await api(sandbox.url, '/authservice/v1/login/saml', { body })).status).toBe(200);
    expect((await api(sandbox.url, '/authservice/v1/login/saml', { body })).status).toBe(401);
  });

  it('says hello on the websocket', async () => {
    const session = await login(sandbox.url, 'viewer@demo.test');
    const socket = new WebSocket(
      `${sandbox.url.replace('http', 'ws')}/notificationservice/v1/ws?authToken=${session.accessToken}`,
    );
    const frame = await new Promise<string>((resolve) =>
      socket.once('message', (d) => resolve(String(d))),
    );
    expect(JSON.parse(frame)).toEqual({ type: 'hello', tenantSlug: 'demo' });
    socket.close();
  });

  it('registers through an invitation and resets a password, ending old sessions', async () => {
    const admin = await login(sandbox.url, 'admin@demo.test');
    const invited = await api(sandbox.url, '/tenantservice/v1/users/invites/batch', {
      body: { emails: ['pg.user@example.test'], roleCodes: ['show-only'] },
      token: admin.accessToken,
    });
    expect(invited.body.results[0].ok).toBe(true);
    const inviteMail = await latestMail(sandbox.url, 'pg.user@example.test');
    const registration = {
      firstName: 'Pia',
      lastName: 'Postgres',
      password: 'Pg1234567',
      street: 'Weg',
      houseNumber: '1',
      zipCode: '12345',
      city: 'Berlin',
      country: 'Deutschland',
      isEulaAccepted: true,
      customFields: { registrationNumber: 'HRB 1' },
      invitationToken: linkParam(inviteMail?.link, 'token'),
    };
    const created = await api(sandbox.url, '/authservice/v1/create-user', { body: registration });
    expect(created.status).toBe(201);
    const replay = await api(sandbox.url, '/authservice/v1/create-user', { body: registration });
    expect(replay.status).toBe(403);

    const session = await login(sandbox.url, 'pg.user@example.test', 'Pg1234567');
    await api(sandbox.url, '/authservice/v1/forgot-password', {
      body: { email: 'pg.user@example.test' },
    });
    const resetMail = await latestMail(sandbox.url, 'pg.user@example.test');
    const reset = await api(sandbox.url, '/authservice/v1/reset-password', {
      body: { resetToken: linkParam(resetMail?.link, 'resetToken'), newPassword: 'Pg7654321' },
    });
    expect(reset.status).toBe(204);
    const old = await api(sandbox.url, '/tenantservice/v1/users', { token: session.accessToken });
    expect(old.status).toBe(401);
    const fresh = await login(sandbox.url, 'pg.user@example.test', 'Pg7654321');
    const users = await api(sandbox.url, '/tenantservice/v1/users', { token: fresh.accessToken });
    expect(users.status).toBe(200);
  });

  it('keeps data across a restart and does not seed twice', async () => {
    const admin = await login(sandbox.url, 'admin@demo.test');
    const write = await api(sandbox.url, '/tenantservice/v1/settings/tenant', {
      body: { key: 'dashboardAlert', value: 'persisted' },
      token: admin.accessToken,
    });
    expect(write.status).toBe(200);
    await sandbox.close();
    sandbox = await startTestSandbox(tmp.dir, { databaseUrl: database.url });
    const read = await api(sandbox.url, '/tenantservice/v1/settings/tenant?keys=dashboardAlert', {
      token: admin.accessToken,
    });
    expect(read.body.values[0].value).toBe('persisted');
    const users = await api(sandbox.url, '/tenantservice/v1/users?pageSize=50', {
      token: admin.accessToken,
    });
    // 63 demo users (19 from the first seed, with the finance user of issue 18, 44 from the
    // administration seed) and the one who registered above, none twice.
    expect(users.body.items).toHaveLength(50);
    const rest = await api(sandbox.url, '/tenantservice/v1/users?pageSize=50&pageToken=2', {
      token: admin.accessToken,
    });
    expect(rest.body.items).toHaveLength(14);
    expect(rest.body.nextPageToken).toBeNull();
  });
});

/**
 * Runs `writes` while the test holds the row lock of `code` in `table`: each is sent once the one
 * before waits for the lock, and the lock is let go when all of them wait. The first then wins
 * the row and the others wait for it, each having begun its statement before the winner
 * committed: under READ COMMITTED the interleaving in which a waiting write could act on what it
 * read before. Without the held lock, whether the writes overlap would be a matter of timing.
 */
async function whileLocked(
  table: 'policies' | 'leads',
  code: string,
  writes: (() => Promise<ApiResponse>)[],
): Promise<ApiResponse[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const waiting = async () => {
    // Inside a transaction the statistics views answer the snapshot of their first reading.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows[0]!.n;
  };
  try {
    await client.query('BEGIN');
    await client.query(`SELECT 1 FROM ${table} WHERE code = $1 FOR UPDATE`, [code]);
    const pending: Promise<ApiResponse>[] = [];
    for (const write of writes) {
      pending.push(write());
      // PostgreSQL announces no lock wait (no NOTIFY, no hook of its own): pg_stat_activity is
      // the only place it shows, so it is read (one query after the other) until it does. What
      // is awaited is that state of the server, not a stretch of time; the deadline only fails a
      // write that never queues, generously, as the machine may be loaded.
      const giveUp = Date.now() + 30_000;
      while ((await waiting()) < pending.length) {
        if (Date.now() > giveUp)
          throw new Error(`write ${pending.length} never waited for the lock`);
      }
    }
    await client.query('COMMIT');
    return await Promise.all(pending);
  } finally {
    await client.end();
  }
}

/** The first write done (2xx), the second refused with 409 `error`; answers the second. */
function firstWins([first, second]: ApiResponse[], error: string): ApiResponse {
  expect(first!.status, JSON.stringify(first!.body)).toBeLessThan(300);
  expect([second!.status, second!.body.error]).toEqual([409, error]);
  return second!;
}

describe('concurrent writes on PostgreSQL', () => {
  const I = '/insuranceservice/v1';
  let care: Session;
  let car: { versionId: number; objects: Record<string, number>; account: string };
  const write = (method: string, route: string, body: unknown) => () =>
    api(sandbox.url, I + route, { token: care.accessToken, method, body });

  beforeAll(async () => {
    care = await login(sandbox.url, 'care@demo.test');
    const rows = await sandbox.db.query<{ version_id: number; object_id: number; name: string }>(
      `SELECT v.id AS version_id, o.id AS object_id, o.name FROM product_versions v
         JOIN products p ON p.id = v.product_id JOIN tenants t ON t.id = p.tenant_id
         JOIN insured_objects o ON o.product_version_id = v.id
        WHERE t.slug = 'demo' AND p.slug = 'car-comfort' AND v.status = 'active'`,
    );
    const [account] = await sandbox.db.query<{ code: string }>(
      `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id
        WHERE t.slug = 'demo' ORDER BY a.id LIMIT 1`,
    );
    car = {
      versionId: rows[0]!.version_id,
      objects: Object.fromEntries(rows.map((r) => [r.name, r.object_id])),
      account: account!.code,
    };
  });

  interface Policy {
    id: number;
    code: string;
    status: string;
    currentVersionId: number;
    draftVersionId: number | null;
  }

  async function newPolicy(): Promise<Policy> {
    const res = await write('POST', '/policies', {
      productVersionId: car.versionId,
      accountCode: car.account,
      policyObjects: [
        {
          insuredObjectId: car.objects.default,
          data: {
            policyStartDate: '2025-03-01',
            policyDurationUnit: 'year',
            policyDurationValue: 1,
          },
        },
        {
          insuredObjectId: car.objects.vehicle,
          data: { vehicleValue: 20000, vehicleType: 'car', isCommercial: false },
        },
        { insuredObjectId: car.objects.driver, data: { birthDate: '1990-06-15', sfClass: 10 } },
      ],
    })();
    expect(res.status).toBe(201);
    return res.body.policy;
  }

  async function withDraft(): Promise<Policy> {
    const policy = await newPolicy();
    const res = await write('POST', `/policies/${policy.code}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    })();
    expect(res.status).toBe(201);
    return res.body.policy;
  }

  it('lets the first of two lifecycle writes on one version win, the other a conflict', async () => {
    const policy = await newPolicy();
    const based = { basedOnVersionId: policy.currentVersionId };
    const withdrawn = firstWins(
      await whileLocked('policies', policy.code, [
        write('POST', `/policies/${policy.code}/terminate`, {
          ...based,
          terminationDate: '2025-07-01',
        }),
        write('POST', `/policies/${policy.code}/withdraw`, based),
      ]),
      'version_conflict',
    );
    expect(withdrawn.body.message).toMatch(/^the policy was changed meanwhile \(version \d+/);
    expect(withdrawn.body.policy.status).toBe('TERMINATED');

    const twice = await newPolicy();
    const again = firstWins(
      await whileLocked(
        'policies',
        twice.code,
        [1, 2].map(() =>
          write('POST', `/policies/${twice.code}/withdraw`, {
            basedOnVersionId: twice.currentVersionId,
          }),
        ),
      ),
      'version_conflict',
    );
    expect(again.body.policy.status).toBe('WITHDRAWN');

    const restored = await withDraft();
    const applied = await write('PUT', `/policies/${restored.code}`, {
      basedOnVersionId: restored.draftVersionId,
    })();
    expect(applied.status).toBe(200);
    const changed = applied.body.policy as Policy;
    const terminated = firstWins(
      await whileLocked('policies', changed.code, [
        write('POST', `/policies/${changed.code}/restore-policy-version`, {
          basedOnVersionId: changed.currentVersionId,
          versionId: restored.currentVersionId,
        }),
        write('POST', `/policies/${changed.code}/terminate`, {
          basedOnVersionId: changed.currentVersionId,
          terminationDate: '2025-07-01',
        }),
      ]),
      'version_conflict',
    );
    expect(terminated.body.policy.status).toBe('ACTIVE');
  });

  it('lets the first of two writes on one draft win, whichever comes first', async () => {
    const patch = (policy: Policy) =>
      write('PATCH', `/policies/${policy.code}/draft`, {
        basedOnVersionId: policy.draftVersionId,
        policyObjects: [{ insuredObjectId: car.objects.vehicle, data: { vehicleValue: 30000 } }],
      });
    const apply = (policy: Policy) =>
      write('PUT', `/policies/${policy.code}`, { basedOnVersionId: policy.draftVersionId });

    const applied = await withDraft();
    const late = firstWins(
      await whileLocked('policies', applied.code, [apply(applied), patch(applied)]),
      'version_conflict',
    );
    expect(late.body.message).toMatch(/it has no draft now/);
    expect(late.body.policy.draftVersionId).toBeNull();

    const patched = await withDraft();
    const stale = firstWins(
      await whileLocked('policies', patched.code, [patch(patched), apply(patched)]),
      'version_conflict',
    );
    // The patch stored the draft anew: the apply named the draft as it was before.
    expect(stale.body.policy.draftVersionId).not.toBe(patched.draftVersionId);
    expect(stale.body.policy.currentVersionId).toBe(patched.currentVersionId);
  });

  /** An approved demo lead that no test here took before. */
  const taken: string[] = [];
  async function approvedLead() {
    const [row] = await sandbox.db.query<{ code: string }>(
      `SELECT l.code FROM leads l JOIN tenants t ON t.id = l.tenant_id
        WHERE t.slug = 'demo' AND l.status = 'approved' AND l.code <> ALL($1::text[])
        ORDER BY l.id LIMIT 1`,
      [taken],
    );
    taken.push(row!.code);
    const res = await api(sandbox.url, `${I}/leads/${row!.code}`, { token: care.accessToken });
    return res.body.lead as {
      code: string;
      version: number;
      accountCode: string | null;
      productVersionId: number;
      policy: {
        holder: Record<string, unknown> | null;
        policyObjects: { insuredObjectId: number; data: Record<string, unknown> }[];
      };
    };
  }

  it('lets the first of a status move and an edit of one lead version win', async () => {
    const lead = await approvedLead();
    const edit = firstWins(
      await whileLocked('leads', lead.code, [
        write('PATCH', `/leads/${lead.code}`, { version: lead.version, status: 'declined' }),
        write('PATCH', `/leads/${lead.code}`, {
          version: lead.version,
          customData: { note: 'raced' },
        }),
      ]),
      'version_conflict',
    );
    expect(edit.body.lead).toMatchObject({ status: 'declined', version: lead.version + 1 });

    // The customer changes first: the refused move answers the lead with its new customer.
    const other = await approvedLead();
    const [account] = await sandbox.db.query<{ code: string }>(
      `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id
        WHERE t.slug = 'demo' AND a.code <> $1 ORDER BY a.id LIMIT 1`,
      [other.accountCode ?? ''],
    );
    const move = firstWins(
      await whileLocked('leads', other.code, [
        write('PATCH', `/leads/${other.code}`, {
          version: other.version,
          accountCode: account!.code,
        }),
        write('PATCH', `/leads/${other.code}`, { version: other.version, status: 'declined' }),
      ]),
      'version_conflict',
    );
    expect(move.body.lead).toMatchObject({
      status: 'approved',
      accountCode: account!.code,
      account: { code: account!.code },
    });
  });

  it('converts a lead once: the first policy wins, the second and a late move are refused', async () => {
    const convert = (lead: Awaited<ReturnType<typeof approvedLead>>) =>
      write('POST', '/policies', {
        productVersionId: lead.productVersionId,
        accountCode: lead.accountCode,
        holder: lead.policy.holder,
        // The seeded leads' terms began long ago: the conversion gives today as the new start.
        policyObjects: lead.policy.policyObjects.map((o) => ({
          insuredObjectId: o.insuredObjectId,
          data:
            'policyStartDate' in o.data
              ? { ...o.data, policyStartDate: new Date().toISOString().slice(0, 10) }
              : o.data,
        })),
        leadCode: lead.code,
      });
    const lead = await approvedLead();
    const second = firstWins(
      await whileLocked('leads', lead.code, [convert(lead), convert(lead)]),
      'lead_converted',
    );
    expect(second.body.message).toMatch(/has been converted already into policy POL-\d+$/);
    const policies = await sandbox.db.query('SELECT 1 FROM policies WHERE lead_code = $1', [
      lead.code,
    ]);
    expect(policies).toHaveLength(1);

    const declined = await approvedLead();
    const late = firstWins(
      await whileLocked('leads', declined.code, [
        write('PATCH', `/leads/${declined.code}`, {
          version: declined.version,
          status: 'declined',
        }),
        convert(declined),
      ]),
      'illegal_transition',
    );
    expect(late.body.message).toBe('a lead in status "declined" cannot move to "converted"');
  });
});
