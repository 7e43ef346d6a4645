import * as v from 'valibot';
import { CLAIM_TYPES } from '#common/claims.ts';
import { AuditEntries, Id, Int, IsoDate, JsonRecord } from './shared.ts';
import { PartnerSchema } from './partner.ts';
import { PartyHolderSchema } from './policy.ts';

/** The claim service's records (docs/contracts.md, "Claims (sandbox)"). Money is in cents. */

/** Sums of the claim's settlements, in cents of `currency`. */
export const ClaimTotalsSchema = v.strictObject({
  reserve: Int,
  payment: Int,
  recourse: Int,
  currency: v.string(),
});

export const ClaimSchema = v.strictObject({
  id: Id,
  code: v.string(),
  claimNumber: v.string(),
  title: v.string(),
  description: v.string(),
  policyCode: v.string(),
  policyNumber: v.string(),
  accountCode: v.nullable(v.string()),
  productId: Id,
  /** A claim status slug. */
  status: v.string(),
  damageDate: IsoDate,
  notificationDate: IsoDate,
  claimType: v.picklist(CLAIM_TYPES),
  customFields: JsonRecord,
  /** The policy's holder: given by value or its customer account. */
  holder: v.nullable(PartyHolderSchema),
  totals: ClaimTotalsSchema,
  version: Int,
  ...AuditEntries,
});

export const ClaimStatusSchema = v.strictObject({
  id: Id,
  code: v.string(),
  slug: v.string(),
  name: v.string(),
  order: Int,
});

export const ClaimPartnerRoleSchema = v.strictObject({
  id: Id,
  code: v.string(),
  slug: v.string(),
  name: v.string(),
});

/** `partner` (with its tags) and `role` come with their `expand`. */
export const ClaimPartnerSchema = v.strictObject({
  id: Id,
  claimCode: v.string(),
  partnerCode: v.string(),
  claimPartnerRoleId: Id,
  partner: v.optional(v.nullable(PartnerSchema)),
  role: v.optional(v.nullable(ClaimPartnerRoleSchema)),
  ...AuditEntries,
});

export const SettlementSchema = v.strictObject({
  id: Id,
  code: v.string(),
  claimCode: v.string(),
  insuredObject: v.string(),
  reserve: Int,
  payment: Int,
  recourse: Int,
  currency: v.string(),
  version: Int,
  ...AuditEntries,
});

export type ClaimTotals = v.InferOutput<typeof ClaimTotalsSchema>;
export type Claim = v.InferOutput<typeof ClaimSchema>;
export type ClaimStatus = v.InferOutput<typeof ClaimStatusSchema>;
export type ClaimPartnerRole = v.InferOutput<typeof ClaimPartnerRoleSchema>;
export type ClaimPartner = v.InferOutput<typeof ClaimPartnerSchema>;
export type Settlement = v.InferOutput<typeof SettlementSchema>;
