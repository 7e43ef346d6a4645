import * as v from 'valibot';
import { issuesOf } from '#common/contracts/error.ts';
import { HttpError } from './errors.ts';

export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body ?? {});
  if (!result.success) {
    // The message keeps naming the first problem in words; `issues` carries every one as codes.
    const issue = result.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    throw new HttpError(
      400,
      'validation_error',
      `${where ? `${where}: ` : ''}${issue?.message ?? 'invalid body'}`,
      undefined,
      issuesOf(result.issues),
    );
  }
  return result.output;
}
