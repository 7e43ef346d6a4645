import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/fetch-json.ts';
import type { Policy } from '#client/api/policies-client.ts';
import { formRefusalOf, policyChanges, refusalOf } from './policy-outcome.ts';

const policy = (extra: Partial<Policy> = {}) =>
  ({
    status: 'ACTIVE',
    currentVersionId: 10,
    draftVersionId: null,
    terminationDate: null,
    versions: [
      { id: 12, versionNumber: 3 },
      { id: 11, versionNumber: 2 },
      { id: 10, versionNumber: 1 },
    ],
    ...extra,
  }) as unknown as Policy;

const apiError = (status: number, code: string, message = '', body: unknown = {}) =>
  new ApiError(status, code, message, body);

describe('refused policy actions', () => {
  it('a stale version is a conflict carrying the current policy', () => {
    const current = policy({ currentVersionId: 11 });
    expect(
      refusalOf(apiError(409, 'version_conflict', 'changed', { policy: current }), 'terminate'),
    ).toEqual({ kind: 'conflict', current });
  });

  it('a formula that cannot be computed is a formula refusal, by its code and issue', () => {
    const issue = { path: 'premium', code: 'division_by_zero', position: 4, formula: 'Base' };
    const error = apiError(422, 'calculation_failed', 'the premium formula…', { issues: [issue] });
    expect(refusalOf(error, 'applyDraft')).toEqual({ kind: 'formula', error });
    // Without the formula's issue it is the general calculation failure.
    expect(refusalOf(apiError(422, 'calculation_failed'), 'applyDraft')).toEqual({
      kind: 'api',
      key: 'errors:api.calculation_failed',
    });
  });

  it('translates the known refusals', () => {
    expect(
      refusalOf(apiError(409, 'illegal_transition', 'a TERMINATED policy…'), 'withdraw'),
    ).toEqual({ kind: 'message', key: 'refusals.illegal_status' });
    // A restore's reason is the code of its issue at versionId, never the English message.
    const restore = (code: string, message: string) =>
      refusalOf(
        apiError(409, 'illegal_transition', message, { issues: [{ path: 'versionId', code }] }),
        'restoreVersion',
      );
    expect(restore('is_current', 'anything')).toEqual({
      kind: 'message',
      key: 'refusals.restore_current',
    });
    expect(restore('is_draft', 'version 3 is the current version already')).toEqual({
      kind: 'message',
      key: 'refusals.restore_draft',
    });
    expect(
      refusalOf(
        apiError(409, 'illegal_transition', 'version 3 is the current version already'),
        'restoreVersion',
      ),
    ).toEqual({ kind: 'message', key: 'refusals.illegal_status' });
    expect(refusalOf(apiError(409, 'draft_exists'), 'createDraft')).toMatchObject({
      key: 'refusals.draft_exists',
    });
    expect(refusalOf(apiError(403, 'forbidden'), 'terminate')).toMatchObject({
      key: 'refusals.forbidden',
    });
  });

  it('keeps issues for the fields and says any other refusal by its code', () => {
    const issues = [{ path: 'terminationDate', code: 'after_end' }];
    expect(
      refusalOf(
        apiError(400, 'validation_error', 'terminationDate: after_end', { issues }),
        'terminate',
      ),
    ).toEqual({ kind: 'issues', issues });
    expect(
      refusalOf(apiError(422, 'calculation_failed', 'division_by_zero at 3'), 'patchDraft'),
    ).toEqual({ kind: 'api', key: 'errors:api.calculation_failed' });
    expect(refusalOf(apiError(410, 'gone_somewhere', 'gone'), 'patchDraft')).toEqual({
      kind: 'api',
      key: 'errors:api.failed',
    });
  });

  it('no answer or a fault of the service is a failure to retry', () => {
    expect(refusalOf(apiError(502, 'upstream_unavailable', 'down'), 'terminate')).toEqual({
      kind: 'failed',
    });
    expect(refusalOf(new TypeError('Failed to fetch'), 'terminate')).toEqual({ kind: 'failed' });
  });
});

describe('what a conflict shows', () => {
  it('lists status, current version, draft and termination date by version number', () => {
    const after = policy({
      status: 'TERMINATED',
      currentVersionId: 11,
      draftVersionId: 12,
      terminationDate: '2026-12-01T00:00:00.000Z',
    });
    expect(policyChanges(policy(), after)).toEqual([
      { field: 'status', before: 'ACTIVE', after: 'TERMINATED' },
      { field: 'current_version', before: 1, after: 2 },
      { field: 'draft', before: null, after: 3 },
      { field: 'termination_date', before: null, after: '2026-12-01T00:00:00.000Z' },
    ]);
    expect(policyChanges(policy(), policy())).toEqual([]);
  });
});

describe('a refused form submit (issue 15: the draft dialog)', () => {
  const formError = (status: number, code: string, issues: { path: string; code: string }[]) => ({
    status,
    code,
    message: '',
    issues,
  });

  it('a formula naming an unknown field is one notice naming the formula, no field issue', () => {
    const issue = {
      path: 'premium',
      code: 'unknown_variable',
      position: 8,
      formula: 'Schaden',
      name: 'device.colour',
    };
    const { issues, refusal } = formRefusalOf(
      formError(422, 'calculation_failed', [issue]),
      'patchDraft',
    );
    expect(issues).toEqual([]);
    expect(refusal?.kind).toBe('formula');
    expect(refusal?.kind === 'formula' && refusal.error.body).toEqual({ issues: [issue] });
  });

  it('field issues stay at the fields, with their bounds; a refusal without issues is a notice', () => {
    const below = { path: 'device.value', code: 'below_minimum', limit: 10 };
    expect(formRefusalOf(formError(400, 'validation_error', [below]), 'patchDraft')).toEqual({
      issues: [below],
      refusal: null,
    });
    expect(formRefusalOf(formError(409, 'no_draft', []), 'patchDraft')).toEqual({
      issues: [],
      refusal: { kind: 'message', key: 'refusals.no_draft' },
    });
    expect(formRefusalOf(null, 'patchDraft')).toEqual({ issues: [], refusal: null });
  });
});
