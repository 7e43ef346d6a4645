import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/fetch-json.ts';
import { validateForm } from '#client/ui/form/custom-schema.ts';
import { roleErrorCode, roleFieldErrors, roleFormSchema } from './role-form.ts';

const labels = { code: 'Code', label: 'Name' };

describe('roleFormSchema', () => {
  it('accepts a new role with a valid code', () => {
    const result = validateForm(roleFormSchema(labels, true), {
      code: 'claims-clerk_2',
      label: 'Claims clerk',
      description: '',
    });
    expect(result.success).toBe(true);
  });

  it('requires code and name, and checks the code format and lengths', () => {
    const missing = validateForm(roleFormSchema(labels, true), {
      code: '',
      label: '  ',
      description: '',
    });
    expect(missing.errors).toEqual({
      code: ['messages.fieldRequired?field=Code'],
      label: ['messages.fieldRequired?field=Name'],
    });
    for (const code of ['Claims', '-clerk', 'a b', 'x'.repeat(64)]) {
      const bad = validateForm(roleFormSchema(labels, true), { code, label: 'x', description: '' });
      expect(bad.errors.code, code).toEqual(['messages.invalid_value']);
    }
    const long = validateForm(roleFormSchema(labels, true), {
      code: 'ok',
      label: 'x'.repeat(101),
      description: 'y'.repeat(501),
    });
    expect(long.errors).toEqual({
      label: ['messages.string_max?max=100'],
      description: ['messages.string_max?max=500'],
    });
  });

  it('does not check the code of an existing role (it cannot change)', () => {
    const result = validateForm(roleFormSchema(labels, false), {
      code: 'Legacy Code',
      label: 'x',
      description: '',
    });
    expect(result.success).toBe(true);
  });
});

describe('roleErrorCode', () => {
  it.each([
    [new ApiError(403, 'escalation', '', null), 'escalation'],
    [new ApiError(409, 'role_in_use', '', null), 'role_in_use'],
    [new ApiError(409, 'role_code_taken', '', null), 'role_code_taken'],
    [new ApiError(404, 'not_found', '', null), 'not_found'],
    [new ApiError(404, 'http_404', '', null), 'not_found'],
    [new ApiError(400, 'invalid_body', '', null), 'invalid'],
    [new ApiError(502, 'upstream_unavailable', '', null), 'generic'],
    [new TypeError('Failed to fetch'), 'generic'],
    ['text', 'generic'],
  ])('%o is %s', (error, code) => {
    expect(roleErrorCode(error)).toBe(code);
  });
});

describe('roleFieldErrors', () => {
  const refusal = (issues: { path: string; code: string }[]) =>
    new ApiError(
      400,
      'validation_error',
      'label: Invalid length: Expected <=100 but received 101',
      {
        error: 'validation_error',
        message: 'label: Invalid length: Expected <=100 but received 101',
        issues,
      },
    );

  it('says a refusal at a text field by its code and the shared limit, never the service words', () => {
    expect(
      roleFieldErrors(
        refusal([
          { path: 'label', code: 'max_length' },
          { path: 'description', code: 'max_length' },
          { path: 'code', code: 'regex' },
        ]),
      ),
    ).toEqual({
      label: ['messages.string_max?max=100'],
      description: ['messages.string_max?max=500'],
      code: ['messages.invalid_value'],
    });
  });

  it('is null for refusals naming no text field, and for other failures', () => {
    expect(roleFieldErrors(refusal([{ path: 'permissions.0', code: 'regex' }]))).toBeNull();
    expect(roleFieldErrors(new ApiError(409, 'role_code_taken', '', null))).toBeNull();
    expect(roleFieldErrors(new TypeError('Failed to fetch'))).toBeNull();
  });
});
