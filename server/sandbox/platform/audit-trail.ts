import type { Request } from 'express';
import type { Clock } from '#common/clock.ts';
import type { RecordEntityType } from '#common/contracts/shared.ts';
import { isAdminEntityType, type AuditEntityType } from '#common/contracts/activity-log.ts';
import type { AuthContext } from './auth-context.ts';
import type { Db, Queryable } from './db.ts';
import { offsetPage } from './list-page.ts';
import { parseListQuery } from './list-query.ts';

/**
 * The one audit trail of the sandbox (table `audit_events`, migration 018): every change to a
 * policy, claim, lead, customer, product version or user records who by name, when on the
 * sandbox's clock, and what changed field by field. A route records its change with one call
 * inside the transaction that writes it, so a change and its event commit or roll back together.
 */

export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface AuditEvent {
  entityType: AuditEntityType;
  /** The record's code (`acc_…`), what its history route is addressed by. */
  entityId: string;
  /**
   * The record's name as a person knows it (a role's label, an organisation's name, a setting's
   * key), kept with the event for the activity log: the record may be renamed or gone later.
   */
  entityLabel?: string | null;
  /** What happened, lower snake case: `created`, `updated`, `status_changed`, `payment_approved`… */
  action: string;
  /** The record as presented before and after; their differing fields become `changes`. */
  before?: object | null;
  after?: object | null;
  /** Changes the presented records do not show (a role list, a payment): added as they are. */
  changes?: AuditChange[];
}

/**
 * Fields every record has that say nothing a reader of the history needs: the stamps this event
 * records itself (who, when), counters, identifiers and expanded neighbours. The user codes of
 * nested stamps (`coverOverride.by`, `pendingPayment.requestedBy`) are left out too: the event
 * names its actor, and no user id may reach a screen.
 */
