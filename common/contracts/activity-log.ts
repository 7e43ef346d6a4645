import * as v from 'valibot';
import { ADMIN_ENTITY_TYPES, type AdminEntityType } from '#common/activity-kinds.ts';
import { HistoryEntrySchema, type RecordEntityType } from './shared.ts';

export {
  ADMIN_ENTITY_TYPES,
  isAdminEntityType,
  type AdminEntityType,
} from '#common/activity-kinds.ts';

/** Every kind the audit trail keeps: the records with a history, and the administration's. */
export type AuditEntityType = RecordEntityType | AdminEntityType;

/**
 * One entry of the tenant's activity log (`GET /tenantservice/v1/audit-events`): a history entry
 * with the record's name as it was at the time (a role's label, a user's name, a setting's key),
 * since the record itself may be gone.
 */
export const ActivityEntrySchema = v.strictObject({
  ...HistoryEntrySchema.entries,
  entityType: v.picklist(ADMIN_ENTITY_TYPES),
  entityLabel: v.nullable(v.string()),
});
export type ActivityEntry = v.InferOutput<typeof ActivityEntrySchema>;
