import * as v from 'valibot';

/**
 * What is wrong with an answer measured against its contract (common/contracts/): one line per
 * problem, `path: expected …, received …`, none when it conforms. The response schemas are strict
 * objects, so a field the service sends without its schema naming it is a problem too: a renamed
 * field shows as the missing new name and the unknown old one.
 */
export function contractProblems(schema: v.GenericSchema, value: unknown): string[] {
  const result = v.safeParse(schema, value);
  if (result.success) return [];
  return result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
}
