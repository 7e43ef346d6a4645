import type { Refusal } from '#machines/failure-code.ts';

/**
 * The locale key of a payment service refusal among the `known` codes a dialog names: the code
 * itself, else by status (403 forbidden, 404 not found, another 4xx but 429 "refused these
 * details"), and `unavailable` for no answer, 429 and 5xx.
 */
export function refusalKeyOf<K extends string>(
  known: readonly K[],
  { status, code }: Refusal,
): K | 'forbidden' | 'not_found' | 'validation_error' | 'unavailable' {
  if ((known as readonly string[]).includes(code)) return code as K;
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status >= 400 && status < 500 && status !== 429) return 'validation_error';
  return 'unavailable';
}
