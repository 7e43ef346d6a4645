import { describe, expect, it } from 'vitest';
import { newPasswordErrors, requestErrors } from './reset-password-form.ts';

const labels = { newPassword: 'New password', confirmPassword: 'Repeat new password' };

describe('request form', () => {
  it('needs a well-formed address', () => {
    expect(requestErrors('', 'E-mail')).toEqual({
      email: ['messages.fieldRequired?field=E-mail'],
    });
    expect(requestErrors('not-an-address', 'E-mail')).toEqual({
      email: ['messages.invalidEmailFormat'],
    });
    expect(requestErrors('  someone@example.test ', 'E-mail')).toEqual({});
  });
});

describe('new password form', () => {
  it('applies the length rule and the upper, lower and digit rule', () => {
    expect(newPasswordErrors({ newPassword: 'Ab1', confirmPassword: 'Ab1' }, labels)).toEqual({
      newPassword: ['messages.passwordLengthError?min=8'],
    });
    expect(
      newPasswordErrors({ newPassword: 'lowercase1', confirmPassword: 'lowercase1' }, labels),
    ).toEqual({ newPassword: ['messages.password_rules'] });
  });

  it('shows a mismatch even while the password still breaks a rule', () => {
    expect(newPasswordErrors({ newPassword: 'short', confirmPassword: 'other' }, labels)).toEqual({
      newPassword: expect.arrayContaining(['messages.passwordLengthError?min=8']),
      confirmPassword: ['messages.notMatchPasswordError'],
    });
  });

  it('requires both fields and accepts a good, repeated password', () => {
    expect(newPasswordErrors({ newPassword: '', confirmPassword: '' }, labels)).toEqual({
      newPassword: ['messages.fieldRequired?field=New+password'],
      confirmPassword: ['messages.fieldRequired?field=Repeat+new+password'],
    });
    expect(
      newPasswordErrors({ newPassword: 'Fresh1234', confirmPassword: 'Fresh1234' }, labels),
    ).toEqual({});
  });
});
