import * as v from 'valibot';
import { AuditEntries, Id, Int, JsonRecord } from './shared.ts';

/** The partnerservice's records (docs/contracts.md, "Insurance: customers and partners"). */

export const PARTNER_TYPE_SLUGS = ['person', 'organization'] as const;

export const PartnerTypeSchema = v.strictObject({
  id: Id,
  code: v.string(),
  name: v.string(),
  slug: v.picklist(PARTNER_TYPE_SLUGS),
});

export const PartnerTagSchema = v.strictObject({
  code: v.string(),
  slug: v.string(),
  label: v.string(),
  description: v.string(),
});

/** `partnerType` and `tags` are there only when asked for with `expand`. */
export const PartnerSchema = v.strictObject({
  id: Id,
  code: v.string(),
  displayName: v.string(),
  partnerTypeId: Id,
  partnerType: v.optional(v.nullable(PartnerTypeSchema)),
  tags: v.optional(v.array(PartnerTagSchema)),
  partnerNumber: v.string(),
  accountCode: v.nullable(v.string()),
  customFields: JsonRecord,
  version: Int,
  ern: v.string(),
  ...AuditEntries,
});

export type PartnerType = v.InferOutput<typeof PartnerTypeSchema>;
export type PartnerTag = v.InferOutput<typeof PartnerTagSchema>;
export type Partner = v.InferOutput<typeof PartnerSchema>;
