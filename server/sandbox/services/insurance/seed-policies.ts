import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { POLICY_STATUSES } from '#common/policy-lifecycle.ts';
import { DAY_MS, isoDay, mix, stableCode } from '#server/sandbox/platform/seeding.ts';
import type { Clock } from '#common/clock.ts';
import { seedShiftMs } from '#server/sandbox/platform/seed-time.ts';
import {
  BILLING_DAY_MAX,
  BILLING_DAY_MIN,
  type BillingFrequency,
  type RenewalFrequency,
} from '#common/policy-object-data.ts';
import { loadTariffs, premiumOf, type Tariff, type TariffField } from './premium.ts';
import { renewalEvent, renewedTimeline } from './policy-renewal.ts';
import { recordSystemChanges, type AuditEvent } from '#server/sandbox/platform/audit-trail.ts';
import {
  formatPolicyNumber,
  insertPolicies,
  reservePolicyNumbers,
  type NewPolicy,
  type NewTimeslice,
  type NewVersion,
} from './policy-store.ts';

/**
 * Demo policies: spread over the tenant's sellable product versions and its customers, in every
 * status, with one or two versions of one or two timeslices each. The data of every policy object
 * follows its product fields, and each timeslice's premium is evaluated from the version's premium
 * formulas with common/expression, so the numbers are the ones the product would compute. Every
 * value derives from the policy's index (codes too), so two seeds produce the same world.
 */

/**
 * Policies are created from here on, eight hours apart: fixed, so the seed is reproducible, and
 * moved with the clock as the whole demo world is (platform/seed-time.ts).
 */
const FIRST_CREATED = Date.UTC(2024, 0, 2, 9, 0, 0);
const seededCreatedMsOn = (nowMs: number) => {
  const first = FIRST_CREATED + seedShiftMs(nowMs);
  return (i: number) => first + i * 8 * 3_600_000;
};

const STRINGS: Record<string, string[]> = {
  vehicleType: ['car', 'suv', 'van', 'cabrio'],
  destination: ['Spanien', 'Italien', 'USA', 'Thailand', 'Norwegen'],
  brand: ['Apple', 'Samsung', 'Google', 'Xiaomi', 'Fairphone'],
  category: ['Waschmaschine', 'Kühlschrank', 'Geschirrspüler', 'Trockner'],
  zipCode: ['10115', '20095', '50667', '80331', '01067'],
  policyDurationUnit: ['year'],
};

