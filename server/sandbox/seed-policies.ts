import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { evaluateNumber, roundHalfAwayFromZero } from '#common/expression/evaluate.ts';
import { parseExpression, type Node } from '#common/expression/parse.ts';
import type { Db, Queryable } from './db.ts';
import { POLICY_STATUSES } from './insurance-policy-routes.ts';

/**
 * Demo policies: spread over the tenant's sellable product versions and its customers, in every
 * status, with one or two versions of one or two timeslices each. The data of every policy object
 * follows its product fields, and each timeslice's premium is evaluated from the version's premium
 * formulas with common/expression, so the numbers are the ones the product would compute. Every
 * value derives from the policy's index (codes too), so two seeds produce the same world.
 */

interface FieldRow {
  name: string;
  type: 'number' | 'boolean' | 'string' | 'date';
  kind: string | null;
  minimum: number | null;
  maximum: number | null;
}
interface ObjectRow {
  id: number;
  name: string;
  label: string;
  fields: FieldRow[];
}
interface FormulaRow {
  id: number;
  tree: Node;
  variable_name: string | null;
}
interface SellableVersion {
  id: number;
  product_id: number;
  contract_duration_days: number;
  objects: ObjectRow[];
  formulas: FormulaRow[];
}

const DAY_MS = 86_400_000;
/** Policies are created from here on, eight hours apart: fixed, so the seed is reproducible. */
const FIRST_CREATED = Date.UTC(2024, 0, 2, 9, 0, 0);

const STRINGS: Record<string, string[]> = {
  vehicleType: ['car', 'suv', 'van', 'cabrio'],
  destination: ['Spanien', 'Italien', 'USA', 'Thailand', 'Norwegen'],
  brand: ['Apple', 'Samsung', 'Google', 'Xiaomi', 'Fairphone'],
  category: ['Waschmaschine', 'Kühlschrank', 'Geschirrspüler', 'Trockner'],
  zipCode: ['10115', '20095', '50667', '80331', '01067'],
  policyDurationUnit: ['year'],
};

