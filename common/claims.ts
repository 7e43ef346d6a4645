import * as v from 'valibot';

/**
 * The rules of a claim and of its settlements (docs/contracts.md, "Claims (sandbox)"), shared by
 * the claim service of the sandbox, which enforces them, and the claim forms, which check the same
 * rules before sending. Messages are codes (`too_long`, `date_in_future`): the sandbox answers
 * `{field}: {code}`, the forms show `claims:form.errors.{code}`.
 */

/** The entity type of claims in the status transition rules and the custom schemas. */
export const CLAIM_ENTITY_TYPE = 'claim';

export const CLAIM_TYPES = ['damage', 'theft', 'liability', 'health', 'other'] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

/** A claim in this status refuses every edit but a status move its rules allow. */
export const CLOSED_CLAIM_STATUS = 'closed';
/** Settlements are written only while the claim is in none of these statuses. */
export const UNSETTLEABLE_CLAIM_STATUSES: readonly string[] = ['closed', 'rejected'];

export const canEditClaim = (status: string): boolean => status !== CLOSED_CLAIM_STATUS;
export const canSettleClaim = (status: string): boolean =>
  !UNSETTLEABLE_CLAIM_STATUSES.includes(status);

/** Amounts are cents: integers from 0 to 10^10 (100 million in the currency). */
export const MAX_AMOUNT_CENTS = 10_000_000_000;

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;
/** A status slug, as the tenant's claim statuses name them. */
export const CLAIM_STATUS_SLUG = /^[a-z][a-z0-9_-]{0,39}$/;

/** True for a real calendar day written as YYYY-MM-DD (not 2025-02-30). */
export function isIsoDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * Today's date in a time zone as YYYY-MM-DD: "not in the future" means the workspace's today, not
 * the server's (a claim entered at 00:30 in Berlin is dated before UTC has that day).
 */
