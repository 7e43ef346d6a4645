/**
 * Product vocabulary shared by the sandbox (validation) and the client (selects, labels): the
 * spec's section 3 lists, the premium units of the upstream contract and the version lifecycle.
 */

export const PRODUCT_CATEGORIES = [
  'car',
  'tpl',
  'custom',
  'motorbike',
  'moped',
  'bike',
  'accident',
  'travel',
  'device',
  'homeContents',
  'legalProtection',
  'health',
  'default',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export const PRODUCT_FIELD_TYPES = ['number', 'boolean', 'string', 'date'] as const;
export type ProductFieldType = (typeof PRODUCT_FIELD_TYPES)[number];

export const PRODUCT_FIELD_KINDS = [
  'dateTime',
  'email',
  'licensePlateRegion',
  'licensePlateLetters',
  'licensePlateNumbers',
  'vehicleType',
  'vehicleUsage',
  'licensePlateType',
  'sfClass',
  'durationUnit',
  'renewalFrequency',
  // Not in the spec's list (section 3), which has no kind for the billing frequency's values
  // (issue 18): the options of billingFrequencyUnit (common/policy-object-data.ts).
  'billingFrequency',
  'partner',
] as const;
export type ProductFieldKind = (typeof PRODUCT_FIELD_KINDS)[number];

export const PREMIUM_UNITS = ['day', 'week', 'month', 'quarter', 'year', 'oneTimePayment'] as const;
export type PremiumUnit = (typeof PREMIUM_UNITS)[number];

export const PRODUCT_VERSION_STATUSES = ['draft', 'active', 'passive', 'archived'] as const;
export type ProductVersionStatus = (typeof PRODUCT_VERSION_STATUSES)[number];

/**
 * Where a version may go from each status (decision, the spec is silent): a draft is published
 * (active) or dropped (archived); an active version is retired to passive (activating another one
 * does that too); a passive one may come back; archived is final.
 */
export const VERSION_TRANSITIONS: Record<ProductVersionStatus, readonly ProductVersionStatus[]> = {
  draft: ['active', 'archived'],
  active: ['passive', 'archived'],
  passive: ['active', 'archived'],
  archived: [],
};
