import type { TFunction } from 'i18next';
import { errorIssues, type ErrorIssue } from '#common/contracts/error.ts';
import { ApiError } from '#client/api/fetch-json.ts';

/**
 * A premium formula's problem in the user's language (issue 15): the service names it as data,
 * `issues[{code, position, name, formula}]` (common/expression/check.ts), whether a formula was
 * refused at save, a version at activation, or one policy's data at calculation. The text says
 * what is wrong, at which character, and shows the place in the formula when it is known.
 */

const CODES = new Set([
  'too_long',
  'too_complex',
  'unexpected_character',
  'unterminated_string',
  'unexpected_token',
  'unexpected_end',
  'bad_number',
  'unknown_name',
  'unknown_variable',
  'unknown_function',
  'wrong_arguments',
  'type_error',
  'division_by_zero',
  'not_finite',
  'not_a_number',
  'lookup_name_not_text',
  'unknown_factor',
  'unknown_range',
  'factor_key_count',
  'lookup_failed',
  'too_many_steps',
]);

/** The refusals about a formula, by the answer's `error`. */
const FORMULA_ERRORS = new Set([
  'invalid_expression',
  'trial_calculation_failed',
  'calculation_failed',
  'premium_not_computable',
]);

/** The first formula problem a refusal names, or null for any other failure. */
export function formulaIssueOf(error: unknown): ErrorIssue | null {
  if (!(error instanceof ApiError) || !FORMULA_ERRORS.has(error.code)) return null;
  return errorIssues(error.body).find((issue) => issue.position !== undefined) ?? null;
}

/** A few characters of the formula from the problem on, so the reader finds the place. */
export function excerptAt(expression: string, position: number): string {
  const piece = expression.slice(position, position + 16).trimEnd();
  return position + 16 < expression.length ? `${piece}…` : piece;
}

/** The problem as a sentence: what, where (character numbers count from 1), in which formula. */
export function formulaIssueText(
  t: TFunction<'errors'>,
  issue: ErrorIssue,
  expression?: string,
): string {
  const code = CODES.has(issue.code) ? issue.code : 'other';
  const message = t(`formula.codes.${code}` as 'formula.codes.other', { name: issue.name ?? '' });
  const position = (issue.position ?? 0) + 1;
  const placed =
    expression !== undefined && expression.length > 0
      ? t('formula.at_excerpt', {
          message,
          position,
          excerpt: excerptAt(expression, issue.position ?? 0),
        })
      : t('formula.at', { message, position });
  return issue.formula
    ? t('formula.in_formula', { formula: issue.formula, message: placed })
    : placed;
}

/**
 * A refusal about a formula in words, with its frame (not saved, not activated, not computable),
 * or null when the refusal is about something else.
 */
export function formulaRefusalText(t: TFunction<'errors'>, error: unknown): string | null {
  const issue = formulaIssueOf(error);
  if (!issue || !(error instanceof ApiError)) return null;
  const message = formulaIssueText(t, issue);
  switch (error.code) {
    case 'invalid_expression':
      return t('formula.not_saved', { message });
    case 'trial_calculation_failed':
      return t('formula.not_activated', { message });
    default:
      return t('formula.not_computable', { message });
  }
}
