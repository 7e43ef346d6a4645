import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/fetch-json.ts';
import { refusedFields } from './save-error.ts';

const refusal = (status: number, code: string, issues?: { path: string; code: string }[]) =>
  new ApiError(status, code, code, { error: code, message: code, ...(issues ? { issues } : {}) });

describe('the registration wizard’s save error', () => {
  it('names the e-mail of an address that already has an account', () => {
    expect(refusedFields(refusal(409, 'already_registered'))).toEqual([
      { field: 'email', text: { key: 'refused.already_registered' } },
    ]);
    expect(
      refusedFields(
        refusal(409, 'already_registered', [{ path: 'email', code: 'already_registered' }]),
      ),
    ).toEqual([{ field: 'email', text: { key: 'refused.already_registered' } }]);
  });

  it('names the organisation name when it is taken', () => {
    expect(
      refusedFields(
        refusal(409, 'organization_name_taken', [
          { path: 'name', code: 'organization_name_taken' },
        ]),
      ),
    ).toEqual([{ field: 'name', text: { key: 'refused.organization_name_taken' } }]);
  });

  it('names each field of a validation error with the form kit’s message', () => {
    expect(
      refusedFields(
        refusal(400, 'validation_error', [
          { path: 'firstName', code: 'max_length' },
          { path: 'password', code: 'max_length' },
          { path: 'customFields.vat', code: 'required' },
        ]),
      ),
    ).toEqual([
      { field: 'firstName', text: { message: 'messages.too_long' } },
      { field: 'newPassword', text: { message: 'messages.too_long' } },
      { field: 'customFields.vat', text: { message: 'messages.required' } },
    ]);
    expect(refusedFields(refusal(400, 'invalid_password'))).toEqual([
      { field: 'newPassword', text: { message: 'messages.password_rules' } },
    ]);
  });

  it('keeps the generic "try again" for failures that name nothing', () => {
    expect(refusedFields(refusal(503, 'unavailable'))).toEqual([]);
    expect(refusedFields(refusal(500, 'internal', [{ path: 'x', code: 'y' }]))).toEqual([]);
    expect(refusedFields(refusal(400, 'validation_error'))).toEqual([]);
    expect(refusedFields(new TypeError('Failed to fetch'))).toEqual([]);
    expect(refusedFields(null)).toEqual([]);
  });
});