export function isoToday(timeZone: string, now: Date = new Date()): string {
  try {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

const IsoDay = v.pipe(
  v.string('invalid_date'),
  v.nonEmpty('required'),
  v.check(isIsoDay, 'invalid_date'),
);

export const ClaimTitle = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(TITLE_MAX, 'too_long'),
);
export const ClaimDescription = v.pipe(
  v.string('invalid_text'),
  v.trim(),
  v.maxLength(DESCRIPTION_MAX, 'too_long'),
);
export const ClaimTypeSchema = v.picklist(CLAIM_TYPES, 'invalid_claim_type');
/** Values of the tenant's custom fields; checked against its claim custom schema by the service. */
export const ClaimCustomFields = v.record(v.string(), v.unknown(), 'invalid_custom_fields');

/** The fields of a claim a user edits; shared by create (with the policy) and the full update. */
export const ClaimFields = v.object({
  title: ClaimTitle,
  description: v.optional(ClaimDescription, ''),
  damageDate: IsoDay,
  /** Absent: the day the claim is entered. */
  notificationDate: v.optional(IsoDay),
  claimType: ClaimTypeSchema,
  customFields: v.optional(ClaimCustomFields, {}),
});
export type ClaimFieldsInput = v.InferInput<typeof ClaimFields>;
export type ClaimFieldsValue = v.InferOutput<typeof ClaimFields>;

/** Partial edits (PATCH): each field optional, the same rules. */
export const ClaimChanges = v.object({
  title: v.optional(ClaimTitle),
  description: v.optional(ClaimDescription),
  damageDate: v.optional(IsoDay),
  notificationDate: v.optional(IsoDay),
  claimType: v.optional(ClaimTypeSchema),
  customFields: v.optional(ClaimCustomFields),
});

export interface ClaimFieldIssue {
  field: 'damageDate' | 'notificationDate';
  code: 'date_in_future' | 'before_policy_start' | 'before_damage_date';
}

/**
 * The rules between a claim's dates and the world: the damage not in the future nor before the
 * policy started, the notice not in the future nor before the damage. All dates YYYY-MM-DD, which
 * compare as text.
 */
export function claimDateIssues(
  dates: { damageDate: string; notificationDate: string },
  context: { today: string; policyStart: string | null },
): ClaimFieldIssue[] {
  const issues: ClaimFieldIssue[] = [];
  if (dates.damageDate > context.today) {
    issues.push({ field: 'damageDate', code: 'date_in_future' });
  } else if (context.policyStart && dates.damageDate < context.policyStart) {
    issues.push({ field: 'damageDate', code: 'before_policy_start' });
  }
  if (dates.notificationDate > context.today) {
    issues.push({ field: 'notificationDate', code: 'date_in_future' });
  } else if (dates.notificationDate < dates.damageDate) {
    issues.push({ field: 'notificationDate', code: 'before_damage_date' });
  }
  return issues;
}

export const AmountCents = v.pipe(
  v.number('invalid_amount'),
  v.integer('invalid_amount'),
  v.minValue(0, 'invalid_amount'),
  v.maxValue(MAX_AMOUNT_CENTS, 'invalid_amount'),
);

/** What a settlement form edits; the insured object must be one of the claim's policy objects. */
export const SettlementFields = v.object({
  insuredObject: v.pipe(
    v.string('required'),
    v.trim(),
    v.nonEmpty('required'),
    v.maxLength(100, 'too_long'),
  ),
  reserve: AmountCents,
  payment: AmountCents,
  recourse: AmountCents,
});
export type SettlementFieldsInput = v.InferInput<typeof SettlementFields>;

// ---- cover, payment control, cancellation (issue 15) ----------------------------------------

/**
 * Which losses a product category covers: a claim whose type is not listed for its policy's
 * category is refused with `loss_not_covered` (no hail damage on an accident policy). Data, not
 * code, so that a category's cover is read in one place; docs/contracts.md repeats the table.
 * Categories not listed (`custom`, `default`) cover every type: their products are the tenant's own.
 */
export const COVER_BY_CATEGORY: Readonly<Record<string, readonly ClaimType[]>> = {
  car: ['damage', 'theft', 'liability', 'other'],
  tpl: ['liability'],
  motorbike: ['damage', 'theft', 'liability', 'other'],
  moped: ['damage', 'theft', 'liability', 'other'],
  bike: ['damage', 'theft', 'other'],
  accident: ['health', 'other'],
  travel: ['health', 'theft', 'other'],
  device: ['damage', 'theft'],
  homeContents: ['damage', 'theft', 'other'],
  legalProtection: ['liability', 'other'],
  health: ['health'],
};

/** The claim types a product of this category covers. */
export const coveredClaimTypes = (category: string): readonly ClaimType[] =>
  COVER_BY_CATEGORY[category] ?? CLAIM_TYPES;

/** Holders may register a claim although the cover check refused it; the override is audited. */
export const COVER_OVERRIDE_PERMISSION = 'claim-management.cover-overrides.create';
/** Holders approve or reject a payment above another user's authority limit (four-eyes). */
export const PAYMENT_APPROVAL_PERMISSION = 'claim-management.payment-approvals.update';
/** Holders reverse a booked payment (a counter-entry with a reason, never an edit of it). */
export const PAYMENT_REVERSAL_PERMISSION = 'claim-management.payment-reversals.create';

/** A payment is booked only once the claim is approved (and after, while it is settled). */
export const PAYABLE_CLAIM_STATUSES: readonly string[] = ['approved', 'settled'];
export const canPayClaim = (status: string): boolean => PAYABLE_CLAIM_STATUSES.includes(status);

export const REASON_MAX = 500;
/** Why a claim is cancelled or why a cover refusal is overridden: said in words, for the audit. */
export const ClaimReason = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(REASON_MAX, 'too_long'),
);

/** The problems of a settlement's amounts against the claim's payment rules (before sending). */
export function paymentIssues(
  amounts: { reserve: number; payment: number },
  claimStatus: string,
  paidBefore: number,
): { field: 'payment'; code: 'payment_needs_approved_claim' | 'payment_above_reserve' }[] {
  if (amounts.payment > paidBefore && !canPayClaim(claimStatus)) {
    return [{ field: 'payment', code: 'payment_needs_approved_claim' }];
  }
  if (amounts.payment > amounts.reserve) {
    return [{ field: 'payment', code: 'payment_above_reserve' }];
  }
  return [];
}
