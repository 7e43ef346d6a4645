import * as v from 'valibot';

/**
 * The one error shape of the sandbox and the BFF (docs/contracts.md, "Errors"):
 * `{ error, message, issues?: [{ path, code }] }`. `error` and `issues[].code` are machine codes the
 * client translates; `message` is English for logs and people reading the wire, never parsed.
 * `path` is a dotted string (`customFields.damageLocation`, `items.0.name`), the form of
 * valibot's `getDotPath`, so a form finds its field by comparing strings.
 */
const CODE = /^[a-z][a-z0-9_]*$/;
/** `error` is lower snake case too, bar the upstream contract's `UNAUTHORIZED` (SAML sign-in). */
const ERROR_CODE = /^(?:[a-z][a-z0-9_]*|UNAUTHORIZED)$/;

export const ErrorIssueSchema = v.strictObject({
  path: v.string(),
  code: v.pipe(v.string(), v.regex(CODE)),
  /**
   * Where in a text the problem starts (0-based character offset): a premium formula's check
   * (common/expression/check.ts) points at the place, the screen marks it.
   */
  position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /**
   * Where in a template the problem is, 1-based line and column (issue 19): a template's author
   * reads the place as their editor shows it.
   */
  line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  column: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** The name the problem is about (an unknown field, a function, an operator). */
  name: v.optional(v.string()),
  /** The premium formula (by its name) the problem is in, when the answer is about several. */
  formula: v.optional(v.string()),
});

/** Some answers carry more beside the shape (the current record of a 409, a file's problems). */
export const ErrorBodySchema = v.looseObject({
  error: v.pipe(v.string(), v.regex(ERROR_CODE)),
  message: v.string(),
  issues: v.optional(v.array(ErrorIssueSchema)),
});

export type ErrorIssue = v.InferOutput<typeof ErrorIssueSchema>;
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

/**
 * The machine code of one valibot issue: a schema's own message when it is a code
 * (`v.minLength(1, 'required')`), else valibot's issue type (`min_length`, `email`, `string`).
 */
export function issueCode(issue: v.BaseIssue<unknown>): string {
  return CODE.test(issue.message) ? issue.message : issue.type;
}

/** valibot's issues as the shape's `issues`; a problem of the whole body has the path ''. */
export function issuesOf(issues: readonly v.BaseIssue<unknown>[]): ErrorIssue[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', code: issueCode(issue) }));
}

/** The body of an error answer; `extra` never overwrites the shape's own fields. */
export function errorBody(
  error: string,
  message: string,
  issues?: readonly ErrorIssue[],
  extra: Record<string, unknown> = {},
): ErrorBody {
  return { ...extra, error, message, ...(issues?.length ? { issues: [...issues] } : {}) };
}

const IssuesOnly = v.object({ issues: v.array(ErrorIssueSchema) });

/** The issues of an error body, or none when it has no well-formed `issues`. */
export function errorIssues(body: unknown): ErrorIssue[] {
  const parsed = v.safeParse(IssuesOnly, body);
  return parsed.success ? parsed.output.issues : [];
}
