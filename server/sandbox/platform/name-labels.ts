import type { RequestHandler } from 'express';
import type { Clock } from '#common/clock.ts';
import * as v from 'valibot';
import {
  LABEL_LANGUAGES,
  NameLabelsOut,
  NameLabelsSchema,
  storedLabels,
  type NameLabels,
} from '#common/name-labels.ts';
import type { Db } from './db.ts';
import { getAuth } from './auth-context.ts';
import { recordChange } from './audit-trail.ts';
import { HttpError, notFound } from './errors.ts';
import { parseBody } from './request-body.ts';

/**
 * The translations of tenant-defined names (migration 021): a table of named rows (statuses,
 * partner roles) keyed by tenant and slug, with a `labels` column. One way to seed and one to
 * edit them, so every kind behaves alike.
 */

/** The default labels of a kind's seeded rows, by slug (the seed stores them with the rows). */
export type DefaultLabels = Readonly<Record<string, Required<NameLabels>>>;

/**
 * The labels migration 026 gives a table's rows, by slug, read from its SQL: for the tests that
 * check them against the seed's defaults.
 */
export function migrationLabels(sql: string, table: string): Record<string, unknown> {
  const statement = sql.split(`UPDATE ${table} `)[1]?.split(';')[0] ?? '';
  const rows = [...statement.matchAll(/\('([^']+)', '([^']+)'\)/g)];
  return Object.fromEntries(rows.map(([, slug, labels]) => [slug, JSON.parse(labels!)]));
}

/**
 * A labels edit: the texts, and optionally the labels the editor started from (`basedOn`): when
 * someone saved others since, the edit is refused 409 `version_conflict` with the row as it is
 * now, as a settings save based on an old version is. The labels are the row's version here.
 */
const LabelsEdit = v.strictObject({
  ...NameLabelsSchema.entries,
  basedOn: v.optional(NameLabelsOut),
});

const sameLabels = (a: NameLabels, b: NameLabels) =>
  LABEL_LANGUAGES.every((language) => (a[language] ?? '') === (b[language] ?? ''));

/**
 * `PUT …/:slug/labels`: the caller's workspace's row of that slug gets the labels of the body
 * (`{de, en, pl}`, an empty text clears one), stamped with who and when and recorded in the
 * activity log with the texts before and after. A slug of another workspace is not found, like
 * one that does not exist. Answers the row as `present` shows it.
 */
export function labelsRoute<Row extends { labels: NameLabels | null; name?: string }>(
  db: Db,
  clock: Clock,
  /** The table (a constant, never input); it has updated_at and updated_by. */
  table: string,
  present: (row: Row) => unknown,
): RequestHandler {
  return async (req, res) => {
    const { basedOn, ...texts } = parseBody(LabelsEdit, req.body);
    const labels = storedLabels(texts);
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const row = await db.transaction(async (tx) => {
      const [current] = await tx.query<Row>(
        `SELECT * FROM ${table} WHERE tenant_id = $1 AND slug = $2 FOR UPDATE`,
        [tenantId, req.params.slug],
      );
      if (!current) throw notFound();
      if (basedOn && !sameLabels(basedOn, current.labels ?? {})) {
        throw new HttpError(409, 'version_conflict', 'the labels were changed by someone else', {
          current: present(current),
        });
      }
      const [updated] = await tx.query<Row>(
        `UPDATE ${table} SET labels = $3, updated_at = $4, updated_by = $5
          WHERE tenant_id = $1 AND slug = $2 RETURNING *`,
        [tenantId, req.params.slug, JSON.stringify(labels), new Date(clock.now()), userCode],
      );
      // The activity log: who translated which name, each language before and after. The table
      // and slug identify the row (`claim_statuses:in-review`), its name labels the entry; a save
      // of the same texts is no entry.
      await recordChange(
        tx,
        { auth, clock },
        {
          entityType: 'name_label',
          entityId: `${table}:${String(req.params.slug)}`,
          entityLabel: current.name ?? String(req.params.slug),
          action: 'updated',
          before: { labels: current.labels ?? {} },
          after: { labels },
        },
      );
      return updated!;
    });
    res.json(present(row));
  };
}
