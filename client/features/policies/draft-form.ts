import { TERM_FIELDS } from '#common/policy-lifecycle.ts';
import type { PolicyObjectInput } from '#common/policy-object-data.ts';
import type { PolicyObject, PolicyObjectPatch } from '#client/api/policies-client.ts';
import type { InsuredObject, ProductField } from '#client/api/products-client.ts';
import {
  applicationObjects,
  fieldPath,
  type ApplicationObject,
} from '#client/entities/application/application-values.ts';

/**
 * The draft editor on top of the generated application form (client/entities/application/): the same
 * controls, values and shared check as a policy sale. What is the draft's own lives here: the
 * contract term is shown, not changed, and the patch carries only what changed.
 */

/** The contract term of the 'default' object: a draft shows it and never changes it. */
export const isTermField = (
  object: Pick<InsuredObject, 'name'>,
  field: Pick<ProductField, 'name'>,
) => object.name === 'default' && (TERM_FIELDS as readonly string[]).includes(field.name);

/** The policy object of a timeslice that holds an insured object's data (by id, else by name). */
const storedOf = (policyObjects: readonly PolicyObject[], object: ApplicationObject) =>
  policyObjects.find((p) => p.insuredObjectId === object.id) ??
  policyObjects.find((p) => p.insuredObjectName === object.name);

/** The tariff's insured objects the timeslice holds, in the form's order ('default' first). */
export function draftObjects(
  policyObjects: readonly PolicyObject[],
  tariff: readonly InsuredObject[],
  locale: string,
): ApplicationObject[] {
  return applicationObjects(tariff, locale).filter((o) => storedOf(policyObjects, o) !== undefined);
}

/** The paths the user must fix before the draft is sent: not those of the term, not theirs. */
export const editablePaths = (objects: readonly ApplicationObject[], paths: readonly string[]) =>
  paths.filter(
    (path) =>
      !objects.some((o) =>
        o.productFields.some((f) => isTermField(o, f) && fieldPath(o.name, f.name) === path),
      ),
  );

/** Unchanged: the same value, or an unticked box over a value never given (not a change to no). */
function unchanged(field: ProductField, value: unknown, stored: unknown): boolean {
  if ((value ?? null) === (stored ?? null)) return true;
  return field.type === 'boolean' && value === false && (stored ?? null) === null;
}

/**
 * The patch of the draft: per object only the editable fields whose value differs from the
 * timeslice's, from the form's policy objects (`form.policyObjects`, in the objects' order).
 */
export function draftPatch(
  objects: readonly ApplicationObject[],
  policyObjects: readonly PolicyObject[],
  sent: readonly PolicyObjectInput[],
): PolicyObjectPatch[] {
  return objects.flatMap((object, index) => {
    const stored = storedOf(policyObjects, object);
    const data = (sent[index]?.data ?? {}) as Record<string, unknown>;
    if (!stored || stored.insuredObjectId === null) return [];
    const changed = object.productFields
      .filter((f) => !isTermField(object, f) && !unchanged(f, data[f.name], stored.data[f.name]))
      .map((f) => [f.name, data[f.name] ?? null] as const);
    return changed.length
      ? [{ insuredObjectId: stored.insuredObjectId, data: Object.fromEntries(changed) }]
      : [];
  });
}
