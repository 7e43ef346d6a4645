import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import { seedShiftMs } from '#server/sandbox/platform/seed-time.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { CLAIM_ENTITY_TYPE, coveredClaimTypes, type ClaimType } from '#common/claims.ts';
import { formatClaimNumber } from './claim-routes.ts';
import { claimWorkflow } from './claim-workflow.ts';
import {
  Columns,
  DAY_MS,
  isoDay,
  mix,
  moveSequencesPast,
  seedWorkspaces,
  stableCode,
} from '#server/sandbox/platform/seeding.ts';
import type { DefaultLabels } from '#server/sandbox/platform/name-labels.ts';

/**
 * Claim statuses, their transition rules and the claim partner roles for every workspace, and
 * demo claims: spread over the tenant's seeded policies (each claim on an active policy in force on
 * its loss date, of a kind of loss its product's category covers: the cover check of
 * claim-cover.ts), in
 * every status, with the settlements and partners a claim of that status would have (a reserve
 * while it is reviewed, payments once approved; a workshop or an assessor among the seeded
 * partners with that tag). Every value derives from the claim's index, so two seeds produce the
 * same world.
 */

interface SeedRole {
  slug: string;
  name: string;
}

export const DEFAULT_CLAIM_PARTNER_ROLES: SeedRole[] = [
  { slug: 'reporter', name: 'Reporter' },
  { slug: 'witness', name: 'Witness' },
  { slug: 'workshop', name: 'Workshop' },
  { slug: 'assessor', name: 'Assessor' },
  { slug: 'lawyer', name: 'Lawyer' },
  { slug: 'injured-party', name: 'Injured party' },
];

/** The default roles' texts, whatever a workspace named them. */
export const CLAIM_PARTNER_ROLE_LABELS: DefaultLabels = {
  reporter: { de: 'Meldende Person', en: 'Reporter', pl: 'Zgłaszający' },
  witness: { de: 'Zeuge', en: 'Witness', pl: 'Świadek' },
  workshop: { de: 'Werkstatt', en: 'Workshop', pl: 'Warsztat' },
  assessor: { de: 'Gutachter', en: 'Assessor', pl: 'Rzeczoznawca' },
  lawyer: { de: 'Anwalt', en: 'Lawyer', pl: 'Prawnik' },
  'injured-party': { de: 'Geschädigte Person', en: 'Injured party', pl: 'Poszkodowany' },
};

/** Nordlicht names its roles in German (its statuses too, claim-workflow.ts). */
const TENANT_ROLE_NAMES: Record<string, Record<string, string>> = {
  nordlicht: {
    reporter: 'Meldende Person',
    witness: 'Zeuge',
    workshop: 'Werkstatt',
    assessor: 'Gutachter',
    lawyer: 'Anwalt',
    'injured-party': 'Geschädigte Person',
  },
};

/** The statuses a seeded claim passed through, along the default rules; its version is the count. */
const PATHS: Record<string, string[][]> = {
  open: [['open']],
  'in-review': [['open', 'in-review']],
  'waiting-for-documents': [['open', 'in-review', 'waiting-for-documents']],
  approved: [['open', 'in-review', 'approved']],
  settled: [['open', 'in-review', 'approved', 'settled']],
  rejected: [
    ['open', 'rejected'],
    ['open', 'in-review', 'rejected'],
  ],
  closed: [
    ['open', 'in-review', 'approved', 'settled', 'closed'],
    ['open', 'rejected', 'closed'],
  ],
};
/** i % 20 -> status: a fifth each open and in review, the rest on their way or done. */
const STATUS_BY_SLOT = [
  ...Array<string>(4).fill('open'),
  ...Array<string>(4).fill('in-review'),
  ...Array<string>(2).fill('waiting-for-documents'),
  ...Array<string>(2).fill('approved'),
  ...Array<string>(3).fill('settled'),
  ...Array<string>(2).fill('rejected'),
  ...Array<string>(3).fill('closed'),
];
/** mix % 20 -> type: half damage, the rest spread. */
const TYPE_BY_SLOT: ClaimType[] = [
  ...Array<ClaimType>(10).fill('damage'),
  ...Array<ClaimType>(3).fill('theft'),
  ...Array<ClaimType>(3).fill('liability'),
  ...Array<ClaimType>(2).fill('health'),
  ...Array<ClaimType>(2).fill('other'),
];
const TITLES: Record<ClaimType, string[]> = {
  damage: [
    'Water damage in the kitchen',
    'Storm damage to the roof',
    'Cracked display',
    'Rear-end collision at a junction',
    'Hail damage',
    'Washing machine flooded the cellar',
  ],
  theft: ['Bicycle stolen', 'Break-in at the flat', 'Phone stolen on the train', 'Car broken into'],
  liability: [
    'Guest slipped on the stairs',
    'Neighbour’s car scratched',
    'Borrowed camera dropped',
  ],
  health: ['Hospital stay abroad', 'Emergency treatment on holiday', 'Medication abroad'],
  other: ['Trip cancelled', 'Lost luggage', 'Key lost, locks replaced'],
};
const DESCRIPTIONS = [
  'Reported by phone; photos to follow.',
  'The customer sent a first estimate of the damage.',
  'Reported online with a short description.',
  '',
];
const LOCATIONS = ['Berlin', 'Hamburg', 'Köln', 'München', 'Dresden', 'Leipzig', 'Kiel'];

