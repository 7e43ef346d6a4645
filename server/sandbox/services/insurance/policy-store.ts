import type { Queryable } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import type { Premium } from './premium.ts';
import { storePremiumInForce } from './policy-premium.ts';

/**
 * The one writer of policy rows: the demo seed, the seed command that grows a workspace to
 * 100 000 policies, a new policy, a draft and every lifecycle action insert through here. Rows
 * are gathered in columns and inserted with one `unnest` per table, ids drawn from the sequences
 * in one round trip per table, so that a thousand policies cost what one does in statements.
 */

export interface NewPolicyObject {
  /** Given by the seed (stable codes); new objects otherwise get a random `pob_` code. */
  code?: string;
  insuredObjectId: number | null;
  name: string;
  label: string;
  data: Record<string, unknown>;
}

export interface NewTimeslice {
  from: Date;
  to: Date | null;
  premium: Premium | Record<string, unknown>;
  /** In product order, the `default` object first. */
  objects: NewPolicyObject[];
}

export interface NewVersion {
  versionNumber: number;
  /** Its creation time when not the write's own (the seed's fixed times). */
  createdAt?: Date;
  revisionStatus: 'applied' | 'superseded' | 'draft';
  metadata: Record<string, unknown>;
  timeline: NewTimeslice[];
}

export interface NewPolicy {
  code?: string;
  createdAt?: Date;
  policyNumber: string;
  productId: number;
  productVersionId: number;
  accountCode: string | null;
  holder: Record<string, unknown> | null;
  status: string;
  policyStartDate: Date | null;
  leadCode: string | null;
  premiumOverride: Record<string, unknown> | null;
  /** How the contract renews at the end of its term (the renewal run); `none` when not given. */
  renewalFrequency?: string;
  /** A terminated policy's date and reason (the seed's; the termination route sets its own). */
  termination?: { date: Date; reason: string } | null;
  versions: NewVersion[];
}

export interface WriteStamp {
  /** created_at and updated_at of rows that do not bring their own. */
  at: Date;
  by: string;
}

/** The short text shown for a policy object: its first two values. */
export const summaryOf = (data: Record<string, unknown>) =>
  Object.values(data)
    .filter((value) => value !== null)
    .slice(0, 2)
    .join(', ');

export const formatPolicyNumber = (n: number) => `POL-${String(n).padStart(6, '0')}`;

/**
 * Reserves `count` consecutive policy numbers of the tenant and answers the first. The counter
 * row is locked by the update until the transaction ends; the first use starts it after the
 * highest number the tenant has (seeded policies are numbered without the counter).
 */
export async function reservePolicyNumbers(
  tx: Queryable,
  tenantId: number,
  count: number,
): Promise<number> {
  const [updated] = await tx.query<{ last_number: number }>(
    `UPDATE policy_number_counters SET last_number = last_number + $2 WHERE tenant_id = $1
     RETURNING last_number`,
    [tenantId, count],
  );
  const [row] = updated
    ? [updated]
    : await tx.query<{ last_number: number }>(
        `INSERT INTO policy_number_counters (tenant_id, last_number)
         SELECT $1, coalesce(max(substring(policy_number FROM '^POL-(\\d+)$')::int), 0) + $2
           FROM policies WHERE tenant_id = $1
         ON CONFLICT (tenant_id)
           DO UPDATE SET last_number = policy_number_counters.last_number + $2
         RETURNING last_number`,
        [tenantId, count],
      );
  return row!.last_number - count + 1;
}

/**
 * Locks the tenant's policy row (by numeric id or `pol_` code) until the transaction ends and
 * answers its id, or null when the tenant has no such policy. Every write takes this lock first,
 * in a statement of its own, and only then reads the policy's versions, status and draft: under
 * READ COMMITTED a statement that had to wait for the lock still reads every other table as it
 * was when the statement began, so a write that read and locked in one statement would act on
 * the state before the write it waited for (an old current version, a deleted draft).
 */
export async function lockPolicy(
  tx: Queryable,
  tenantId: number,
  key: { id: number } | { code: string },
): Promise<number | null> {
  const [row] = await tx.query<{ id: number }>(
    `SELECT id FROM policies WHERE tenant_id = $1 AND ${'id' in key ? 'id' : 'code'} = $2
       FOR UPDATE`,
    [tenantId, 'id' in key ? key.id : key.code],
  );
  return row?.id ?? null;
}

