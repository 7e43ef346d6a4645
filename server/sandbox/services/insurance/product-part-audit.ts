import type { Clock } from '#common/clock.ts';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';

/**
 * A product version's parts in its history (issue 15, point 12): a field, formula, factor, named
 * range, insured object or booking funnel added, changed or removed is an event of the version
 * (`field_added`, `formula_changed`…), named by the part (its label kept with the event); a
 * change lists the part's fields before and after.
 */
export type ProductPart =
  'field' | 'formula' | 'factor' | 'named_range' | 'insured_object' | 'booking_funnel';

export interface PartChange {
  versionId: number;
  part: ProductPart;
  /** The part's name as a product manager knows it (`vehicleValue`). */
  name: string;
  before: object | null;
  after: object | null;
}

export type Who = { auth: AuthContext; clock: Clock };

/** A part's change, each side shown by `shown` (what a product manager edits of it). */
export function partChange<R extends { product_version_id: number; name: string }>(
  part: ProductPart,
  row: R,
  before: R | null,
  after: R | null,
  shown: (r: R) => object,
): PartChange {
  return {
    versionId: row.product_version_id,
    part,
    name: row.name,
    before: before && shown(before),
    after: after && shown(after),
  };
}

/** Records one change of a part inside the transaction of its write. */
export async function recordPart(tx: Queryable, who: Who, change: PartChange): Promise<void> {
  const [version] = await tx.query<{ code: string }>(
    'SELECT code FROM product_versions WHERE id = $1',
    [change.versionId],
  );
  if (!version) return;
  const { before, after } = change;
  const action = `${change.part}_${before && after ? 'changed' : after ? 'added' : 'removed'}`;
  await recordChange(tx, who, {
    entityType: 'product_version',
    entityId: version.code,
    entityLabel: change.name,
    action,
    // An added or removed part is named by the event; its every column would be noise.
    ...(before && after ? { before, after } : { changes: [] }),
  });
}

/**
 * A part's write of one statement (`sql` with `params`) and its event, in one transaction;
 * `event` gets the rows the statement answered (null: nothing to record).
 */
export function writePart<T>(
  db: Db,
  who: Who,
  sql: string,
  params: readonly unknown[],
  event: (rows: T[]) => PartChange | null | undefined,
): Promise<T[]> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<T>(sql, [...params]);
    const change = event(rows);
    if (change) await recordPart(tx, who, change);
    return rows;
  });
}

/** Removes a part (`table` a constant, never input) and records it, in one transaction. */
export function deletePart(
  db: Db,
  who: Who,
  table: string,
  id: number,
  change: PartChange,
): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [
      who.auth.tenantId,
      id,
    ]);
    await recordPart(tx, who, change);
  });
}
