import * as v from 'valibot';

/*
 * One rule for an e-mail address, for the browser's forms and the sandbox's bodies alike: when
 * they disagreed, an address the dialog let through (`jürgen.müller@example.com`) failed later
 * with "Something went wrong". The rule is valibot's `email` (ASCII addresses with a dotted
 * domain: what every mail system delivers) with the lengths of RFC 5321: 64 characters before the
 * @, 254 in all.
 */

export const EMAIL_LOCAL_PART_MAX = 64;
export const EMAIL_ADDRESS_MAX = 254;

const asEmail = v.pipe(v.string(), v.email());

export function isEmailAddress(text: string): boolean {
  if (text.length > EMAIL_ADDRESS_MAX) return false;
  const at = text.lastIndexOf('@');
  return at >= 1 && at <= EMAIL_LOCAL_PART_MAX && v.is(asEmail, text);
}

/** The rule as a pipe step, with the caller's message (a code on the server, text in forms). */
export function emailCheck<TMessage extends string>(message: TMessage) {
  return v.check<string, TMessage>(isEmailAddress, message);
}