/**
 * Claims are created from here on, 29 hours apart: fixed, so the seed is reproducible, and moved
 * with the clock as the whole demo world is (platform/seed-time.ts).
 */
const FIRST_CREATED = Date.UTC(2024, 2, 4, 9, 0, 0);
const COUNTS: Record<string, number> = { demo: 500, nordlicht: 10 };

/** The demo workspace's custom fields of claims, when it has none of its own. */
/**
 * The demo's claim custom fields, labelled in de, en and pl (issue 15 point 16). Migration 028
 * gives these labels to schemas seeded before; custom-field-labels.test.ts checks that both agree.
 */
export const DEMO_CLAIM_FIELDS = [
  {
    name: 'damageLocation',
    label: 'Damage location',
    labels: { de: 'Schadenort', en: 'Damage location', pl: 'Miejsce szkody' },
    type: 'string',
    isRequired: true,
    minLength: 2,
    maxLength: 200,
  },
  {
    name: 'policeReportNumber',
    label: 'Police report number',
    labels: {
      de: 'Aktenzeichen der Polizei',
      en: 'Police report number',
      pl: 'Numer zgłoszenia policyjnego',
    },
    type: 'string',
    maxLength: 30,
  },
  {
    name: 'estimatedDamage',
    label: 'Estimated damage (EUR)',
    labels: {
      de: 'Geschätzter Schaden (EUR)',
      en: 'Estimated damage (EUR)',
      pl: 'Szacowana szkoda (EUR)',
    },
    type: 'number',
    minimum: 0,
    maximum: 10_000_000,
  },
];

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The claim statuses, their rules and the claim partner roles of a workspace. */
async function seedConfiguration(tx: Queryable, tenant: { id: number; slug: string }) {
  const { id: tenantId, slug } = tenant;
  await claimWorkflow.seedDefaults(tx, tenantId, slug);
  const names = TENANT_ROLE_NAMES[slug] ?? {};
  await tx.query(
    `INSERT INTO claim_partner_roles (tenant_id, code, slug, name, "order", labels)
     SELECT $1, c, s, n, o, l
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::jsonb[]) AS x(c, s, n, o, l)`,
    [
      tenantId,
      DEFAULT_CLAIM_PARTNER_ROLES.map((r) => stableCode('cpr', `${slug}:claim-role:${r.slug}`)),
      DEFAULT_CLAIM_PARTNER_ROLES.map((r) => r.slug),
      DEFAULT_CLAIM_PARTNER_ROLES.map((r) => names[r.slug] ?? r.name),
      DEFAULT_CLAIM_PARTNER_ROLES.map((_, i) => i + 1),
      DEFAULT_CLAIM_PARTNER_ROLES.map((r) => JSON.stringify(CLAIM_PARTNER_ROLE_LABELS[r.slug])),
    ],
  );
}

interface SeedPolicy {
  id: number;
  code: string;
  policy_number: string;
  account_code: string | null;
  product_id: number;
  start_day: string;
  category: string;
  /** The first and the first uncovered day of its terms (claim-cover.ts reads the same). */
  cover_from: string;
  cover_to: string | null;
}

