import * as v from 'valibot';
import type { FunnelStep } from '#common/booking-funnel.ts';
import { NamedRangeName, RangeBandsSchema } from '#common/named-range.ts';
import { EditVersion, PositiveId, ProductFieldSchema } from './product.ts';
import { AuditEntries, Id, Int, Timestamp } from './shared.ts';

/**
 * The rest of the insurance service's product management (docs/contracts.md, "Insurance: product
 * extras"): factor tables, named ranges, the insured object types and their default fields,
 * insured object writes, booking funnels. The funnel's steps and the range bands are the editors'
 * own schemas (common/booking-funnel.ts, common/named-range.ts), which are not strict.
 */

export const FactorRowSchema = v.strictObject({ keys: v.array(v.string()), value: v.number() });

export const ProductFactorSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productVersionId: Id,
  name: v.string(),
  keyColumns: v.array(v.string()),
  rowCount: Int,
  filename: v.string(),
  ...AuditEntries,
});

/** GET /product-factors/for-version: each table by name, with its rows. */
export const FactorValuesSchema = v.strictObject({
  productVersionId: Id,
  values: v.record(
    v.string(),
    v.strictObject({ ...ProductFactorSchema.entries, rows: v.array(FactorRowSchema) }),
  ),
});

/** POST /product-factors/validate: the file read, not saved; the first rows as a preview. */
export const FactorSummarySchema = v.strictObject({
  productVersionId: Id,
  name: v.string(),
  filename: v.string(),
  keyColumns: v.array(v.string()),
  rowCount: Int,
  replacesId: v.nullable(Id),
  preview: v.array(FactorRowSchema),
});

export const NamedRangeSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productVersionId: Id,
  name: v.string(),
  bands: v.array(
    v.strictObject({ from: v.number(), to: v.nullable(v.number()), value: v.number() }),
  ),
  version: Int,
  ...AuditEntries,
});

/** The catalogue every tenant shares (reference data, no audit). */
export const InsuredObjectTypeSchema = v.strictObject({
  id: Id,
  code: v.string(),
  name: v.string(),
  label: v.string(),
});

/** A field an object of the type starts with: a product field without its object and audit. */
export const DefaultProductFieldSchema = v.strictObject({
  ...v.omit(ProductFieldSchema, [
    'insuredObjectId',
    'createdAt',
    'updatedAt',
    'createdBy',
    'updatedBy',
  ]).entries,
  insuredObjectTypeId: Id,
});

const FunnelStepRecordSchema = v.strictObject({
  title: v.string(),
  fields: v.array(v.strictObject({ insuredObject: v.string(), field: v.string() })),
});

/** A funnel's content as one version of it keeps it. */
const funnelContentEntries = {
  code: v.string(),
  name: v.string(),
  productSlug: v.string(),
  productVersionId: v.nullable(Id),
  steps: v.array(FunnelStepRecordSchema),
  version: Int,
};

/** `versions` lists every saved version, newest first. */
export const BookingFunnelSchema = v.strictObject({
  id: Id,
  ...funnelContentEntries,
  productId: Id,
  versions: v.array(v.strictObject({ version: Int, createdAt: Timestamp, createdBy: v.string() })),
  ...AuditEntries,
});

/** GET /booking-funnels/{code}/versions/{version}: the funnel as that version saved it. */
export const BookingFunnelSnapshotSchema = v.strictObject({
  ...funnelContentEntries,
  createdAt: Timestamp,
  createdBy: v.string(),
});

// ---- request bodies ---------------------------------------------------------------------------

/** POST /insured-objects; a type copies its default fields, and names the object if no name. */
export const InsuredObjectCreateBody = v.object({
  productVersionId: PositiveId,
  insuredObjectTypeId: v.optional(v.nullable(PositiveId), null),
  name: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^[a-z][a-z0-9-]{0,62}$/,
        'a name of lower-case letters, digits and - (like vehicle)',
      ),
    ),
  ),
  label: v.optional(
    v.pipe(v.string(), v.trim(), v.nonEmpty('label is required'), v.maxLength(200)),
  ),
});
/** PUT /insured-objects/{id}: a rename, on top of `version`. Object names appear in formulas. */
export const InsuredObjectUpdateBody = v.object({
  name: v.unwrap(InsuredObjectCreateBody.entries.name),
  label: v.unwrap(InsuredObjectCreateBody.entries.label),
  version: EditVersion,
});

/** POST /named-ranges. */
export const NamedRangeBody = v.object({
  productVersionId: PositiveId,
  name: NamedRangeName,
  bands: RangeBandsSchema,
});
/** PUT /named-ranges/{id}: the id in the path only (spec), on top of `version`. */
export const NamedRangeUpdateBody = v.object({
  name: NamedRangeName,
  bands: RangeBandsSchema,
  version: EditVersion,
});

/** POST /product-factors(/validate): the multipart form's fields beside the file, as text. */
export const FactorUploadFields = v.object({
  productVersionId: v.pipe(
    v.string('productVersionId is required'),
    v.regex(/^\d{1,9}$/, 'a product version id'),
    v.transform(Number),
    PositiveId,
  ),
  name: NamedRangeName,
});

// The funnel bodies are the editor's (common/booking-funnel.ts): one set of rules for both.
export { FunnelCreateBody, FunnelPatchBody, FunnelReplaceBody } from '#common/booking-funnel.ts';

export type FactorRow = v.InferOutput<typeof FactorRowSchema>;
export type ProductFactor = v.InferOutput<typeof ProductFactorSchema>;
export type FactorValues = v.InferOutput<typeof FactorValuesSchema>['values'];
export type FactorSummary = v.InferOutput<typeof FactorSummarySchema>;
export type NamedRange = v.InferOutput<typeof NamedRangeSchema>;
export type InsuredObjectType = v.InferOutput<typeof InsuredObjectTypeSchema>;
export type DefaultProductField = v.InferOutput<typeof DefaultProductFieldSchema>;
export type BookingFunnel = v.InferOutput<typeof BookingFunnelSchema>;
export type BookingFunnelSnapshot = v.InferOutput<typeof BookingFunnelSnapshotSchema>;
export type InsuredObjectCreateInput = v.InferInput<typeof InsuredObjectCreateBody>;
export type InsuredObjectUpdateInput = v.InferInput<typeof InsuredObjectUpdateBody>;
export type NamedRangeInput = v.InferInput<typeof NamedRangeBody>;
export type NamedRangeUpdateInput = v.InferInput<typeof NamedRangeUpdateBody>;
/** The funnel's editable content: what a create adds `productSlug` to, a replace `version`. */
export type BookingFunnelInput = {
  name: string;
  productVersionId: number | null;
  steps: FunnelStep[];
};
