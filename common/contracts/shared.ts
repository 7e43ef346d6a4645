import * as v from 'valibot';

/**
 * Pieces every service's contract uses. Response records are `v.strictObject`: a field the
 * service adds or renames without its schema fails the drift test (tests/integration/contracts).
 */

/** An instant as JSON carries it: `2026-01-30T01:16:30.616Z`. */
export const Timestamp = v.pipe(v.string(), v.isoTimestamp());
/** A calendar day without a time: `1964-08-12`. */
export const IsoDate = v.pipe(v.string(), v.isoDate());
/** A database id: a positive integer. */
export const Id = v.pipe(v.number(), v.integer(), v.minValue(1));
/** A count or an amount of whole units (cents, a version number). */
export const Int = v.pipe(v.number(), v.integer());

/** Who wrote a record and when; the writers are user codes or `system`. */
export const AuditEntries = {
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: v.string(),
  updatedBy: v.string(),
};

/**
 * One page of a list: the items and the token of the next page, null on the last; `totalItems`,
 * where the list carries it (upstream contract), counts the whole filtered list.
 */
export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.strictObject({
    items: v.array(item),
    nextPageToken: v.nullable(v.string()),
    totalItems: v.optional(Int),
  });

/** The free data a tenant keeps on a record (custom fields, object data): any JSON. */
export const JsonRecord = v.record(v.string(), v.unknown());

/** A tenant's status rule (leads, claims): the move from one status slug to another. */
export const TransitionRuleSchema = v.strictObject({
  id: Id,
  entityType: v.string(),
  fromStatus: v.string(),
  toStatus: v.string(),
});
export type TransitionRule = v.InferOutput<typeof TransitionRuleSchema>;

/** The records whose changes the audit trail keeps (issue 15, point 12). */
export const AUDIT_ENTITY_TYPES = [
  'policy',
  'claim',
  'lead',
  'account',
  'partner',
  'product_version',
  'user',
  // Billing and payments (issue 18): money records, never deleted.
  'invoice',
  'payment',
] as const;
/**
 * The kinds with a history route; the administration's kinds of the activity log are in
 * `./activity-log.ts` (kept apart: this module is in the shell's bundle).
 */
export type RecordEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/** One changed field of an audit event: its dotted path and its JSON values before and after. */
export const AuditChangeSchema = v.strictObject({
  field: v.string(),
  before: v.unknown(),
  after: v.unknown(),
});

/**
 * One change to a record, as `GET …/{id}/history` lists them newest first: who by name (never a
 * user id or code), when, what happened (`created`, `updated`, `status_changed`, …) and the
 * fields it changed.
 */
export const HistoryEntrySchema = v.strictObject({
  id: v.string(),
  entityType: v.picklist(AUDIT_ENTITY_TYPES),
  entityId: v.string(),
  actorName: v.string(),
  /** Made by the sandbox's own job (the renewal run), not by a person: shown as "the system". */
  bySystem: v.optional(v.boolean()),
  at: Timestamp,
  action: v.string(),
  changes: v.array(AuditChangeSchema),
  /** The part of the record that changed, by name (a product version's field, a claim's partner). */
  entityLabel: v.optional(v.nullable(v.string())),
});
export type HistoryEntry = v.InferOutput<typeof HistoryEntrySchema>;
export const HistoryPageSchema = pageOf(HistoryEntrySchema);