export function valueOf(field: TariffField, i: number, salt: number, startMs: number): unknown {
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

const TERMINATION_REASONS = [
  'Customer moved abroad',
  'Vehicle sold',
  'Cancelled by the customer',
  'Insured object no longer exists',
];

/**
 * A seeded termination: part-way through the first term (a third to four fifths of it), never
 * after yesterday, on a whole day, with a reason.
 */
function terminationOf(i: number, startMs: number, version: Tariff, nowMs: number) {
  const share = 0.3 + (i % 6) * 0.1;
  const dayMs = startMs + Math.max(1, Math.floor(version.contract_duration_days * share)) * DAY_MS;
  const cap = Math.floor(nowMs / DAY_MS) * DAY_MS - DAY_MS;
  return {
    date: new Date(Math.max(startMs, Math.min(dayMs, cap))),
    reason: TERMINATION_REASONS[i % TERMINATION_REASONS.length]!,
  };
}

/**
 * The version the renewal run would write for a live policy whose current term ended by `nowMs`
 * (null when it has not): renewed term by term past now, or expired. Written when it happened
 * (the start of the last term, or the term's end), by the system, its objects with stable codes.
 */
function dueVersion(
  slug: string,
  i: number,
  current: NewVersion,
  frequency: RenewalFrequency,
  nowMs: number,
): NewVersion | null {
  const endMs = current.timeline.at(-1)!.to!.getTime();
  if (endMs > nowMs) return null;
  const versionNumber = current.versionNumber + 1;
  const endedOn = new Date(endMs).toISOString();
  const fresh = (timeline: NewTimeslice[]) =>
    timeline.map((slice, s) => ({
      ...slice,
      objects: slice.objects.map((o, n) => ({
        ...o,
        code: stableCode('pob', `${slug}:object:${i}:${versionNumber}:${s}:${n}`),
      })),
    }));
  if (frequency === 'none') {
    return {
      versionNumber,
      createdAt: new Date(endMs),
      revisionStatus: 'applied',
      metadata: { reason: 'expired', expiredOn: endedOn },
      timeline: fresh(current.timeline),
    };
  }
  const renewed = renewedTimeline(current.timeline, frequency, nowMs);
  return {
    versionNumber,
    createdAt: renewed.timeline.at(-1)!.from,
    revisionStatus: 'applied',
    metadata: {
      reason: 'renewed',
      renewalFrequency: frequency,
      previousEnd: endedOn,
      renewedUntil: renewed.timeline.at(-1)!.to!.toISOString(),
      terms: renewed.terms,
    },
    timeline: fresh(renewed.timeline),
  };
}

/**
 * One seeded record in this many is billed monthly, one quarterly: 29 shares no factor with the
 * 10 of the statuses and the 4 of the renewals, so both come in every status and renewal.
 */
const BILLING_CYCLE = 29;

/**
 * How the index-th seeded record is billed (issue 18): one in {@link BILLING_CYCLE} monthly, one
 * quarterly, the rest yearly, so the demo's invoices show every kind of recurring period; every
 * other monthly and quarterly one on a billing day of its own (1 to 28), the others on the day
 * their period starts. Few: a monthly policy has twelve invoices a year, and the seed bills the
 * whole past of 2000 policies (one in six monthly tripled the invoices and the billing seed's
 * time, which every sandbox start pays). By the index alone, so every version and timeslice of a
 * policy agrees.
 */
export function billingOf(i: number): {
  billingFrequencyUnit: BillingFrequency;
  recurringBillingDay?: number;
} {
  const cycle = i % BILLING_CYCLE;
  const billingFrequencyUnit = cycle === 1 ? 'monthly' : cycle === 2 ? 'quarterly' : 'yearly';
  const ownDay = billingFrequencyUnit !== 'yearly' && i % (2 * BILLING_CYCLE) < BILLING_CYCLE;
  return ownDay
    ? { billingFrequencyUnit, recurringBillingDay: BILLING_DAY_MIN + ((i * 5) % BILLING_DAY_MAX) }
    : { billingFrequencyUnit };
}

export interface Seller {
  tariffs: Tariff[];
  accountCodes: string[];
}

/**
 * The data of every insured object of a tariff for the index-th seeded record: each field from
 * valueOf, and the 'default' object's term starting at `startMs` for the product's duration.
 */
export function seedObjectsData(tariff: Tariff, i: number, salt: number, startMs: number) {
  return tariff.objects.map((object, o) => {
    const data: Record<string, unknown> = {};
    for (const [f, field] of object.fields.entries()) {
      data[field.name] = valueOf(field, i, o * 31 + f + salt, startMs);
    }
    if (object.name === 'default') {
      data.policyStartDate = isoDay(startMs);
      data.policyDurationUnit = 'day';
      data.policyDurationValue = tariff.contract_duration_days;
      // Where the version has the billing fields (every version has them from its start or from
      // migration 039, unless a product manager removed them: growing the policies then skips).
      if (object.fields.some((field) => field.name === 'billingFrequencyUnit')) {
        // A day only where it has one: stored data holds no blank values (a lead drops them).
        delete data.recurringBillingDay;
        Object.assign(data, billingOf(i));
      }
    }
    return { object, data };
  });
}

/** A draft sells nothing: policies belong to versions that are or were active. */
export async function sellerOf(tx: Queryable, tenantId: number): Promise<Seller | null> {
  const tariffs = await loadTariffs(tx, tenantId, "v.status <> 'draft'");
  const accounts = await tx.query<{ code: string }>(
    'SELECT code FROM accounts WHERE tenant_id = $1 ORDER BY id',
    [tenantId],
  );
  if (!tariffs.length || !accounts.length) return null;
  return { tariffs, accountCodes: accounts.map((a) => a.code) };
}

/**
 * The demo policies numbered `firstNumber` on: everything but the creation time follows the
 * number, so the same number always gets the same policy (codes too).
 */
export function generatePolicies(
  slug: string,
  seller: Seller,
  firstNumber: number,
  count: number,
  /** The creation time of the policy of index `i` (its number - 1), `k`-th of this batch. */
  createdMsOf: (i: number, k: number) => number,
  /** The demo clock's now: policies come as the renewal run would leave them at this time. */
  nowMs: number,
): SeededPolicy[] {
  const { tariffs: versions, accountCodes } = seller;
  const policies: SeededPolicy[] = [];
  for (let i = firstNumber - 1; i < firstNumber - 1 + count; i += 1) {
    const version = versions[i % versions.length]!;
    const createdMs = createdMsOf(i, i - (firstNumber - 1));
    const createdAt = new Date(createdMs);
    // Every seventh policy has no start date of its own: it shows createdAt (spec section 3), so
    // its term starts the day it was created, or the page's start and the contract's would differ.
    const hasStart = i % 7 !== 3;
    const startMs =
      Math.floor(createdMs / DAY_MS) * DAY_MS + (hasStart ? ((i * 11) % 30) * DAY_MS : 0);

    const versionCount = i % 3 === 0 ? 2 : 1;
    const policyVersions: NewVersion[] = [];
    for (let number = 1; number <= versionCount; number += 1) {
      // The second timeslice starts half way through the term, with a changed first number.
      const endMs = startMs + version.contract_duration_days * DAY_MS;
      const sliceCount = (i + number) % 4 === 0 ? 2 : 1;
      const midMs = startMs + Math.floor(version.contract_duration_days / 2) * DAY_MS;
      const timeline: NewTimeslice[] = [];
      for (let s = 0; s < sliceCount; s += 1) {
        const objects = seedObjectsData(version, i, number * 7 + s * 13, startMs).map(
          ({ object, data }, o) => {
            return {
              code: stableCode('pob', `${slug}:object:${i}:${number}:${s}:${o}`),
              insuredObjectId: object.id,
              name: object.name,
              label: object.label,
              data,
            };
          },
        );
        timeline.push({
          from: new Date(s === 0 ? startMs : midMs),
          to: new Date(sliceCount === 2 && s === 0 ? midMs : endMs),
          premium: premiumOf(version, objects),
          objects,
        });
      }
      policyVersions.push({
        versionNumber: number,
        revisionStatus: number === versionCount ? 'applied' : 'superseded',
        metadata: { reason: number === 1 ? 'created' : 'changed' },
        timeline,
      });
    }
    // Three in four renew yearly, every fourth runs out (POL-000001 first).
    const renewalFrequency = i % 4 === 0 ? 'none' : 'yearly';
    let status: string = POLICY_STATUSES[i % 10 < 7 ? 0 : (i % 10) - 6] ?? 'ACTIVE';
    const termination = status === 'TERMINATED' ? terminationOf(i, startMs, version, nowMs) : null;
    const code = stableCode('pol', `${slug}:policy:${i}`);
    let runEvent: SeededPolicy['runEvent'];
    if (status === 'ACTIVE' || status === 'SUSPENDED') {
      // As the renewal run would have left it by now (policy-renewal.ts): a term that ended
      // renews up to now or expires, recorded as the version the run writes. So the run at the
      // sandbox's start finds nothing due, and the demo has expired and renewed policies.
      const due = dueVersion(slug, i, policyVersions.at(-1)!, renewalFrequency, nowMs);
      if (due) {
        policyVersions.at(-1)!.revisionStatus = 'superseded';
        policyVersions.push(due);
        // In the policy's history as the run records what it does.
        runEvent = { ...renewalEvent(code, due.metadata, status), at: due.createdAt! };
        if (renewalFrequency === 'none') status = 'EXPIRED';
      }
    }
    policies.push({
      code,
      createdAt,
      policyNumber: formatPolicyNumber(i + 1),
      productId: version.product_id,
      productVersionId: version.id,
      accountCode: accountCodes[(i * 7) % accountCodes.length]!,
      holder: null,
      status,
      policyStartDate: hasStart ? new Date(startMs) : null,
      leadCode: null,
      premiumOverride: null,
      renewalFrequency,
      termination,
      versions: policyVersions,
      ...(runEvent ? { runEvent } : {}),
    });
  }
  return policies;
}

/** A demo policy, with the history's event of the version the renewal run would have written. */
export type SeededPolicy = NewPolicy & { runEvent?: AuditEvent & { at: Date } };

/**
 * Adds `count` demo policies to a tenant, numbered on from its policy number counter, created
 * at the times `createdMsOf` gives per index. Answers how many were added (none when the tenant
 * sells nothing yet).
 */
export async function addDemoPolicies(
  tx: Queryable,
  tenant: { id: number; slug: string },
  seller: Seller,
  count: number,
  createdMsOf: (i: number, k: number) => number,
  nowMs: number,
): Promise<number> {
  if (count <= 0) return 0;
  const first = await reservePolicyNumbers(tx, tenant.id, count);
  const policies = generatePolicies(tenant.slug, seller, first, count, createdMsOf, nowMs);
  await insertPolicies(tx, tenant.id, { at: new Date(), by: 'system' }, policies);
  await recordSystemChanges(
    tx,
    tenant.id,
    new Date(nowMs),
    policies.flatMap((p) => (p.runEvent ? [p.runEvent] : [])),
  );
  return policies.length;
}

const COUNTS: Record<string, number> = { demo: 2000, nordlicht: 25 };

/**
 * Seeds policies into the demo workspaces that have none yet (after products and customers), so
 * that a data directory seeded before migration 005 gets them too.
 */
export async function seedPolicies(db: Db, logger: Logger, clock: Clock): Promise<boolean> {
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
    for (const t of tenants) {
      const seller = await sellerOf(tx, t.id);
      if (seller) {
        const count = COUNTS[t.slug] ?? 0;
        const nowMs = clock.now();
        await addDemoPolicies(tx, t, seller, count, seededCreatedMsOn(nowMs), nowMs);
      }
    }
    return tenants.length > 0;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, 'sandbox policies seeded');
  return seeded;
}