/** The first index whose start is after `limit` in starts sorted ascending. */
function countUpTo(starts: number[], limit: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function seedClaims(
  tx: Queryable,
  tenantId: number,
  slug: string,
  count: number,
  firstCreatedMs: number,
) {
  const [settings] = await tx.query<{ time_zone: string; currency: string }>(
    'SELECT time_zone, currency FROM general_settings WHERE tenant_id = $1',
    [tenantId],
  );
  // The policy's first day as the claim service reads it (its time zone, its creation without a
  // start), so that every seeded damage date passes the service's own check.
  // Active policies and expired ones (they covered losses in their terms): a withdrawn, suspended
  // or terminated one covers no new loss.
  const policies = await tx.query<SeedPolicy>(
    `SELECT p.id, p.code, p.policy_number, p.account_code, p.product_id, pr.category,
            to_char(coalesce(p.policy_start_date, p.created_at) AT TIME ZONE $2, 'YYYY-MM-DD')
              AS start_day,
            greatest(to_char(coalesce(p.policy_start_date, p.created_at) AT TIME ZONE $2,
                             'YYYY-MM-DD'),
                     to_char(min(t."from") AT TIME ZONE $2, 'YYYY-MM-DD')) AS cover_from,
            CASE WHEN bool_or(t."to" IS NULL) THEN NULL
                 ELSE to_char(max(t."to") AT TIME ZONE $2, 'YYYY-MM-DD') END AS cover_to
       FROM policies p
       JOIN products pr ON pr.id = p.product_id
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       JOIN timeslices t ON t.policy_version_id = v.id
      WHERE p.tenant_id = $1 AND p.status IN ('ACTIVE', 'EXPIRED')
      GROUP BY p.id, pr.category ORDER BY p.id`,
    [tenantId, settings?.time_zone ?? 'UTC'],
  );
  if (!policies.length) return;
  const byStart = [...policies].sort(
    (a, b) => a.cover_from.localeCompare(b.cover_from) || a.id - b.id,
  );
  const starts = byStart.map((p) => dayMs(p.cover_from));

  const partners = await tx.query<{ id: number; tags: string[] }>(
    `SELECT p.id, coalesce(array_agg(g.slug) FILTER (WHERE g.slug IS NOT NULL), '{}') AS tags
       FROM partners p
       LEFT JOIN partner_tag_links l ON l.partner_id = p.id
       LEFT JOIN partner_tags g ON g.id = l.tag_id
      WHERE p.tenant_id = $1 GROUP BY p.id ORDER BY p.id`,
    [tenantId],
  );
  const roles = await tx.query<{ id: number; slug: string }>(
    'SELECT id, slug FROM claim_partner_roles WHERE tenant_id = $1 ORDER BY "order", id',
    [tenantId],
  );
  // A workshop or an assessor is a partner with that tag; the others are anyone.
  const partnersFor = (role: string) => {
    const tagged = partners.filter((p) => p.tags.includes(role));
    return tagged.length ? tagged : partners;
  };
  const [schema] = await tx.query(
    'SELECT 1 FROM custom_schemas WHERE tenant_id = $1 AND entity = $2',
    [tenantId, CLAIM_ENTITY_TYPE],
  );
  const withCustomFields = slug === 'demo';
  if (withCustomFields && !schema) {
    await tx.query(
      `INSERT INTO custom_schemas (tenant_id, code, entity, fields) VALUES ($1, $2, $3, $4::jsonb)`,
      [
        tenantId,
        `${CLAIM_ENTITY_TYPE}-custom`,
        CLAIM_ENTITY_TYPE,
        JSON.stringify(DEMO_CLAIM_FIELDS),
      ],
    );
  }

  const chosen: { policy: SeedPolicy; createdMs: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    // After the first policy started, whatever the times above say.
    const createdMs = Math.max(
      firstCreatedMs + i * 29 * 3_600_000,
      starts[0]! + 5 * DAY_MS + 9 * 3_600_000,
    );
    // Any policy that started at least three days before the claim and still runs on its day.
    const started = byStart.slice(0, Math.max(1, countUpTo(starts, createdMs - 3 * DAY_MS)));
    const createdDay = isoDay(createdMs);
    const running = started.filter((p) => p.cover_to === null || p.cover_to > createdDay);
    const pool = running.length ? running : started;
    chosen.push({ policy: pool[mix(i, 7) % pool.length]!, createdMs });
  }
  // The insured objects of the current versions of the chosen policies: a settlement names one.
  const objectRows = await tx.query<{ policy_id: number; names: string[] }>(
    `SELECT v.policy_id, array_agg(DISTINCT o.insured_object_name) AS names
       FROM policy_versions v
       JOIN timeslices t ON t.policy_version_id = v.id
       JOIN policy_objects o ON o.timeslice_id = t.id
      WHERE v.tenant_id = $1 AND v.is_current AND v.policy_id = ANY($2::int[])
      GROUP BY v.policy_id`,
    [tenantId, [...new Set(chosen.map((c) => c.policy.id))]],
  );
  const objectsOf = new Map(objectRows.map((r) => [r.policy_id, r.names]));

  const [next] = await tx.query<{ c: number; s: number; p: number }>(
    `SELECT (SELECT coalesce(max(id), 0) FROM claims) AS c,
            (SELECT coalesce(max(id), 0) FROM settlements) AS s,
            (SELECT coalesce(max(id), 0) FROM claim_partners) AS p`,
  );
  let { c: claimId, s: settlementId, p: linkId } = next!;
  const claims = new Columns([
    'id',
    'code',
    'number',
    'title',
    'description',
    'policy',
    'policyNumber',
    'account',
    'product',
    'status',
    'damage',
    'notice',
    'type',
    'custom',
    'revision',
    'created',
    'updated',
  ] as const);
  const settlements = new Columns([
    'id',
    'code',
    'claim',
    'object',
    'reserve',
    'payment',
    'recourse',
    'revision',
    'created',
    'updated',
  ] as const);
  const links = new Columns(['id', 'claim', 'partner', 'role', 'created'] as const);

  for (const [i, { policy, createdMs }] of chosen.entries()) {
    claimId += 1;
    const status = STATUS_BY_SLOT[i % 20]!;
    const paths = PATHS[status]!;
    const path = paths[mix(i, 3) % paths.length]!;
    // A kind of loss the policy's product covers: the slot's, else one of the covered.
    const covered = coveredClaimTypes(policy.category);
    const slotType = TYPE_BY_SLOT[mix(i, 11) % 20]!;
    const type = covered.includes(slotType) ? slotType : covered[mix(i, 11) % covered.length]!;
    const titles = TITLES[type];
    // The damage a few days before the notice, the notice up to the claim's creation, neither
    // before the policy's first day.
    const createdDay = dayMs(isoDay(createdMs));
    const startMs = dayMs(policy.cover_from);
    const damageMs = Math.max(startMs, createdDay - (1 + (mix(i, 13) % 20)) * DAY_MS);
    const noticeMs = Math.min(createdDay, damageMs + (mix(i, 17) % 4) * DAY_MS);
    const updatedMs = createdMs + (path.length - 1) * 2 * DAY_MS + (mix(i, 19) % 9) * 3_600_000;
    const custom = withCustomFields
      ? {
          damageLocation: LOCATIONS[mix(i, 23) % LOCATIONS.length],
          ...(type === 'theft'
            ? { policeReportNumber: `PR-${isoDay(noticeMs).slice(0, 4)}-${10000 + i}` }
            : {}),
          ...(i % 3 === 0 ? { estimatedDamage: 200 + (mix(i, 29) % 80) * 50 } : {}),
        }
      : {};
    claims.push({
      id: claimId,
      code: stableCode('clm', `${slug}:claim:${i}`),
      number: formatClaimNumber(i + 1),
      title: titles[mix(i, 31) % titles.length]!,
      description: DESCRIPTIONS[mix(i, 37) % DESCRIPTIONS.length]!,
      policy: policy.code,
      policyNumber: policy.policy_number,
      account: policy.account_code,
      product: policy.product_id,
      status,
      damage: isoDay(damageMs),
      notice: isoDay(noticeMs),
      type,
      custom: JSON.stringify(custom),
      revision: path.length,
      created: new Date(createdMs).toISOString(),
      updated: new Date(updatedMs).toISOString(),
    });

    // Settlements: a reserve once reviewed, payments once approved, none for a rejected claim.
    const names = objectsOf.get(policy.id) ?? ['default'];
    const insured = names.filter((n) => n !== 'default');
    const objects = insured.length ? insured : names;
    const reviewed = path.includes('in-review') && !path.includes('rejected');
    const paid = path.includes('settled');
    const settlementCount = !reviewed
      ? 0
      : paid
        ? 1 + (mix(i, 41) % 3)
        : path.includes('approved')
          ? 1 + (mix(i, 41) % 2)
          : mix(i, 41) % 2;
    for (let k = 0; k < settlementCount; k += 1) {
      settlementId += 1;
      const reserve = 25_000 + (mix(i, 43 + k) % 400) * 2_500;
      const payment = paid ? reserve - (mix(i, 47 + k) % 3) * 2_500 : 0;
      const recourse = paid && mix(i, 53 + k) % 7 === 0 ? Math.round(payment / 500) * 100 : 0;
      const settledMs = createdMs + (k + 1) * DAY_MS;
      settlements.push({
        id: settlementId,
        code: stableCode('stl', `${slug}:settlement:${i}:${k}`),
        claim: claimId,
        object: objects[(i + k) % objects.length]!,
        reserve,
        payment,
        recourse,
        // A paid settlement was a reserve first, then the payment was booked: two versions.
        revision: paid ? 2 : 1,
        created: new Date(settledMs).toISOString(),
        updated: new Date(paid ? Math.max(settledMs, updatedMs - DAY_MS) : settledMs).toISOString(),
      });
    }

    // Partners: up to two, each in another role.
    if (partners.length && roles.length) {
      const partnerCount = mix(i, 59) % 3;
      for (let k = 0; k < partnerCount; k += 1) {
        const role = roles[(i + k * 2) % roles.length]!;
        const candidates = partnersFor(role.slug);
        linkId += 1;
        links.push({
          id: linkId,
          claim: claimId,
          partner: candidates[mix(i, 61 + k) % candidates.length]!.id,
          role: role.id,
          created: new Date(createdMs + (k + 1) * 3_600_000).toISOString(),
        });
      }
    }
  }

  const c = claims.data;
  await tx.query(
    `INSERT INTO claims (id, tenant_id, code, claim_number, title, description, policy_code,
                         policy_number, account_code, product_id, status, damage_date,
                         notification_date, claim_type, custom_fields, version, created_at,
                         updated_at)
     SELECT id, $1, co, n, ti, de, po, pn, a, pr, s, d::date, no::date, ty, cu::jsonb, r, cr, up
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::int[], $11::text[], $12::text[], $13::text[],
                   $14::text[], $15::text[], $16::int[], $17::timestamptz[], $18::timestamptz[])
         AS x(id, co, n, ti, de, po, pn, a, pr, s, d, no, ty, cu, r, cr, up)`,
    [
      tenantId,
      c.id,
      c.code,
      c.number,
      c.title,
      c.description,
      c.policy,
      c.policyNumber,
      c.account,
      c.product,
      c.status,
      c.damage,
      c.notice,
      c.type,
      c.custom,
      c.revision,
      c.created,
      c.updated,
    ],
  );
  const s = settlements.data;
  await tx.query(
    `INSERT INTO settlements (id, tenant_id, code, claim_id, insured_object, reserve, payment,
                              recourse, currency, version, created_at, updated_at)
     SELECT id, $1, co, cl, o, re, pa, rc, $12, r, cr, up
       FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::bigint[], $7::bigint[],
                   $8::bigint[], $9::int[], $10::timestamptz[], $11::timestamptz[])
         AS x(id, co, cl, o, re, pa, rc, r, cr, up)`,
    [
      tenantId,
      s.id,
      s.code,
      s.claim,
      s.object,
      s.reserve,
      s.payment,
      s.recourse,
      s.revision,
      s.created,
      s.updated,
      // The workspace's currency, as the claim service writes it.
      settings?.currency ?? 'EUR',
    ],
  );
  const l = links.data;
  await tx.query(
    `INSERT INTO claim_partners (id, tenant_id, claim_id, partner_id, claim_partner_role_id,
                                 created_at, updated_at)
     SELECT id, $1, cl, pa, ro, cr, cr
       FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::timestamptz[])
         AS x(id, cl, pa, ro, cr)`,
    [tenantId, l.id, l.claim, l.partner, l.role, l.created],
  );
  await tx.query(
    `INSERT INTO claim_number_counters (tenant_id, last_number) VALUES ($1, $2)
     ON CONFLICT (tenant_id)
       DO UPDATE SET last_number = greatest(claim_number_counters.last_number, $2)`,
    [tenantId, count],
  );
  await moveSequencesPast(tx, ['claims', 'settlements', 'claim_partners']);
}

/**
 * Gives every workspace without claim statuses the default statuses, rules and partner roles,
 * and the demo workspaces without claims their claims. After the policies and partners, so that
 * a data directory seeded before migration 011 gets them too.
 */
export async function seedClaimsStep(db: Db, logger: Logger, clock: Clock): Promise<boolean> {
  const firstCreatedMs = FIRST_CREATED + seedShiftMs(clock.now());
  const seeded = await seedWorkspaces(db, logger, {
    name: 'claims',
    configTable: 'claim_statuses',
    configure: seedConfiguration,
    recordTable: 'claims',
    counts: COUNTS,
    populate: (tx, t, count) => seedClaims(tx, t.id, t.slug, count, firstCreatedMs),
  });
  return seeded;
}
