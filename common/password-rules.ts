/*
 * The one password rule of the product, checked by the wizards' and the reset form's steps and by
 * the sandbox's authservice (registration, reset, password change). When the client counted
 * `\p{Lu}` and the sandbox only [A-Z], `Äbcdefg1` passed step 1 and failed at submit; when only
 * the sandbox had a maximum, a 201-character password did the same.
 *
 * Decision on letters: upper and lower case are Unicode's categories Lu and Ll, not only ASCII.
 * The tenants' users type German and Polish (`Äpfel`, `Łódź`); a rule that did not count `Ä` as
 * an upper-case letter would refuse passwords its own users think are fine, and it is not weaker:
 * every ASCII letter still counts. Digits are the ASCII digits 0-9 (what `\d` means in
 * JavaScript), as the hint says. Lengths are counted in UTF-16 code units, as the input's
 * `maxlength` and valibot's `maxLength` count them, so that the field stops where the server does.
 * Control characters (Unicode Cc: tab, newline, NUL) are refused: the BFF refuses them at sign-in,
 * so such a password could never be used.
 */

export const PASSWORD_MIN_LENGTH = 8;
/** Also the `maxlength` of every new-password field. */
export const PASSWORD_MAX_LENGTH = 200;

/** Why a password is refused; the client maps each to a translated message. */
export type PasswordProblem =
  'too_short' | 'too_long' | 'no_upper' | 'no_lower' | 'no_digit' | 'control_character';

const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /[0-9]/;
const CONTROL = /\p{Cc}/u;

/** Every rule the password breaks, in the order the hint names them; empty when it is fine. */
export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('too_short');
  if (password.length > PASSWORD_MAX_LENGTH) problems.push('too_long');
  if (!UPPER.test(password)) problems.push('no_upper');
  if (!LOWER.test(password)) problems.push('no_lower');
  if (!DIGIT.test(password)) problems.push('no_digit');
  if (CONTROL.test(password)) problems.push('control_character');
  return problems;
}

export function passwordMeetsRules(password: string): boolean {
  return passwordProblems(password).length === 0;
}
