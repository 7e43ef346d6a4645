import { emailCheck } from '#common/email-address.ts';
import * as v from 'valibot';
import { NameLabelsOut } from '#common/name-labels.ts';
import { ACCOUNT_TYPES } from '#common/account-fields.ts';
import { BankAccount, CustomData, PaymentMethod } from '#common/leads.ts';
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
  /** Who saved this version, by name (null: the system, or a user without a name). */
  updatedByName: v.optional(v.nullable(v.string())),
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
  labels: NameLabelsOut,
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

// ---- request bodies -------------------------------------------------------------------------
// A lead and its holder are strict: a key the service does not know is refused, not dropped.

const BodyId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const Text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, 'too_long'));
/** A lead status slug; the list filter of the service takes the same form. */
export const LEAD_STATUS_SLUG = /^[a-z][a-z0-9_-]{0,39}$/;
const StatusSlug = v.pipe(v.string(), v.regex(LEAD_STATUS_SLUG, 'invalid_status'));
const AccountCode = v.pipe(v.string(), v.regex(/^acc_[A-Za-z0-9]{1,64}$/, 'unknown_account'));

const LeadHolderBody = v.strictObject({
  type: v.optional(v.picklist(['person', 'org'])),
  title: v.optional(Text(20)),
  firstName: v.optional(Text(100)),
  lastName: v.optional(Text(100)),
  companyName: v.optional(Text(200)),
  email: v.optional(v.pipe(Text(320), emailCheck('invalid_email'))),
  birthDate: v.optional(v.pipe(v.string(), v.isoDate('invalid_date'))),
});

const PremiumOverrideBody = v.pipe(
  v.array(v.object({ premiumFormulaId: BodyId, total: v.pipe(v.number(), v.finite()) })),
  v.maxLength(50),
);

/** The policy part of a lead: insured object ids and their data (checked by the service). */
export const LeadPolicyBody = v.object({
  productVersionId: BodyId,
  accountCode: v.optional(v.nullable(AccountCode)),
  holder: v.optional(v.nullable(LeadHolderBody)),
  policyObjects: v.pipe(
    v.array(v.object({ insuredObjectId: BodyId, data: v.record(v.string(), v.unknown()) })),
    v.maxLength(20),
  ),
  premiumOverride: v.optional(v.nullable(PremiumOverrideBody)),
});

const editable = {
  accountCode: v.optional(v.nullable(AccountCode)),
  policy: v.optional(LeadPolicyBody),
  bankAccount: v.optional(v.nullable(BankAccount)),
  paymentMethod: v.optional(v.nullable(PaymentMethod)),
  customData: v.optional(v.nullable(CustomData)),
  premiumOverride: v.optional(v.nullable(PremiumOverrideBody)),
};

export const LeadCreateBody = v.strictObject({ status: v.optional(StatusSlug), ...editable });
export const LeadUpdateBody = v.strictObject({
  version: BodyId,
  status: v.optional(StatusSlug),
  ...editable,
});

export type LeadPolicyInput = v.InferInput<typeof LeadPolicyBody>;
export type LeadCreateInput = v.InferInput<typeof LeadCreateBody>;
export type LeadUpdateInput = v.InferInput<typeof LeadUpdateBody>;
