import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { hashPassword, randomToken, sha256 } from '#server/sandbox/platform/crypto.ts';
import { DEMO_PASSWORD, newUserCode } from './seed.ts';
import { INVITE_TTL_SECONDS, newCode } from '#server/sandbox/platform/admin-shared.ts';
import { sendTenantMail } from '#server/sandbox/services/notification/index.ts';
import { mailOrganizationInvitation } from './organization-routes.ts';

const ORGANIZATIONS = [
  ['Demo Versicherung Zentrale', 'zentrale@demo.test', 'Hauptstraße', '1', '10115', 'Berlin'],
  ['Agentur Nord', 'nord@demo.test', 'Hafenweg', '12', '20457', 'Hamburg'],
  ['Agentur Süd', 'sued@demo.test', 'Marienplatz', '8', '80331', 'München'],
  ['Agentur West', 'west@demo.test', 'Rheinufer', '44', '50667', 'Köln'],
  ['Schadenservice Ost', 'ost@demo.test', 'Elballee', '3a', '01067', 'Dresden'],
] as const;

const FIRST = [
  'Anna',
  'Ben',
  'Carla',
  'David',
  'Eva',
  'Finn',
  'Greta',
  'Henrik',
  'Ida',
  'Jan',
  'Klara',
  'Leon',
  'Marta',
  'Nils',
  'Olga',
  'Piotr',
  'Quentin',
  'Rosa',
  'Stefan',
  'Tara',
  'Ulla',
  'Viktor',
];
const LAST = [
  'Albrecht',
  'Bauer',
  'Czerny',
  'Dietrich',
  'Engel',
  'Fuchs',
  'Graf',
  'Horn',
  'Iwanowski',
  'Jung',
  'Kowalska',
  'Lorenz',
  'Meyer',
  'Nowak',
  'Otto',
  'Peters',
  'Quast',
  'Roth',
  'Sommer',
  'Thiel',
  'Ullrich',
  'Vogel',
  'Zimmermann',
];
/**
 * The demo organisations' custom fields, labelled in de, en and pl (issue 15 point 16, issue 16).
 * Migration 028 gives these labels to schemas seeded before; custom-field-labels.test.ts checks
 * that both agree.
 */
export const DEMO_ORGANIZATION_FIELDS = [
  {
    name: 'registrationNumber',
    label: 'Registration number',
    labels: { de: 'Handelsregisternummer', en: 'Registration number', pl: 'Numer KRS' },
    type: 'string',
    isRequired: true,
    minLength: 3,
    maxLength: 20,
  },
  {
    name: 'employees',
    label: 'Employees',
    labels: { de: 'Mitarbeitende', en: 'Employees', pl: 'Liczba pracowników' },
    type: 'number',
    isRequired: false,
    minimum: 1,
    maximum: 100000,
  },
  {
    name: 'foundedOn',
    label: 'Founded on',
    labels: { de: 'Gegründet am', en: 'Founded on', pl: 'Data założenia' },
    type: 'date',
    isRequired: false,
  },
];
const ROLES = ['customer-care', 'show-only', 'product-manager', 'customer-care'];
const EXTRA_USERS = 44;

