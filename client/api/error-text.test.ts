import { describe, expect, it } from 'vitest';
import { apiErrorKey, fieldIssues, refusal as refusalOf } from './error-text.ts';
import { ApiError } from './fetch-json.ts';

const refusal = (status: number, error: string, body: unknown = { error, message: 'words' }) =>
  new ApiError(status, error, 'English the client does not read', body);

describe('apiErrorKey', () => {
  it('says a known error code in its own words', () => {
    expect(apiErrorKey(refusal(409, 'version_conflict'))).toBe('errors:api.version_conflict');
    expect(apiErrorKey(refusal(403, 'csrf'))).toBe('errors:api.csrf');
    expect(apiErrorKey(refusal(502, 'upstream_unavailable'))).toBe(
      'errors:api.upstream_unavailable',
    );
  });

  it('says an unknown code by its status, and anything else as a failure', () => {
    expect(apiErrorKey(refusal(400, 'odd_rule'))).toBe('errors:api.bad_request');
    expect(apiErrorKey(refusal(403, 'odd_rule'))).toBe('errors:api.forbidden');
    expect(apiErrorKey(refusal(404, 'odd_rule'))).toBe('errors:api.not_found');
    expect(apiErrorKey(refusal(409, 'odd_rule'))).toBe('errors:api.conflict');
    expect(apiErrorKey(refusal(503, 'odd_rule'))).toBe('errors:api.upstream_error');
    expect(apiErrorKey(refusal(418, 'odd_rule'))).toBe('errors:api.failed');
    expect(apiErrorKey(new TypeError('Failed to fetch'))).toBe('errors:api.failed');
  });
});

describe('fieldIssues', () => {
  it('reads the issues of a 400, and only those that fit the shape', () => {
    const issues = [{ path: 'customFields.size', code: 'too_short' }];
    expect(
      fieldIssues(refusal(400, 'validation_error', { error: 'x', message: 'y', issues })),
    ).toEqual(issues);
    expect(fieldIssues(refusal(400, 'validation_error', { issues: [{ path: 1 }] }))).toEqual([]);
    expect(fieldIssues(refusal(409, 'version_conflict', { issues }))).toEqual([]);
    // The message names a field, but only the issues count.
    expect(fieldIssues(new ApiError(400, 'validation_error', 'phone: invalid_phone', {}))).toEqual(
      [],
    );
  });
});

describe('refusal', () => {
  it('reads any 4xx answer with its code and issues, and no answer or a 5xx as none', () => {
    const issues = [{ path: 'name', code: 'organization_name_taken' }];
    expect(refusalOf(refusal(409, 'organization_name_taken', { issues }))).toEqual({
      status: 409,
      code: 'organization_name_taken',
      issues,
    });
    expect(refusalOf(refusal(409, 'already_registered'))).toEqual({
      status: 409,
      code: 'already_registered',
      issues: [],
    });
    expect(refusalOf(refusal(500, 'internal', { issues }))).toBeUndefined();
    expect(refusalOf(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(refusalOf(null)).toBeUndefined();
  });
});
