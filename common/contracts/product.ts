import * as v from 'valibot';
import {
  PREMIUM_UNITS,
  PRODUCT_CATEGORIES,
  PRODUCT_FIELD_KINDS,
  PRODUCT_FIELD_TYPES,
  PRODUCT_VERSION_STATUSES,
} from '#common/products.ts';
import { AuditEntries, Id, Int } from './shared.ts';

/**
 * The insurance service's products (docs/contracts.md, "Insurance: products (issue 4)"):
 * products, their versions, insured objects, product fields and premium formulas, and the bodies
 * the service checks. The extras (factors, named ranges, object types, funnels) are in
 * product-extras.ts.
 */

export const ProductVersionSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productId: Id,
  version: Int,
  description: v.string(),
  status: v.picklist(PRODUCT_VERSION_STATUSES),
  ern: v.string(),
  ...AuditEntries,
});

/** `versions` (oldest first) come with `expand=versions`, and with every write. */
export const ProductSchema = v.strictObject({
  id: Id,
  code: v.string(),
  name: v.string(),
  slug: v.string(),
  category: v.picklist(PRODUCT_CATEGORIES),
  defaultLanguage: v.string(),
  contractDurationDays: Int,
  insuredObjectTypes: v.array(v.string()),
  versions: v.optional(v.array(ProductVersionSchema)),
  ern: v.string(),
  ...AuditEntries,
});

/** A field's default: a number, a flag or a text, as its `type` says; null when it has none. */
const FieldDefault = v.nullable(v.union([v.number(), v.boolean(), v.string()]));

export const ProductFieldSchema = v.strictObject({
  id: Id,
  code: v.string(),
  insuredObjectId: Id,
  name: v.string(),
  label: v.string(),
  type: v.picklist(PRODUCT_FIELD_TYPES),
  kind: v.nullable(v.picklist(PRODUCT_FIELD_KINDS)),
  isRequired: v.boolean(),
  minimum: v.nullable(v.number()),
  maximum: v.nullable(v.number()),
  defaultValue: FieldDefault,
  order: Int,
  ...AuditEntries,
});

/** `productFields` come with `expand=productFields`; `version` is the edit version (a rename). */
export const InsuredObjectSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productVersionId: Id,
  name: v.string(),
  label: v.string(),
  version: Int,
  insuredObjectTypeId: v.nullable(Id),
  productFields: v.optional(v.array(ProductFieldSchema)),
  ...AuditEntries,
});

export const PremiumFormulaSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productVersionId: Id,
  group: v.string(),
  name: v.string(),
  expression: v.string(),
  type: v.literal('time'),
  unit: v.picklist(PREMIUM_UNITS),
  itemType: v.nullable(v.string()),
  variableName: v.nullable(v.string()),
  order: Int,
  ...AuditEntries,
});

/** GET /product-fields/types: the field types as a page, and the kinds beside them. */
export const ProductFieldTypesSchema = v.strictObject({
  items: v.array(v.strictObject({ id: Id, name: v.picklist(PRODUCT_FIELD_TYPES) })),
  kinds: v.array(v.picklist(PRODUCT_FIELD_KINDS)),
  nextPageToken: v.null(),
});

// ---- request bodies ---------------------------------------------------------------------------
// The messages below say in words what is expected: the code is valibot's type
// (`picklist`, `regex`), the message goes into the error's English text for logs.

const text = (max: number) => v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(max));
/** Field and variable names appear in formulas, so they must be names the parser reads as such. */
const identifier = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,62}$/,
    'a name of letters, digits and _ (not starting with a digit)',
  ),
);
/** A database id in a body: positive and within PostgreSQL's integer. */
export const PositiveId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
/** The version of a record an edit is based on (`version`). */
export const EditVersion = v.pipe(
  v.number('version: the version the change is based on'),
  v.integer(),
  v.minValue(1),
);

