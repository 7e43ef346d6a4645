/**
 * Spec, section 5: empty strings become null before submit, so that the back end sees "no value"
 * rather than an empty text. Nested objects and arrays are cleaned too; blank means empty.
 */
export function emptyToNull<T>(value: T): T {
  if (typeof value === 'string') return (value.trim() === '' ? null : value) as T;
  if (Array.isArray(value)) return value.map((item) => emptyToNull(item)) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, emptyToNull(item)]),
    ) as T;
  }
  return value;
}

/** Spec, section 5: a number input turns an unparsable value into empty. Accepts 1,5 too. */
export function parseNumberInput(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}
