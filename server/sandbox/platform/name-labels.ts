import type { RequestHandler } from 'express';
import type { Clock } from '#common/clock.ts';
import { NameLabelsSchema, storedLabels, type NameLabels } from '#common/name-labels.ts';
import type { Db } from './db.ts';
import { getAuth } from './auth-context.ts';
import { notFound } from './errors.ts';
import { parseBody } from './request-body.ts';

/**
 * The translations of tenant-defined names (migration 021): a table of named rows (statuses,
 * partner roles) keyed by tenant and slug, with a `labels` column. One way to seed and one to
 * edit them, so every kind behaves alike.
 */

/** The default labels of a kind's seeded rows, by slug (the seed stores them with the rows). */
export type DefaultLabels = Readonly<Record<string, Required<NameLabels>>>;

/**
 * `PUT …/:slug/labels`: the caller's workspace's row of that slug gets the labels of the body
 * (`{de, en, pl}`, an empty text clears one), stamped with who and when. A slug of another
 * workspace is not found, like one that does not exist. Answers the row as `present` shows it.
 */
export function labelsRoute<Row>(
  db: Db,
  clock: Clock,
  /** The table (a constant, never input); it has updated_at and updated_by. */
  table: string,
  present: (row: Row) => unknown,
): RequestHandler {
  return async (req, res) => {
    const labels = storedLabels(parseBody(NameLabelsSchema, req.body));
    const { tenantId, userCode } = getAuth(res);
    const [row] = await db.query<Row>(
      `UPDATE ${table} SET labels = $3, updated_at = $4, updated_by = $5
        WHERE tenant_id = $1 AND slug = $2 RETURNING *`,
      [tenantId, req.params.slug, JSON.stringify(labels), new Date(clock.now()), userCode],
    );
    if (!row) throw notFound();
    res.json(present(row));
  };
}
