import * as v from 'valibot';
import { ACCOUNT_TYPES } from '#common/account-fields.ts';
import { AccountSchema } from './account.ts';
import { AuditEntries, Id, Int, IsoDate, JsonRecord, Timestamp } from './shared.ts';
import { PremiumSchema } from './policy.ts';

/** The insurance service's leads (docs/contracts.md, "Insurance: leads"). */

export const LeadPolicyObjectSchema = v.strictObject({
  insuredObjectId: Id,
  insuredObjectName: v.string(),
  insuredObjectLabel: v.string(),
  data: JsonRecord,
});

/** The applicant given by value, for a lead without a customer account. */
export const LeadHolderSchema = v.strictObject({
  type: v.optional(v.picklist(ACCOUNT_TYPES)),
  title: v.optional(v.string()),
  firstName: v.optional(v.string()),
  lastName: v.optional(v.string()),
  companyName: v.optional(v.string()),
  email: v.optional(v.string()),
  birthDate: v.optional(IsoDate),
});

export const PremiumOverrideItemSchema = v.strictObject({
  premiumFormulaId: Id,
  total: v.pipe(v.number(), v.finite()),
});

/** A create-policy body, as the lead keeps it. */
export const LeadPolicySchema = v.strictObject({
  productVersionId: Id,
  accountCode: v.nullable(v.string()),
  holder: v.nullable(LeadHolderSchema),
  policyObjects: v.array(LeadPolicyObjectSchema),
  premiumOverride: v.nullable(v.array(PremiumOverrideItemSchema)),
});

/** The lead's customer as a summary (spec section 3). */
export const LeadAccountSchema = v.strictObject({
  // The account's names and identity; not its address, contact, custom data or history.
  ...v.omit(AccountSchema, [
    'gender',
    'street',
    'houseNumber',
    'zipCode',
    'city',
    'phone',
    'brokerCode',
    'customFields',
    'policies',
    'version',
    'ern',
    'createdAt',
    'updatedAt',
    'createdBy',
    'updatedBy',
  ]).entries,
  createdAt: v.nullable(Timestamp),
  updatedAt: v.nullable(Timestamp),
});

/** The answer's payment method: the request's (common/leads.ts) as stored, nothing more. */
export const PaymentMethodRecordSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('sepa'),
    sepa: v.strictObject({ iban: v.string(), holderName: v.nullable(v.string()) }),
  }),
  v.strictObject({ type: v.literal('invoice') }),
]);

export const LeadVersionSummarySchema = v.strictObject({
  version: Int,
  status: v.string(),
  changedFields: v.array(v.string()),
  createdAt: Timestamp,
  createdBy: v.string(),
});

/** The lead as saved, without its account and history: also what a version keeps. */
const leadCoreEntries = {
  id: Id,
  code: v.string(),
  leadNumber: v.string(),
  status: v.string(),
  accountCode: v.nullable(v.string()),
  productId: Id,
  productVersionId: Id,
  productSlug: v.string(),
  productName: v.string(),
  policy: LeadPolicySchema,
  bankAccount: v.nullable(v.strictObject({ iban: v.string() })),
  paymentMethod: v.nullable(PaymentMethodRecordSchema),
  customData: v.nullable(
    v.record(v.string(), v.nullable(v.union([v.string(), v.number(), v.boolean()]))),
  ),
  premiumOverride: v.nullable(v.array(PremiumOverrideItemSchema)),
  premium: PremiumSchema,
  version: Int,
  ern: v.string(),
  ...AuditEntries,
};
export const LeadCoreSchema = v.strictObject(leadCoreEntries);

/** `versions` (newest first) by default on a single lead, on a list with `expand=versions`. */
export const LeadSchema = v.strictObject({
  ...leadCoreEntries,
  account: v.nullable(LeadAccountSchema),
  versions: v.optional(v.array(LeadVersionSummarySchema)),
});

/** A saved version: the lead as it was then. */
export const LeadVersionSchema = v.strictObject({
  ...LeadVersionSummarySchema.entries,
  leadCode: v.string(),
  lead: LeadCoreSchema,
});

/** A tenant's lead status; the claim statuses share the fields but not the audit. */
export const LeadStatusSchema = v.strictObject({
  id: Id,
  code: v.string(),
  slug: v.string(),
  name: v.string(),
  order: Int,
  ...AuditEntries,
});

export type LeadPolicyObject = v.InferOutput<typeof LeadPolicyObjectSchema>;
export type LeadHolder = v.InferOutput<typeof LeadHolderSchema>;
export type PremiumOverrideItem = v.InferOutput<typeof PremiumOverrideItemSchema>;
export type LeadPolicy = v.InferOutput<typeof LeadPolicySchema>;
export type LeadAccount = v.InferOutput<typeof LeadAccountSchema>;
export type LeadVersionSummary = v.InferOutput<typeof LeadVersionSummarySchema>;
export type Lead = v.InferOutput<typeof LeadSchema>;
export type LeadVersion = v.InferOutput<typeof LeadVersionSchema>;
export type LeadStatus = v.InferOutput<typeof LeadStatusSchema>;