/** Policies per transaction when growing a workspace: bounded memory, visible progress. */
const GROW_CHUNK = 5000;
const MINUTE_MS = 60_000;

/**
 * Grows a workspace's policies to `target` with the demo generator (`npm run seed:policies`,
 * the list benchmark), numbered on after the existing ones and created between the newest one
 * and now. Chunks of {@link GROW_CHUNK} in their own transactions; the planner statistics are
 * refreshed at the end, since a table a hundred times larger wants other plans.
 */
export async function growPolicies(
  db: Db,
  slug: string,
  target: number,
  progress: (total: number) => void = () => {},
): Promise<{ before: number; after: number }> {
  const [tenant] = await db.query<{ id: number; slug: string }>(
    'SELECT id, slug FROM tenants WHERE slug = $1',
    [slug],
  );
  if (!tenant) throw new Error(`no workspace "${slug}" in this database`);
  const seller = await sellerOf(db, tenant.id);
  if (!seller) throw new Error(`workspace "${slug}" has no sellable product or no customer yet`);
  const [stats] = await db.query<{ count: number; newest: Date | null }>(
    'SELECT count(*)::int AS count, max(created_at) AS newest FROM policies WHERE tenant_id = $1',
    [tenant.id],
  );
  const before = stats!.count;
  const toAdd = target - before;
  if (toAdd <= 0) return { before, after: before };
  const newestMs = stats!.newest ? new Date(stats!.newest).getTime() : Date.now();
  const stepMs = Math.max(MINUTE_MS, Math.floor((Date.now() - newestMs) / toAdd));
  let added = 0;
  while (added < toAdd) {
    const count = Math.min(GROW_CHUNK, toAdd - added);
    const offset = added;
    await db.transaction(async (tx) => {
      // The same lock as the start-up seed: the two never interleave.
      await tx.query('SELECT pg_advisory_xact_lock(724314)');
      await addDemoPolicies(
        tx,
        tenant,
        seller,
        count,
        (_, k) => newestMs + (offset + k + 1) * stepMs,
        Date.now(),
      );
    });
    added += count;
    progress(before + added);
  }
  for (const table of ['policies', 'policy_versions', 'timeslices', 'policy_objects']) {
    await db.query(`ANALYZE ${table}`);
  }
  return { before, after: before + added };
}
