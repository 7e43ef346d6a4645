import * as v from 'valibot';
import { POLICY_STATUSES, REVISION_STATUSES } from '#common/policy-lifecycle.ts';
import { PREMIUM_UNITS, PRODUCT_CATEGORIES } from '#common/products.ts';
import { AuditEntries, Id, Int, JsonRecord, Timestamp } from './shared.ts';

/** The insurance service's policies (docs/contracts.md, "Insurance: policies"). */

/**
 * One premium item (upstream contract: `{premiumFormulaId, total, isOverride}`); `unit` is the
 * formula's, in policy answers asked with `expand=premiumUnits` (null: the formula is gone).
 */
export const PremiumItemSchema = v.strictObject({
  premiumFormulaId: Id,
  total: v.pipe(v.number(), v.finite()),
  isOverride: v.boolean(),
  unit: v.optional(v.nullable(v.picklist(PREMIUM_UNITS))),
});

export const PremiumSchema = v.strictObject({
  premiumItems: v.array(PremiumItemSchema),
  grandTotal: v.pipe(v.number(), v.finite()),
  currency: v.string(),
});

/**
 * Who holds a policy or a claim's policy: the summary of its customer account (`accountCode`,
 * `type`, names), or the holder given by value when the policy was created without an account.
 */
export const PartyHolderSchema = v.strictObject({
  accountCode: v.optional(v.string()),
  type: v.optional(v.picklist(['person', 'org'])),
  title: v.optional(v.string()),
  firstName: v.optional(v.nullable(v.string())),
  lastName: v.optional(v.nullable(v.string())),
  companyName: v.optional(v.nullable(v.string())),
  email: v.optional(v.string()),
  street: v.optional(v.string()),
  houseNumber: v.optional(v.string()),
  zipCode: v.optional(v.string()),
  city: v.optional(v.string()),
  birthDate: v.optional(v.string()),
  phone: v.optional(v.string()),
});

export const PolicyObjectSchema = v.strictObject({
  id: Id,
  code: v.string(),
  policyCode: v.string(),
  insuredObjectId: v.nullable(Id),
  insuredObjectName: v.string(),
  insuredObjectLabel: v.string(),
  data: JsonRecord,
  summary: v.string(),
  ...AuditEntries,
});

export const TimesliceSchema = v.strictObject({
  id: Id,
  from: Timestamp,
  to: v.nullable(Timestamp),
  premium: PremiumSchema,
  /** Reversed order as served: the 'default' object comes last. */
  policyObjects: v.array(PolicyObjectSchema),
  ...AuditEntries,
});

export const PolicyVersionSchema = v.strictObject({
  id: Id,
  policyId: Id,
  versionNumber: Int,
  isCurrent: v.boolean(),
  isDraft: v.boolean(),
  revisionStatus: v.picklist(REVISION_STATUSES),
  metadata: JsonRecord,
  timeline: v.array(TimesliceSchema),
  ...AuditEntries,
});

export const PolicyProductSchema = v.strictObject({
  id: Id,
  code: v.string(),
  name: v.string(),
  slug: v.string(),
  category: v.picklist(PRODUCT_CATEGORIES),
});

export const PremiumOverrideSchema = v.strictObject({
  premiumItems: v.array(
    v.strictObject({ premiumFormulaId: Id, total: v.pipe(v.number(), v.finite()) }),
  ),
});

/**
 * The money of a termination mid-term (the preview's answer, and `metadata.termination` of the
 * version a termination writes): the premium of the whole term as paid, the part earned up to
 * the termination date (pro rata by days) and the refund, in integer cents.
 */
export const TerminationFiguresSchema = v.strictObject({
  terminationDate: Timestamp,
  termDays: Int,
  insuredDays: Int,
  paidPremiumCents: Int,
  earnedPremiumCents: Int,
  refundCents: Int,
  currency: v.string(),
});
export type TerminationFigures = v.InferOutput<typeof TerminationFiguresSchema>;

/** `product`, `timeline` (the current version's) and `versions` come with their `expand`. */
export const PolicySchema = v.strictObject({
  id: Id,
  code: v.string(),
  policyNumber: v.string(),
  productId: Id,
  productVersionId: Id,
  productName: v.string(),
  productSlug: v.string(),
  accountCode: v.nullable(v.string()),
  holder: v.nullable(PartyHolderSchema),
  status: v.picklist(POLICY_STATUSES),
  policyStartDate: Timestamp,
  leadCode: v.nullable(v.string()),
  /** The version a write builds on (`basedOnVersionId`); the draft's for draft writes. */
  currentVersionId: v.nullable(Id),
  draftVersionId: v.nullable(Id),
  terminationDate: v.nullable(Timestamp),
  terminationReason: v.nullable(v.string()),
  premiumOverride: v.nullable(PremiumOverrideSchema),
  product: v.optional(PolicyProductSchema),
  timeline: v.optional(v.array(TimesliceSchema)),
  /** Newest first. */
  versions: v.optional(v.array(PolicyVersionSchema)),
  ern: v.string(),
  ...AuditEntries,
});