/** A stable hex code per tenant, kind and index, shaped like the random codes of the API. */
const stableCode = (prefix: string, seed: string) =>
  `${prefix}_${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Scatters the index over a field so that neighbouring policies do not look alike. */
const mix = (i: number, salt: number) => ((i + 1) * 2_654_435_761 + salt * 40_503) >>> 0;

function valueOf(field: FieldRow, i: number, salt: number, startMs: number): unknown {
  const n = mix(i, salt);
  switch (field.type) {
    case 'boolean':
      return n % 2 === 0;
    case 'date':
      // Customers of 18 to 75 for a birth date, otherwise up to three years before the start.
      return field.name === 'birthDate'
        ? isoDay(startMs - (18 * 365 + (n % (57 * 365))) * DAY_MS)
        : isoDay(startMs - (n % (3 * 365)) * DAY_MS);
    case 'number': {
      const lo = Math.ceil(field.minimum ?? 0);
      const hi = Math.floor(field.maximum ?? lo + 1000);
      // Amounts land on round figures, small scales (classes, days) on every value.
      const step = hi - lo > 5000 ? 100 : 1;
      const steps = Math.floor((hi - lo) / step) + 1;
      return lo + (n % steps) * step;
    }
    case 'string': {
      const options = STRINGS[field.kind ?? ''] ??
        STRINGS[field.name] ?? [`${field.name} ${n % 7}`];
      return options[n % options.length];
    }
  }
}

async function sellableVersions(tx: Queryable, tenantId: number): Promise<SellableVersion[]> {
  // A draft sells nothing: policies belong to versions that are or were active.
  const versions = await tx.query<Omit<SellableVersion, 'objects' | 'formulas'>>(
    `SELECT v.id, v.product_id, p.contract_duration_days
       FROM product_versions v JOIN products p ON p.id = v.product_id
      WHERE v.tenant_id = $1 AND v.status <> 'draft'
      ORDER BY v.product_id, v.version`,
    [tenantId],
  );
  const ids = versions.map((v) => v.id);
  const objects = await tx.query<ObjectRow & { product_version_id: number }>(
    `SELECT o.id, o.product_version_id, o.name, o.label,
            coalesce(json_agg(json_build_object('name', f.name, 'type', f.type, 'kind', f.kind,
                       'minimum', f.minimum, 'maximum', f.maximum) ORDER BY f."order")
                     FILTER (WHERE f.id IS NOT NULL), '[]') AS fields
       FROM insured_objects o LEFT JOIN product_fields f ON f.insured_object_id = o.id
      WHERE o.tenant_id = $1 AND o.product_version_id = ANY($2::int[])
      GROUP BY o.id ORDER BY (o.name <> 'default'), o.id`,
    [tenantId, ids],
  );
  const formulas = await tx.query<{
    id: number;
    product_version_id: number;
    expression: string;
    variable_name: string | null;
  }>(
    `SELECT id, product_version_id, expression, variable_name FROM premium_formulas
      WHERE tenant_id = $1 AND product_version_id = ANY($2::int[]) ORDER BY "order", id`,
    [tenantId, ids],
  );
  return versions.map((v) => ({
    ...v,
    objects: objects.filter((o) => o.product_version_id === v.id),
    formulas: formulas
      .filter((f) => f.product_version_id === v.id)
      .map((f) => ({
        id: f.id,
        tree: parseExpression(f.expression),
        variable_name: f.variable_name,
      })),
  }));
}

/** The premium of one timeslice: every formula in order over the objects' data (spec, Insurance). */
export function premiumOf(
  version: Pick<SellableVersion, 'formulas'>,
  objects: { name: string; data: Record<string, unknown> }[],
) {
  const variables: Record<string, unknown> = {};
  for (const object of objects) {
    // Fields of 'default' are read bare (policyStartDate); others by object (mobile_device.brand).
    if (object.name === 'default') Object.assign(variables, object.data);
    else variables[object.name.replace(/-/g, '_')] = object.data;
  }
  const premiumItems = version.formulas.map((formula) => {
    const total = roundHalfAwayFromZero(evaluateNumber(formula.tree, { variables }), 2);
    if (formula.variable_name) variables[formula.variable_name] = total;
    return { premiumFormulaId: formula.id, total, isOverride: false };
  });
  const grandTotal = roundHalfAwayFromZero(
    premiumItems.reduce((sum, item) => sum + item.total, 0),
    2,
  );
  return { premiumItems, grandTotal, currency: 'EUR' };
}

/** Columns of one table, filled row by row and inserted with one unnest per table. */
class Columns<K extends string> {
  readonly data = {} as Record<K, unknown[]>;
  constructor(keys: readonly K[]) {
    for (const key of keys) this.data[key] = [];
  }
  push(row: Record<K, unknown>): void {
    for (const key of Object.keys(this.data) as K[]) this.data[key].push(row[key]);
  }
}

async function seedTenant(tx: Queryable, tenantId: number, slug: string, count: number) {
  const versions = await sellableVersions(tx, tenantId);
  const accounts = await tx.query<{ code: string }>(
    'SELECT code FROM accounts WHERE tenant_id = $1 ORDER BY id',
    [tenantId],
  );
  if (!versions.length || !accounts.length) return;
  // Ids are given here rather than by the sequences, so that children can point at parents
  // without a round trip per row; the sequences are moved past them afterwards.
  const [next] = await tx.query<{ p: number; v: number; t: number; o: number }>(
    `SELECT (SELECT coalesce(max(id), 0) FROM policies) AS p,
            (SELECT coalesce(max(id), 0) FROM policy_versions) AS v,
            (SELECT coalesce(max(id), 0) FROM timeslices) AS t,
            (SELECT coalesce(max(id), 0) FROM policy_objects) AS o`,
  );
  let { p: policyId, v: versionId, t: sliceId, o: objectId } = next!;

  const policies = new Columns([
    'id',
    'code',
    'number',
    'product',
    'version',
    'account',
    'status',
    'start',
    'created',
  ] as const);
  const policyVersions = new Columns([
    'id',
    'policy',
    'number',
    'current',
    'status',
    'metadata',
    'created',
  ] as const);
  const slices = new Columns(['id', 'version', 'from', 'to', 'premium', 'created'] as const);
  const objects = new Columns([
    'id',
    'code',
    'slice',
    'policy',
    'object',
    'name',
    'label',
    'data',
    'summary',
    'order',
    'created',
  ] as const);

  for (let i = 0; i < count; i += 1) {
    const version = versions[i % versions.length]!;
    const createdMs = FIRST_CREATED + i * 8 * 3_600_000;
    const created = new Date(createdMs).toISOString();
    // Every seventh policy has no start date of its own: it shows createdAt (spec section 3).
    const startMs = Math.floor(createdMs / DAY_MS) * DAY_MS + ((i * 11) % 30) * DAY_MS;
    const hasStart = i % 7 !== 3;
    const code = stableCode('pol', `${slug}:policy:${i}`);
    policyId += 1;
    policies.push({
      id: policyId,
      code,
      number: `POL-${String(i + 1).padStart(6, '0')}`,
      product: version.product_id,
      version: version.id,
      account: accounts[(i * 7) % accounts.length]!.code,
      status: POLICY_STATUSES[i % 10 < 7 ? 0 : (i % 10) - 6] ?? 'ACTIVE',
      start: hasStart ? new Date(startMs).toISOString() : null,
      created,
    });

    const versionCount = i % 3 === 0 ? 2 : 1;
    for (let number = 1; number <= versionCount; number += 1) {
      versionId += 1;
      const current = number === versionCount;
      policyVersions.push({
        id: versionId,
        policy: policyId,
        number,
        current,
        status: current ? 'applied' : 'superseded',
        metadata: JSON.stringify({ reason: number === 1 ? 'created' : 'changed' }),
        created,
      });
      // The second timeslice starts half way through the term, with a changed first number.
      const endMs = startMs + version.contract_duration_days * DAY_MS;
      const sliceCount = (i + number) % 4 === 0 ? 2 : 1;
      const midMs = startMs + Math.floor(version.contract_duration_days / 2) * DAY_MS;
      for (let s = 0; s < sliceCount; s += 1) {
        sliceId += 1;
        const fromMs = s === 0 ? startMs : midMs;
        const toMs = sliceCount === 2 && s === 0 ? midMs : endMs;
        const sliceObjects = version.objects.map((object, o) => {
          const data: Record<string, unknown> = {};
          for (const [f, field] of object.fields.entries()) {
            data[field.name] = valueOf(field, i, o * 31 + f + number * 7 + s * 13, startMs);
          }
          if (object.name === 'default') {
            data.policyStartDate = isoDay(startMs);
            data.policyDurationUnit = 'day';
            data.policyDurationValue = version.contract_duration_days;
          }
          return { object, data };
        });
        const premium = premiumOf(
          version,
          sliceObjects.map((x) => ({ name: x.object.name, data: x.data })),
        );
        slices.push({
          id: sliceId,
          version: versionId,
          from: new Date(fromMs).toISOString(),
          to: new Date(toMs).toISOString(),
          premium: JSON.stringify(premium),
          created,
        });
        for (const [o, { object, data }] of sliceObjects.entries()) {
          objectId += 1;
          objects.push({
            id: objectId,
            code: stableCode('pob', `${slug}:object:${i}:${number}:${s}:${o}`),
            slice: sliceId,
            policy: code,
            object: object.id,
            name: object.name,
            label: object.label,
            data: JSON.stringify(data),
            summary: Object.values(data).slice(0, 2).join(', '),
            order: o + 1,
            created,
          });
        }
      }
    }
  }

  const p = policies.data;
  await tx.query(
    `INSERT INTO policies (id, tenant_id, code, policy_number, product_id, product_version_id,
                           account_code, status, policy_start_date, created_at, updated_at)
     SELECT id, $1, c, n, pr, v, a, s, st, cr, cr
       FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[],
                   $9::timestamptz[], $10::timestamptz[]) AS x(id, c, n, pr, v, a, s, st, cr)`,
    [
      tenantId,
      p.id,
      p.code,
      p.number,
      p.product,
      p.version,
      p.account,
      p.status,
      p.start,
      p.created,
    ],
  );
  const v = policyVersions.data;
  await tx.query(
    `INSERT INTO policy_versions (id, tenant_id, policy_id, version_number, is_current,
                                  revision_status, metadata, created_at, updated_at)
     SELECT id, $1, po, n, cu, s, m::jsonb, cr, cr
       FROM unnest($2::int[], $3::int[], $4::int[], $5::boolean[], $6::text[], $7::text[],
                   $8::timestamptz[]) AS x(id, po, n, cu, s, m, cr)`,
    [tenantId, v.id, v.policy, v.number, v.current, v.status, v.metadata, v.created],
  );
  const t = slices.data;
  await tx.query(
    `INSERT INTO timeslices (id, tenant_id, policy_version_id, "from", "to", premium, created_at,
                             updated_at)
     SELECT id, $1, ve, f, t, pr::jsonb, cr, cr
       FROM unnest($2::int[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::text[],
                   $7::timestamptz[]) AS x(id, ve, f, t, pr, cr)`,
    [tenantId, t.id, t.version, t.from, t.to, t.premium, t.created],
  );
  const o = objects.data;
  await tx.query(
    `INSERT INTO policy_objects (id, tenant_id, code, timeslice_id, policy_code, insured_object_id,
                                 insured_object_name, insured_object_label, data, summary, "order",
                                 created_at, updated_at)
     SELECT id, $1, c, sl, pc, io, n, l, d::jsonb, su, ord, cr, cr
       FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::int[], $12::timestamptz[])
         AS x(id, c, sl, pc, io, n, l, d, su, ord, cr)`,
    [
      tenantId,
      o.id,
      o.code,
      o.slice,
      o.policy,
      o.object,
      o.name,
      o.label,
      o.data,
      o.summary,
      o.order,
      o.created,
    ],
  );
  for (const table of ['policies', 'policy_versions', 'timeslices', 'policy_objects']) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
    );
  }
}

const COUNTS: Record<string, number> = { demo: 2000, nordlicht: 25 };

/**
 * Seeds policies into the demo workspaces that have none yet (after products and customers), so
 * that a data directory seeded before migration 005 gets them too.
 */
export async function seedPolicies(db: Db, logger: Logger): Promise<boolean> {
  const started = Date.now();
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724314)');
    const tenants = await tx.query<{ id: number; slug: string }>(
      `SELECT t.id, t.slug FROM tenants t
        WHERE t.slug = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM policies p WHERE p.tenant_id = t.id)
        ORDER BY t.id`,
      [Object.keys(COUNTS)],
    );
    for (const t of tenants) await seedTenant(tx, t.id, t.slug, COUNTS[t.slug] ?? 0);
    return tenants.length > 0;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, 'sandbox policies seeded');
  return seeded;
}
