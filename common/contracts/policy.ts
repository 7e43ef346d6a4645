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