const UNTRACKED = new Set([
  'by',
  'at',
  'requestedBy',
  'byName',
  'requestedAt',
  'id',
  'code',
  'ern',
  'version',
  'createdAt',
  'updatedAt',
  'createdBy',
  'updatedBy',
  'updatedByName',
  'versions',
  'timeline',
  'audit',
]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Dates as ISO text, so that a stored value compares and reads like the JSON answer. */
const normal = (value: unknown): unknown =>
  value instanceof Date ? value.toISOString() : value === undefined ? null : value;

/**
 * The fields that differ between two presented records, nested objects by dotted path
 * (`customFields.damageLocation`); lists and other values compare as a whole.
 */
export function changesBetween(
  before: object | null,
  after: object | null,
  prefix = '',
): AuditChange[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const changes: AuditChange[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (UNTRACKED.has(key)) continue;
    const field = prefix + key;
    const was = normal(b[key]);
    const is = normal(a[key]);
    if (isPlainObject(was) || isPlainObject(is)) {
      changes.push(
        ...changesBetween(
          isPlainObject(was) ? was : null,
          isPlainObject(is) ? is : null,
          `${field}.`,
        ),
      );
    } else if (JSON.stringify(was) !== JSON.stringify(is)) {
      changes.push({ field, before: was, after: is });
    }
  }
  return changes;
}

/**
 * Records one change; call it inside the transaction of the write. An update lists the fields
 * that differ, and one that changed no field (a save of what was saved) is no event; a creation
 * or removal lists no fields (the action says it), only `changes` given outright.
 */
export async function recordChange(
  tx: Queryable,
  who: { auth: AuthContext; clock: Clock },
  event: AuditEvent,
): Promise<void> {
  const compared = event.before && event.after;
  const changes = [
    ...(compared ? changesBetween(event.before ?? null, event.after ?? null) : []),
    ...(event.changes ?? []).map((c) => ({
      ...c,
      before: normal(c.before),
      after: normal(c.after),
    })),
  ];
  if (compared && !changes.length) return;
  await tx.query(
    `INSERT INTO audit_events (tenant_id, entity_type, entity_id, actor_id, actor_name, at, action,
                               changes, entity_label)
     SELECT $1, $2, $3, u.id,
            coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email), $5, $6, $7, $8
       FROM users u WHERE u.id = $4`,
    [
      who.auth.tenantId,
      event.entityType,
      event.entityId,
      who.auth.userId,
      new Date(who.clock.now()),
      event.action,
      JSON.stringify(changes),
      event.entityLabel ?? null,
    ],
  );
}

/** Who a change by no person is recorded as: the history names the system, in words. */
export const SYSTEM_ACTOR = 'system';

/**
 * Changes a job of the sandbox made on its own (the renewal run), one event each, at `at`: no
 * user did them, so they carry no user id and the history says "the system" in the reader's
 * language.
 */
export async function recordSystemChanges(
  tx: Queryable,
  tenantId: number,
  at: Date,
  events: readonly (AuditEvent & { at?: Date })[],
): Promise<void> {
  if (!events.length) return;
  await tx.query(
    `INSERT INTO audit_events (tenant_id, entity_type, entity_id, actor_id, actor_name, at, action,
                               changes, entity_label)
     SELECT $1, e.entity_type, e.entity_id, NULL, $2, e.at, e.action, e.changes, e.entity_label
       FROM jsonb_to_recordset($3::jsonb)
         AS e(entity_type text, entity_id text, at timestamptz, action text, changes jsonb,
              entity_label text)`,
    [
      tenantId,
      SYSTEM_ACTOR,
      JSON.stringify(
        events.map((event) => ({
          entity_type: event.entityType,
          entity_id: event.entityId,
          at: (event.at ?? at).toISOString(),
          action: event.action,
          changes: [
            ...(event.before && event.after ? changesBetween(event.before, event.after) : []),
            ...(event.changes ?? []).map((c) => ({
              ...c,
              before: normal(c.before),
              after: normal(c.after),
            })),
          ],
          entity_label: event.entityLabel ?? null,
        })),
      ),
    ],
  );
}

/**
 * A write of one statement that had no transaction of its own, and its event, in one
 * transaction: `event` gets what the write answered and says what to record (null when the write
 * changed nothing, a refused version for instance).
 */
export async function writeAudited<T>(
  db: Db,
  who: { auth: AuthContext; clock: Clock },
  write: (tx: Queryable) => Promise<T>,
  event: (result: T) => AuditEvent | null | undefined,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await write(tx);
    const happened = event(result);
    if (happened) await recordChange(tx, who, happened);
    return result;
  });
}

interface EventRow {
  id: string;
  by_system: boolean;
  entity_label: string | null;
  actor_name: string;
  at: Date;
  action: string;
  changes: AuditChange[];
}

/**
 * One page of a record's history, newest first: `{ items, nextPageToken }` read by the list
 * parameters every list takes (pageSize, pageToken; no filters or orders). The caller has loaded
 * the record in the caller's workspace and checked the right to read it, so that an id of another
 * workspace is a 404 as it is for the record itself.
 */
export async function historyPage(
  db: Queryable,
  req: Request,
  tenantId: number,
  entityType: RecordEntityType,
  entityId: string,
) {
  const list = parseListQuery(req.query, { filters: [], orders: [], expands: [] });
  const page = await offsetPage<EventRow>(
    db,
    list,
    `SELECT id::text, actor_id IS NULL AS by_system, entity_label, actor_name, at, action, changes FROM audit_events
      WHERE tenant_id = $1 AND entity_type = $2 AND entity_id = $3
      ORDER BY at DESC, id DESC`,
    [tenantId, entityType, entityId],
  );
  return {
    items: page.items.map((r) => ({
      id: r.id,
      entityType,
      entityId,
      // Only the name: the user's id or code never reaches a screen (issue 15, point 12).
      actorName: r.actor_name,
      // A change no person made (the renewal run): the screen names the system in words.
      ...(r.by_system ? { bySystem: true } : {}),
      at: r.at,
      action: r.action,
      changes: r.changes,
      // On a record's own page its label names a part (a version's field), not the record.
      ...(r.entity_label && !isAdminEntityType(entityType) ? { entityLabel: r.entity_label } : {}),
    })),
    nextPageToken: page.nextPageToken,
  };
}
