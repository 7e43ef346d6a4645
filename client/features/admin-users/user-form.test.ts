import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/fetch-json.ts';
import { USER_NAME_MAX } from '#common/contracts/tenant.ts';
import { EMAIL_ADDRESS_MAX } from '#common/email-address.ts';
import { USER_FIELD_MAX, userFieldErrors, validateUser } from './user-form.ts';

const label = (field: string) => `[${field}]`;

describe('validateUser', () => {
  it('refuses with translatable messages by code, the limit from the shared schema', () => {
    const result = validateUser(
      { firstName: ' ', lastName: 'x'.repeat(USER_NAME_MAX + 1), email: 'jürgen@example.com' },
      label,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        firstName: ['messages.fieldRequired?field=%5BfirstName%5D'],
        lastName: [`messages.string_max?max=${USER_NAME_MAX}`],
        email: ['messages.invalidEmail'],
      },
    });
  });

  it('takes names at the limit, trimmed', () => {
    const result = validateUser(
      { firstName: ' Ada ', lastName: 'x'.repeat(USER_NAME_MAX), email: 'ada@demo.test' },
      label,
    );
    expect(result).toMatchObject({ ok: true, input: { firstName: 'Ada' } });
  });

  it('gives each input the shared limit as maxlength', () => {
    expect(USER_FIELD_MAX).toEqual({
      firstName: USER_NAME_MAX,
      lastName: USER_NAME_MAX,
      email: EMAIL_ADDRESS_MAX,
    });
  });
});

describe('userFieldErrors', () => {
  it("says the service's codes at the fields, an unknown one as invalid", () => {
    const error = new ApiError(400, 'validation_error', 'lastName: Invalid length', {
      issues: [
        { path: 'lastName', code: 'too_long' },
        { path: 'firstName', code: 'something_new' },
        { path: 'email', code: 'email_taken' },
        { path: 'version', code: 'min_value' },
      ],
    });
    expect(userFieldErrors(error, label)).toEqual({
      lastName: [`messages.string_max?max=${USER_NAME_MAX}`],
      firstName: ['messages.invalid_value'],
      email: ['admin_users:user_page.errors.email_taken'],
    });
    expect(userFieldErrors(new TypeError('Failed to fetch'), label)).toBeNull();
  });
});