async function seedTenant(
  tx: Queryable,
  tenantId: number,
  groupId: number,
  passwordHash: string,
  publicBaseUrl: string,
) {
  await tx.query(
    `INSERT INTO custom_schemas (tenant_id, code, entity, fields) VALUES ($1, 'organization-extra',
       'organization', $2)`,
    [tenantId, JSON.stringify(DEMO_ORGANIZATION_FIELDS)],
  );
  const orgIds: number[] = [];
  for (const [i, [name, email, street, houseNumber, zipCode, city]] of ORGANIZATIONS.entries()) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO organizations (tenant_id, code, parent_id, name, email, street, house_number,
                                  zip_code, city, country, custom_fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'Deutschland', $10) RETURNING id`,
      [
        tenantId,
        newCode('org'),
        i === 0 ? null : orgIds[0],
        name,
        email,
        street,
        houseNumber,
        zipCode,
        city,
        JSON.stringify({ registrationNumber: `HRB ${10000 + i * 137}`, employees: 20 + i * 15 }),
      ],
    );
    if (!row) throw new Error('organisation not created');
    orgIds.push(row.id);
  }
  const roles = new Map(
    (
      await tx.query<{ id: number; code: string }>(
        'SELECT id, code FROM roles WHERE tenant_id = $1',
        [tenantId],
      )
    ).map((r) => [r.code, r.id]),
  );
  // The existing demo users get organisations too, round robin, except the administrator.
  await tx.query(
    `UPDATE tenant_users tu SET organization_id = ($2::int[])[1 + (tu.user_id % $3)]
       FROM users u WHERE u.id = tu.user_id AND tu.tenant_id = $1 AND u.email <> 'admin@demo.test'`,
    [tenantId, orgIds, orgIds.length],
  );

  const users = Array.from({ length: EXTRA_USERS }, (_, i) => {
    const first = FIRST[i % FIRST.length] ?? 'Anna';
    const last = LAST[(i * 7) % LAST.length] ?? 'Meyer';
    // Mostly active; every ninth disabled, every eleventh still invited.
    const status = i % 9 === 4 ? 'disabled' : i % 11 === 7 ? 'invited' : 'active';
    return {
      email: `${first}.${last}${i}`.toLowerCase() + '@demo.test',
      first,
      last,
      status,
      role: ROLES[i % ROLES.length] ?? 'show-only',
      org: orgIds[i % orgIds.length] ?? null,
    };
  });
  const inserted = await tx.query<{ id: number; email: string }>(
    `INSERT INTO users (tenant_group_id, tenant_id, code, sub, email, password_hash, first_name,
                        last_name, status)
     SELECT $1, $2, c, s, e, CASE WHEN st = 'invited' THEN NULL ELSE $3 END, f, l, st
       FROM unnest($4::text[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::text[])
         AS x(c, s, e, f, l, st)
     ON CONFLICT (tenant_group_id, lower(email)) DO NOTHING
     RETURNING id, email`,
    [
      groupId,
      tenantId,
      passwordHash,
      users.map(() => newUserCode()),
      users.map(() => randomUUID()),
      users.map((u) => u.email),
      users.map((u) => u.first),
      users.map((u) => u.last),
      users.map((u) => u.status),
    ],
  );
  // Users left over from an earlier run of this step (an administrator emptied the other tables)
  // are kept as they are rather than failing the start on their unique e-mail.
  const idByEmail = new Map(inserted.map((r) => [r.email, r.id]));
  const fresh = users.filter((u) => idByEmail.has(u.email));
  await tx.query(
    `INSERT INTO tenant_users (tenant_id, user_id, organization_id)
     SELECT $1, unnest($2::int[]), unnest($3::int[])`,
    [tenantId, fresh.map((u) => idByEmail.get(u.email)), fresh.map((u) => u.org)],
  );
  await tx.query(
    `INSERT INTO user_roles (tenant_id, user_id, role_id)
     SELECT $1, unnest($2::int[]), unnest($3::int[])`,
    [tenantId, fresh.map((u) => idByEmail.get(u.email)), fresh.map((u) => roles.get(u.role))],
  );

  for (let i = 0; i < 10; i++) {
    const email = `invitee${i + 1}@example.test`;
    const token = randomToken();
    const [invite] = await tx.query<{ id: number }>(
      `INSERT INTO invites (tenant_id, code, email, organization_id, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING id`,
      [
        tenantId,
        newCode('inv'),
        email,
        orgIds[i % orgIds.length],
        sha256(token),
        INVITE_TTL_SECONDS - i * 3600,
      ],
    );
    if (!invite) throw new Error('invite not created');
    await tx.query('INSERT INTO invite_roles (tenant_id, invite_id, role_id) VALUES ($1, $2, $3)', [
      tenantId,
      invite.id,
      roles.get(i % 2 ? 'show-only' : 'customer-care'),
    ]);
    await sendTenantMail(tx, {
      tenantId,
      to: email,
      kind: 'userInvitation',
      name: 'Demo Versicherung AG',
      path: `/registration?token=${token}`,
      publicBaseUrl,
    });
  }

  for (const [i, inv] of [
    {
      name: 'Makler Müller GmbH',
      slug: 'makler-mueller',
      email: 'kontakt@mueller-makler.test',
      sso: false,
    },
    {
      name: 'Versicherungsbüro Lange',
      slug: 'buero-lange',
      email: 'info@lange-buero.test',
      sso: true,
    },
  ].entries()) {
    const token = randomToken();
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO organization_invitations (tenant_id, code, email, name, slug,
         parent_organization_id, street, house_number, zip_code, city, country, custom_fields,
         offer_sso, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'Lindenallee', $7, '04109', 'Leipzig', 'Deutschland', $8, $9,
               $10, now() + make_interval(secs => $11)) RETURNING id`,
      [
        tenantId,
        newCode('oin'),
        inv.email,
        inv.name,
        inv.slug,
        orgIds[0],
        String(10 + i),
        JSON.stringify({ registrationNumber: `HRB ${20000 + i}` }),
        inv.sso,
        sha256(token),
        INVITE_TTL_SECONDS,
      ],
    );
    if (!row) throw new Error('invitation not created');
    await tx.query(
      `INSERT INTO organization_invitation_roles (tenant_id, invitation_id, role_id)
       VALUES ($1, $2, $3)`,
      [tenantId, row.id, roles.get('customer-care')],
    );
    await mailOrganizationInvitation(tx, publicBaseUrl, {
      tenantId,
      to: inv.email,
      name: inv.name,
      token,
    });
  }
}

/**
 * Seeds organisations, more users, invites, organisation invitations and a custom schema into the
 * demo workspace. Runs when that workspace has none of them yet, so that a data directory seeded
 * before migration 002 also gets them; never touches a workspace an administrator already set up.
 */
/** `publicBaseUrl`: the back office's address, for the links of the seeded e-mails. */
export async function seedAdministration(
  db: Db,
  logger: Logger,
  publicBaseUrl: string,
): Promise<boolean> {
  const started = Date.now();
  const [demo] = await db.query<{ id: number; tenant_group_id: number }>(
    "SELECT id, tenant_group_id FROM tenants WHERE slug = 'demo'",
  );
  if (!demo) return false;
  const empty = async (tx: Queryable): Promise<boolean> => {
    const [row] = await tx.query(
      `SELECT 1 WHERE EXISTS (SELECT 1 FROM organizations WHERE tenant_id = $1)
          OR EXISTS (SELECT 1 FROM invites WHERE tenant_id = $1)
          OR EXISTS (SELECT 1 FROM custom_schemas WHERE tenant_id = $1)`,
      [demo.id],
    );
    return !row;
  };
  if (!(await empty(db))) return false;
  // Hashed once for all seeded users: scrypt per user would make seeding take seconds.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724313)');
    if (!(await empty(tx))) return false;
    await seedTenant(tx, demo.id, demo.tenant_group_id, passwordHash, publicBaseUrl);
    return true;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, 'sandbox administration data seeded');
  return seeded;
}
