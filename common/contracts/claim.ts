import * as v from 'valibot';
import { NameLabelsOut } from '#common/name-labels.ts';
import {
  CLAIM_STATUS_SLUG,
  CLAIM_TYPES,
  ClaimChanges,
  ClaimFields,
  ClaimReason,
  SettlementFields,
} from '#common/claims.ts';
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
  /** Who registered the claim although the cover check refused it, when and why (issue 15). */
  coverOverride: v.optional(
    v.nullable(
      v.strictObject({
        codes: v.array(v.string()),
        reason: v.string(),
        by: v.string(),
        /** The name of `by`, for readers who may not list users. */
        byName: v.optional(v.nullable(v.string())),
        at: v.string(),
      }),
    ),
  ),
  /** Who cancelled the claim (instead of deleting it), when and why. */
  cancellation: v.optional(
    v.nullable(
      v.strictObject({
        reason: v.string(),
        by: v.string(),
        byName: v.optional(v.nullable(v.string())),
        at: v.string(),
      }),
    ),
  ),
  version: Int,
  ...AuditEntries,
  /** Who saved this version, by name (null: the system, or a user without a name). */
  updatedByName: v.optional(v.nullable(v.string())),
});

export const ClaimStatusSchema = v.strictObject({
  id: Id,
  code: v.string(),
  slug: v.string(),
  name: v.string(),
  labels: NameLabelsOut,
  order: Int,
});

export const ClaimPartnerRoleSchema = v.strictObject({
  id: Id,
  code: v.string(),
  slug: v.string(),
  name: v.string(),
  labels: NameLabelsOut,
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
  /**
   * A payment above its requester's authority limit, waiting for a second person (issue 15):
   * `payment` is the total it would set; the settlement's own `payment` is what counts until then.
   */
  pendingPayment: v.optional(
    v.nullable(
      v.strictObject({
        payment: Int,
        requestedBy: v.string(),
        requestedAt: v.string(),
      }),
    ),
  ),
  /** What of `payment` was reversed, in positive cents: paid is payment − reversedPayment. */
  reversedPayment: v.optional(Int),
  /** The latest reversal: a counter-entry of the negative amount, why, who and when. */
  paymentReversal: v.optional(
    v.nullable(
      v.strictObject({
        payment: Int,
        reason: v.string(),
        by: v.string(),
        byName: v.optional(v.nullable(v.string())),
        at: v.string(),
      }),
    ),
  ),
  version: Int,
  ...AuditEntries,
});

export type ClaimTotals = v.InferOutput<typeof ClaimTotalsSchema>;
export type Claim = v.InferOutput<typeof ClaimSchema>;
export type ClaimStatus = v.InferOutput<typeof ClaimStatusSchema>;
export type ClaimPartnerRole = v.InferOutput<typeof ClaimPartnerRoleSchema>;
export type ClaimPartner = v.InferOutput<typeof ClaimPartnerSchema>;
export type Settlement = v.InferOutput<typeof SettlementSchema>;

// ---- request bodies -------------------------------------------------------------------------
// Strict, unlike the other services' bodies: the claim service refuses a key it does not know,
// so that a new claim cannot bring its own status and an edit cannot name a field it may not set.

const Version = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
/** A code of the wrong form cannot name a record: refused as the unknown record it would be. */
const codeOf = (prefix: string, code: string) =>
  v.pipe(v.string(), v.regex(new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`), code));

/** A new claim starts in the tenant's first status: a status in the body is refused. */
/** Registers the claim although the cover check refuses it: its own permission, audited. */
const CoverOverride = v.optional(v.strictObject({ reason: ClaimReason }));
export const ClaimCreateBody = v.strictObject({
  policyCode: codeOf('pol', 'unknown_policy'),
  ...ClaimFields.entries,
  coverOverride: CoverOverride,
});
export const ClaimUpdateBody = v.strictObject({
  version: Version,
  ...ClaimFields.entries,
  coverOverride: CoverOverride,
});
export const ClaimPatchBody = v.strictObject({
  version: Version,
  status: v.optional(v.pipe(v.string(), v.regex(CLAIM_STATUS_SLUG, 'unknown_status'))),
  ...ClaimChanges.entries,
  coverOverride: CoverOverride,
});
/** Closes a claim for good with a reason: what replaces deleting a claim that holds money. */
export const ClaimCancelBody = v.strictObject({ version: Version, reason: ClaimReason });
/** Approves or rejects the pending payment of a settlement, on top of its version. */
export const PaymentDecisionBody = v.strictObject({
  version: Version,
  decision: v.picklist(['approve', 'reject'], 'invalid_decision'),
});
/** Reverses the booked payment of a settlement, on top of its version, with a reason. */
export const PaymentReversalBody = v.strictObject({ version: Version, reason: ClaimReason });
export const ClaimPartnerLinkBody = v.strictObject({
  partnerCode: codeOf('ptn', 'unknown_partner'),
  claimPartnerRoleId: v.pipe(
    v.number('unknown_role'),
    v.integer('unknown_role'),
    v.minValue(1, 'unknown_role'),
    v.maxValue(2_147_483_647, 'unknown_role'),
  ),
});
export const SettlementCreateBody = v.strictObject({
  claimCode: codeOf('clm', 'unknown_claim'),
  ...SettlementFields.entries,
});
export const SettlementUpdateBody = v.strictObject({
  version: Version,
  ...SettlementFields.entries,
});

export type ClaimCreateInput = v.InferInput<typeof ClaimCreateBody>;
export type ClaimUpdateInput = v.InferInput<typeof ClaimUpdateBody>;
export type ClaimPatchInput = v.InferInput<typeof ClaimPatchBody>;
export type ClaimPartnerLinkInput = v.InferInput<typeof ClaimPartnerLinkBody>;
export type SettlementCreateInput = v.InferInput<typeof SettlementCreateBody>;
export type SettlementUpdateInput = v.InferInput<typeof SettlementUpdateBody>;
export type ClaimCancelInput = v.InferInput<typeof ClaimCancelBody>;
export type PaymentDecisionInput = v.InferInput<typeof PaymentDecisionBody>;
export type PaymentReversalInput = v.InferInput<typeof PaymentReversalBody>;
