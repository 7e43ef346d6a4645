import type { PolicyAction } from '#common/policy-lifecycle.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { apiErrorKey, type ApiErrorKey } from '#client/api/error-text.ts';
import { errorIssues } from '#common/contracts/error.ts';
import type { Policy } from '#client/api/policies-client.ts';
import { formulaIssueOf } from '#client/entities/product/formula-issue.ts';

/** One `{path, code}` issue of a 400 `validation_error` (codes of common/policy-object-data). */
export interface Issue {
  path: string;
  code: string;
}

/**
 * What a refused lifecycle write means to the user, as a locale key of the `policies` namespace
 * (`refusals.*`). Known codes are translated; any other refusal is said by its error code
 * (`errors:api.*`), never by the service's English message.
 */
export type Refusal =
  | { kind: 'conflict'; current: Policy }
  | { kind: 'issues'; issues: Issue[] }
  | { kind: 'message'; key: RefusalKey }
  | { kind: 'api'; key: ApiErrorKey }
  /** A premium formula that cannot be computed over the policy's values: it names itself. */
  | { kind: 'formula'; error: ApiError }
  | { kind: 'failed' };

export type RefusalKey =
  | 'refusals.illegal_status'
  | 'refusals.restore_current'
  | 'refusals.restore_draft'
  | 'refusals.draft_exists'
  | 'refusals.no_draft'
  | 'refusals.forbidden'
  | 'refusals.not_found';

/** Sorts a failed write: a conflict (with the current policy), the service's refusal, or a fault. */
export function refusalOf(error: unknown, action: PolicyAction): Refusal {
  if (!(error instanceof ApiError)) return { kind: 'failed' };
  const { status, code, body } = error;
  if (status === 409 && code === 'version_conflict') {
    const current = (body as { policy?: Policy } | null)?.policy;
    if (current) return { kind: 'conflict', current };
  }
  if (formulaIssueOf(error)) return { kind: 'formula', error };
  if (status === 400 && code === 'validation_error') {
    const issues = errorIssues(body);
    if (issues.length) return { kind: 'issues', issues };
  }
  if (status === 409 && code === 'illegal_transition') {
    // A restore names the version's own state (an issue at versionId); the other actions the
    // policy's status.
    const reason = errorIssues(body).find((issue) => issue.path === 'versionId')?.code;
    if (action === 'restoreVersion' && reason === 'is_current') {
      return { kind: 'message', key: 'refusals.restore_current' };
    }
    if (action === 'restoreVersion' && reason === 'is_draft') {
      return { kind: 'message', key: 'refusals.restore_draft' };
    }
    return { kind: 'message', key: 'refusals.illegal_status' };
  }
  if (status === 409 && code === 'draft_exists') {
    return { kind: 'message', key: 'refusals.draft_exists' };
  }
  if (status === 409 && code === 'no_draft') return { kind: 'message', key: 'refusals.no_draft' };
  if (status === 403) return { kind: 'message', key: 'refusals.forbidden' };
  if (status === 404) return { kind: 'message', key: 'refusals.not_found' };
  if (status >= 400 && status < 500) return { kind: 'api', key: apiErrorKey(error) };
  return { kind: 'failed' };
}

/** A failed form submit as the lifecycle machine keeps it (status, code and the raw issues). */
export interface FormError {
  status: number;
  code: string;
  message: string;
  issues: readonly Issue[];
}

/**
 * Where a form dialog shows a refused submit: its issues at the fields (or listed under them), or
 * one notice. A premium formula that cannot be computed over the values (`calculation_failed`
 * with an issue that names the formula, path `premium`) is the notice naming the formula and why
 * (an unknown name, a division by zero): among the field issues, it read "the value is invalid"
 * (issue 15). A refusal without issues is a notice too. The issues are passed on as they came
 * (a range issue keeps its bound).
 */
export function formRefusalOf(
  error: FormError | null,
  action: PolicyAction,
): { issues: readonly Issue[]; refusal: Refusal | null } {
  if (!error) return { issues: [], refusal: null };
  const apiError = new ApiError(error.status, error.code, error.message, { issues: error.issues });
  const refusal = refusalOf(apiError, action);
  if (refusal.kind === 'formula') return { issues: [], refusal };
  return error.issues.length ? { issues: error.issues, refusal: null } : { issues: [], refusal };
}

/** What changed between the policy the user acted on and the one the service holds now. */
export type PolicyChange =
  | { field: 'status'; before: Policy['status']; after: Policy['status'] }
  | { field: 'current_version'; before: number | null; after: number | null }
  | { field: 'draft'; before: number | null; after: number | null }
  | { field: 'termination_date'; before: string | null; after: string | null };

const versionNumber = (policy: Policy, id: number | null) =>
  id === null ? null : (policy.versions?.find((v) => v.id === id)?.versionNumber ?? null);

/**
 * The differences a conflict shows: status, current version, draft (by version number; a
 * patched draft keeps its number but gets a new id, so then both name the same number) and
 * termination date.
 */
export function policyChanges(before: Policy, after: Policy): PolicyChange[] {
  const changes: PolicyChange[] = [];
  if (before.status !== after.status) {
    changes.push({ field: 'status', before: before.status, after: after.status });
  }
  if (before.currentVersionId !== after.currentVersionId) {
    changes.push({
      field: 'current_version',
      before: versionNumber(before, before.currentVersionId),
      after: versionNumber(after, after.currentVersionId),
    });
  }
  if (before.draftVersionId !== after.draftVersionId) {
    changes.push({
      field: 'draft',
      before: versionNumber(before, before.draftVersionId),
      after: versionNumber(after, after.draftVersionId),
    });
  }
  if (before.terminationDate !== after.terminationDate) {
    changes.push({
      field: 'termination_date',
      before: before.terminationDate,
      after: after.terminationDate,
    });
  }
  return changes;
}