/** POST /products and PUT /products/{id} (the whole product; a missing slug keeps or derives it). */
export const ProductBody = v.object({
  name: text(200),
  slug: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'slug like car-basic')),
  ),
  category: v.picklist(PRODUCT_CATEGORIES, 'unknown category'),
  defaultLanguage: v.optional(v.picklist(['de', 'en', 'pl'], 'language de, en or pl'), 'de'),
  contractDurationDays: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36_500)),
    365,
  ),
  insuredObjectTypes: v.optional(v.pipe(v.array(text(100)), v.maxLength(20)), []),
});

/** POST /product-versions: a new draft of the product. */
export const VersionCreateBody = v.object({
  productId: PositiveId,
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500)), ''),
  /**
   * A version of the same product whose parts the new draft starts with (docs/decisions/005);
   * without it the draft starts with only the 'default' insured object.
   */
  copyFromVersionId: v.optional(PositiveId),
});
/** PUT /product-versions/{id}: the description (of a draft) or a status move. */
export const VersionUpdateBody = v.object({
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500))),
  status: v.optional(v.picklist(PRODUCT_VERSION_STATUSES, 'unknown status')),
});

const finite = v.pipe(v.number(), v.finite());
/** POST /product-fields. */
export const FieldBody = v.object({
  insuredObjectId: PositiveId,
  name: identifier,
  label: text(200),
  type: v.picklist(PRODUCT_FIELD_TYPES, 'type number, boolean, string or date'),
  kind: v.optional(v.nullable(v.picklist(PRODUCT_FIELD_KINDS, 'unknown field kind')), null),
  isRequired: v.optional(v.boolean(), false),
  minimum: v.optional(v.nullable(finite), null),
  maximum: v.optional(v.nullable(finite), null),
  defaultValue: v.optional(
    v.nullable(v.union([finite, v.boolean(), v.pipe(v.string(), v.maxLength(500))])),
    null,
  ),
});
/** PUT /product-fields/{id}: the field stays on its object, so `insuredObjectId` may be left out. */
export const FieldUpdateBody = v.object({
  ...FieldBody.entries,
  insuredObjectId: v.optional(PositiveId),
});

/** POST /premium-formulas. */
export const FormulaBody = v.object({
  productVersionId: PositiveId,
  group: text(100),
  name: text(200),
  expression: v.pipe(v.string(), v.trim(), v.nonEmpty('expression is required'), v.maxLength(2000)),
  unit: v.picklist(PREMIUM_UNITS, 'unit day, week, month, quarter, year or oneTimePayment'),
  type: v.optional(v.literal('time'), 'time'),
  itemType: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100))), null),
  variableName: v.optional(v.nullable(identifier), null),
});
/** PUT /premium-formulas/{id}: the formula stays in its version. */
export const FormulaUpdateBody = v.object({
  ...FormulaBody.entries,
  productVersionId: v.optional(PositiveId),
});

/** POST /product-fields/reorder and /premium-formulas/reorder: the two that swap places. */
export const FieldReorderBody = v.object({
  productFieldIdOne: PositiveId,
  productFieldIdTwo: PositiveId,
});
export const FormulaReorderBody = v.object({ id1: PositiveId, id2: PositiveId });

export type ProductVersion = v.InferOutput<typeof ProductVersionSchema>;
export type Product = v.InferOutput<typeof ProductSchema>;
export type ProductField = v.InferOutput<typeof ProductFieldSchema>;
export type InsuredObject = v.InferOutput<typeof InsuredObjectSchema>;
export type PremiumFormula = v.InferOutput<typeof PremiumFormulaSchema>;
export type ProductInput = v.InferInput<typeof ProductBody>;
export type VersionCreateInput = v.InferInput<typeof VersionCreateBody>;
export type VersionUpdateInput = v.InferInput<typeof VersionUpdateBody>;
export type ProductFieldInput = v.InferInput<typeof FieldBody>;
export type PremiumFormulaInput = v.InferInput<typeof FormulaBody>;
