import * as v from 'valibot';

/**
 * The content of a booking funnel (docs/contracts.md, "Booking funnels"): the steps a customer
 * goes through to apply for a product, each step an ordered list of the product's fields by
 * insured object and field name (`vehicle` / `vehicleValue`). Names rather than ids, so that a
 * funnel survives a new product version with the same fields. Shared by the sandbox (request
 * bodies) and the funnel editor.
 */

export const BOOKING_FUNNEL_LIMITS = { maxSteps: 20, maxFieldsPerStep: 50 } as const;

const objectName = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9-]{0,62}$/, 'an insured object name like vehicle or mobile-device'),
);
const fieldName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a field name of letters, digits and _'),
);

export const FunnelFieldRef = v.object({ insuredObject: objectName, field: fieldName });
export type FunnelFieldRef = v.InferOutput<typeof FunnelFieldRef>;

export const FunnelStep = v.object({
  title: v.pipe(v.string(), v.trim(), v.nonEmpty('a step needs a title'), v.maxLength(200)),
  fields: v.pipe(
    v.array(FunnelFieldRef),
    v.minLength(1, 'a step needs at least one field'),
    v.maxLength(BOOKING_FUNNEL_LIMITS.maxFieldsPerStep),
  ),
});
export type FunnelStep = v.InferOutput<typeof FunnelStep>;

export const FunnelSteps = v.pipe(
  v.array(FunnelStep),
  v.minLength(1, 'a funnel needs at least one step'),
  v.maxLength(BOOKING_FUNNEL_LIMITS.maxSteps),
  v.check((steps) => {
    const refs = steps.flatMap((s) => s.fields.map((f) => `${f.insuredObject}.${f.field}`));
    return new Set(refs).size === refs.length;
  }, 'a field appears in more than one place'),
);

export const FunnelName = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('name is required'),
  v.maxLength(200),
);

const positiveId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const editVersion = v.pipe(
  v.number('version: the version the change is based on'),
  v.integer(),
  v.minValue(1),
);

/** POST: a new funnel. `productVersionId` null sells the product's active version. */
export const FunnelCreateBody = v.object({
  name: FunnelName,
  productSlug: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a product slug')),
  productVersionId: v.optional(v.nullable(positiveId), null),
  steps: FunnelSteps,
});

/** PUT: everything but the product, plus the version the change is based on. */
export const FunnelReplaceBody = v.object({
  name: FunnelName,
  productVersionId: v.optional(v.nullable(positiveId), null),
  steps: FunnelSteps,
  version: editVersion,
});

/** PATCH: any of the parts, plus the version the change is based on. */
export const FunnelPatchBody = v.object({
  name: v.optional(FunnelName),
  productVersionId: v.optional(v.nullable(positiveId)),
  steps: v.optional(FunnelSteps),
  version: editVersion,
});
