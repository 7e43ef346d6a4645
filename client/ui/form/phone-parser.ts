import type { CountryCode } from 'libphonenumber-js';

type Validate = (value: string, country: CountryCode) => boolean;

let validate: Validate | undefined;
let loading: Promise<Validate> | undefined;

/**
 * libphonenumber-js is about 29 KB gzip, so it is a chunk of its own (issue 14): a form with a
 * phone field starts loading it when its schema is built (`phoneRule`), long before anyone can
 * type a number and submit. Awaitable for tests and for callers that must not race it.
 */
export function preloadPhoneParser(): Promise<Validate> {
  loading ??= import('libphonenumber-js').then((m) => (validate = m.isValidPhoneNumber));
  return loading;
}

/** The parser's check, once loaded. */
export function loadedPhoneValidator(): Validate | undefined {
  return validate;
}
