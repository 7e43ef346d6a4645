import type { TFunction } from 'i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import type { DocxProblem } from '#machines/docx-upload.machine.ts';
import { DOCX_PROBLEM_CODES, type DocxEntityType } from '#common/contracts/docx-template.ts';

type T = TFunction<'templates'>;

const KNOWN_PROBLEMS = new Set<string>([...DOCX_PROBLEM_CODES, 'raw_tag_refused']);

/** The record kind as the screen names it. */
export const entityLabel = (t: T, entity: DocxEntityType | string) =>
  entity === 'policy' || entity === 'claim' || entity === 'invoice'
    ? t(`docx.entities.${entity}`)
    : entity;

/**
 * One problem of a refused file: what is wrong (by its code, docxtemplater's ids translated), the
 * tag, and where in Word (paragraph and character), so the author finds it.
 */
export function problemText(t: T, problem: DocxProblem): string {
  const what = KNOWN_PROBLEMS.has(problem.code)
    ? t(`docx.problems.${problem.code as (typeof DOCX_PROBLEM_CODES)[number]}`, {
        tag: problem.name ?? '',
      })
    : t('docx.problems.other', { code: problem.code });
  const tag = problem.name ? t('docx.problem_tag', { tag: `{${problem.name}}` }) : '';
  const where =
    problem.line !== undefined
      ? t('docx.problem_place', { paragraph: problem.line, character: problem.column ?? 1 })
      : '';
  return [where, what, tag].filter(Boolean).join(' ');
}

/** Why a call failed, as the user reads it. */
export function failureText(t: T, error: unknown): string {
  const code = error instanceof ApiError ? error.code : (error as { code?: string })?.code;
  if (error instanceof ApiError && error.status === 403) return t('errors.forbidden');
  switch (code) {
    case 'EntityTooLarge':
    case 'payload_too_large':
      return t('docx.failures.too_large');
    case 'InvalidContent':
    case 'EntityTooSmall':
      return t('docx.failures.not_docx');
    case 'pdf_unavailable':
      return t('errors.pdf_unavailable');
    case 'pdf_timeout':
      return t('errors.pdf_timeout');
    case 'not_found':
      return t('docx.failures.not_found');
    default:
      return t('errors.failed');
  }
}