/** `count` fresh ids of a table's serial column, ascending, so that ids follow insertion order. */
async function nextIds(tx: Queryable, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await tx.query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::int AS id
       FROM generate_series(1, $1)`,
    [count],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * Inserts versions of existing policies (each with its timeslices and their objects) and answers
 * their ids in the given order. A version that becomes current must be inserted after the old
 * current one lost the flag (one current version per policy).
 */
export async function insertVersions(
  tx: Queryable,
  tenantId: number,
  stamp: WriteStamp,
  versions: (NewVersion & { policyId: number; policyCode: string })[],
): Promise<number[]> {
  const versionIds = await nextIds(tx, 'policy_versions', versions.length);
  const at = (version: NewVersion) => (version.createdAt ?? stamp.at).toISOString();
  const slices = versions.flatMap((version, v) =>
    version.timeline.map((slice) => ({ ...slice, versionId: versionIds[v]!, version })),
  );
  const sliceIds = await nextIds(tx, 'timeslices', slices.length);
  const objects = slices.flatMap((slice, s) =>
    slice.objects.map((object, o) => ({
      ...object,
      sliceId: sliceIds[s]!,
      policyCode: slice.version.policyCode,
      order: o + 1,
      at: at(slice.version),
    })),
  );
  const objectIds = await nextIds(tx, 'policy_objects', objects.length);

  await tx.query(
    `INSERT INTO policy_versions (id, tenant_id, policy_id, version_number, is_current, is_draft,
                                  revision_status, metadata, created_at, updated_at, created_by,
                                  updated_by)
     SELECT id, $1, po, n, s = 'applied', s = 'draft', s, m::jsonb, cr, cr, $8, $8
       FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
         AS x(id, po, n, s, m, cr)`,
    [
      tenantId,
      versionIds,
      versions.map((v) => v.policyId),
      versions.map((v) => v.versionNumber),
      versions.map((v) => v.revisionStatus),
      versions.map((v) => JSON.stringify(v.metadata)),
      versions.map(at),
      stamp.by,
    ],
  );
  await tx.query(
    `INSERT INTO timeslices (id, tenant_id, policy_version_id, "from", "to", premium, created_at,
                             updated_at, created_by, updated_by)
     SELECT id, $1, ve, f, t, pr::jsonb, cr, cr, $8, $8
       FROM unnest($2::int[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::text[],
                   $7::timestamptz[]) AS x(id, ve, f, t, pr, cr)`,
    [
      tenantId,
      sliceIds,
      slices.map((s) => s.versionId),
      slices.map((s) => iso(s.from)),
      slices.map((s) => iso(s.to)),
      slices.map((s) => JSON.stringify(s.premium)),
      slices.map((s) => at(s.version)),
      stamp.by,
    ],
  );
  await tx.query(
    `INSERT INTO policy_objects (id, tenant_id, code, timeslice_id, policy_code, insured_object_id,
                                 insured_object_name, insured_object_label, data, summary, "order",
                                 created_at, updated_at, created_by, updated_by)
     SELECT id, $1, c, sl, pc, io, n, l, d::jsonb, su, ord, cr, cr, $13, $13
       FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::int[], $12::timestamptz[])
         AS x(id, c, sl, pc, io, n, l, d, su, ord, cr)`,
    [
      tenantId,
      objectIds,
      objects.map((o) => o.code ?? newCode('pob')),
      objects.map((o) => o.sliceId),
      objects.map((o) => o.policyCode),
      objects.map((o) => o.insuredObjectId),
      objects.map((o) => o.name),
      objects.map((o) => o.label),
      objects.map((o) => JSON.stringify(o.data)),
      objects.map((o) => summaryOf(o.data)),
      objects.map((o) => o.order),
      objects.map((o) => o.at),
      stamp.by,
    ],
  );
  // A new current version is a new premium in force (a draft changes nothing the list shows).
  const current = versions.filter((v) => v.revisionStatus === 'applied');
  await storePremiumInForce(
    tx,
    tenantId,
    current.map((v) => v.policyId),
    stamp.at,
  );
  return versionIds;
}

/** Inserts new policies with all their versions; answers the policies' ids in the given order. */
export async function insertPolicies(
  tx: Queryable,
  tenantId: number,
  stamp: WriteStamp,
  policies: NewPolicy[],
): Promise<number[]> {
  const ids = await nextIds(tx, 'policies', policies.length);
  const codes = policies.map((p) => p.code ?? newCode('pol'));
  await tx.query(
    `INSERT INTO policies (id, tenant_id, code, policy_number, product_id, product_version_id,
                           account_code, holder, status, policy_start_date, lead_code,
                           premium_override, created_at, updated_at, created_by, updated_by,
                           renewal_frequency, termination_date, termination_reason)
     SELECT id, $1, c, n, pr, v, a, h::jsonb, s, st, l, o::jsonb, cr, cr, $14, $14, rf, td, tr
       FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[],
                   $9::text[], $10::timestamptz[], $11::text[], $12::text[], $13::timestamptz[],
                   $15::text[], $16::timestamptz[], $17::text[])
         AS x(id, c, n, pr, v, a, h, s, st, l, o, cr, rf, td, tr)`,
    [
      tenantId,
      ids,
      codes,
      policies.map((p) => p.policyNumber),
      policies.map((p) => p.productId),
      policies.map((p) => p.productVersionId),
      policies.map((p) => p.accountCode),
      policies.map((p) => json(p.holder)),
      policies.map((p) => p.status),
      policies.map((p) => iso(p.policyStartDate)),
      policies.map((p) => p.leadCode),
      policies.map((p) => json(p.premiumOverride)),
      policies.map((p) => (p.createdAt ?? stamp.at).toISOString()),
      stamp.by,
      policies.map((p) => p.renewalFrequency ?? 'none'),
      policies.map((p) => iso(p.termination?.date ?? null)),
      policies.map((p) => p.termination?.reason ?? null),
    ],
  );
  await insertVersions(
    tx,
    tenantId,
    stamp,
    policies.flatMap((policy, i) =>
      policy.versions.map((version) => ({
        createdAt: policy.createdAt,
        ...version,
        policyId: ids[i]!,
        policyCode: codes[i]!,
      })),
    ),
  );
  return ids;
}
