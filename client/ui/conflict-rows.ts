/** A field the other save changed: what this user had loaded, typed, and what is saved now. */
export interface ConflictRow<F extends string> {
  field: F;
  loaded: string;
  mine: string;
  saved: string;
}

/**
 * What changed on the server since a form was loaded: the fields whose saved value differs from
 * the loaded one. Fields only this user changed are not listed; they are not in conflict.
 */
export function conflictRowsOf<F extends string>(
  fields: readonly F[],
  loaded: Readonly<Record<F, string>>,
  mine: Readonly<Record<F, string>>,
  saved: Readonly<Record<F, string>>,
): ConflictRow<F>[] {
  return fields
    .filter((field) => loaded[field] !== saved[field])
    .map((field) => ({ field, loaded: loaded[field], mine: mine[field], saved: saved[field] }));
}