/**
 * A row of the policies list as the BFF answers it for `GET .../policies?view=row`
 * (docs/decisions/004-list-rows.md): what the policies table shows and links to, without the
 * timeline (about two thirds of a listed policy). `productName` is the product's current name
 * when the upstream expanded it, else the one the policy was written with; `premium` is the
 * current version's timeslice in force now, with the one unit of its items (null: they differ
 * or are unknown); null when the policy has no timeline.
 */
export const PolicyRowSchema = v.strictObject({
  ...v.pick(PolicySchema, [
    'id',
    'code',
    'policyNumber',
    'productName',
    'productSlug',
    'accountCode',
    'status',
    'policyStartDate',
    'createdAt',
  ]).entries,
  holder: v.nullable(
    v.pick(PartyHolderSchema, ['type', 'title', 'firstName', 'lastName', 'companyName']),
  ),
  premium: v.nullable(
    v.strictObject({
      grandTotal: v.pipe(v.number(), v.finite()),
      currency: v.string(),
      unit: v.nullable(v.picklist(PREMIUM_UNITS)),
    }),
  ),
});

/** POST /premiums/calculate: the premium, or null with what is still missing. */
export const PremiumCalculationSchema = v.strictObject({
  premium: v.nullable(PremiumSchema),
  /** `<objectName>.<field>` of each missing required value. */
  missing: v.array(v.string()),
});

export type PremiumItem = v.InferOutput<typeof PremiumItemSchema>;
export type Premium = v.InferOutput<typeof PremiumSchema>;
export type PartyHolder = v.InferOutput<typeof PartyHolderSchema>;
export type PolicyObject = v.InferOutput<typeof PolicyObjectSchema>;
export type Timeslice = v.InferOutput<typeof TimesliceSchema>;
export type PolicyVersion = v.InferOutput<typeof PolicyVersionSchema>;
export type Policy = v.InferOutput<typeof PolicySchema>;
export type PolicyRow = v.InferOutput<typeof PolicyRowSchema>;
export type PremiumCalculation = v.InferOutput<typeof PremiumCalculationSchema>;

// ---- request bodies (docs/contracts.md, "Policy writes") -----------------------------------------
// Loose, as the service reads them: unknown keys are dropped. The object data is checked per
// field against the tariff by the service, which names each problem at its path.

const BodyId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const PolicyObjectsBody = v.pipe(
  v.array(v.object({ insuredObjectId: BodyId, data: v.unknown() })),
  v.maxLength(50),
);
/** The premium of an application's data as it stands. */
export const PolicyCalculateBody = v.object({
  productVersionId: BodyId,
  policyObjects: PolicyObjectsBody,
});

const holderText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)));
/** Who holds a policy without a customer account (an application from a lead, say). */
const PolicyHolderBody = v.object({
  type: v.optional(v.picklist(['person', 'org'])),
  title: holderText(20),
  firstName: holderText(100),
  lastName: holderText(100),
  companyName: holderText(200),
  email: holderText(320),
  street: holderText(200),
  houseNumber: holderText(20),
  zipCode: holderText(20),
  city: holderText(100),
  birthDate: holderText(10),
  phone: holderText(40),
});
const PremiumOverrideBody = v.object({
  premiumItems: v.pipe(
    v.array(v.object({ premiumFormulaId: BodyId, total: v.pipe(v.number(), v.finite()) })),
    v.maxLength(100),
  ),
});
export const PolicyCreateBody = v.object({
  productVersionId: BodyId,
  accountCode: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^acc_[A-Za-z0-9]{1,64}$/)))),
  holder: v.optional(v.nullable(PolicyHolderBody)),
  policyObjects: PolicyObjectsBody,
  premiumOverride: v.optional(v.nullable(PremiumOverrideBody)),
  leadCode: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)))),
});

/** Every lifecycle write names the version it builds on; a stale one is a 409. */
const BasedOn = { basedOnVersionId: BodyId };
const reason = v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(500))));
export const PolicyBasedOnBody = v.object(BasedOn);
export const PolicyDraftPatchBody = v.object({
  ...BasedOn,
  effectiveFrom: v.optional(v.nullable(v.string())),
  policyObjects: v.pipe(
    v.array(v.object({ insuredObjectId: BodyId, data: v.record(v.string(), v.unknown()) })),
    v.maxLength(50),
  ),
});
export const PolicyTerminateBody = v.object({ ...BasedOn, terminationDate: v.string(), reason });
export const PolicyWithdrawBody = v.object({ ...BasedOn, reason });
/** POST /policies/{id}/termination-preview: the figures a termination on that date would store. */
export const PolicyTerminationPreviewBody = v.object({ terminationDate: v.string() });
export const PolicyRestoreBody = v.object({ ...BasedOn, versionId: BodyId });

export type PolicyCalculateInput = v.InferInput<typeof PolicyCalculateBody>;
export type PolicyCreateInput = v.InferInput<typeof PolicyCreateBody>;
export type PolicyDraftPatchInput = v.InferInput<typeof PolicyDraftPatchBody>;
export type PolicyTerminateInput = v.InferInput<typeof PolicyTerminateBody>;
export type PolicyWithdrawInput = v.InferInput<typeof PolicyWithdrawBody>;
export type PolicyTerminationPreviewInput = v.InferInput<typeof PolicyTerminationPreviewBody>;
export type PolicyRestoreInput = v.InferInput<typeof PolicyRestoreBody>;
