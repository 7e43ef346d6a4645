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

/** The grouping and decimal marks of a language (`de`: `.` and `,`; `en`: `,` and `.`). */
function numberMarks(language: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(language).formatToParts(12345.6);
  return {
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
}

/**
 * Spec, section 5: a number input turns an unparsable value into empty. A number is read as the
 * user writes it in their language (issue 15: `20.000,50` in German, `20,000.50` in English,
 * `20 000,50` in Polish); `1,5` and `1.5` are one and a half in every language. Only a single
 * mark followed by groups of three digits needs the language: `20.000` is twenty thousand in
 * German and twenty in English (and without a language, as before, twenty).
 */
export function parseNumberInput(text: string, language?: string): number | null {
  // Spaces (also the no-break ones Intl writes in Polish and French) only ever group digits.
  let s = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (s === '') return null;
  const dots = s.split('.').length - 1;
  const commas = s.split(',').length - 1;
  if (dots && commas) {
    // Both marks: the last one is the decimal mark, the other groups.
    const decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    if (s.indexOf(decimal) !== s.lastIndexOf(decimal)) return null;
    if (!new RegExp(`^[-+]?\\d{1,3}(\\${group}\\d{3})+\\${decimal}\\d*$`).test(s)) return null;
    s = s.split(group).join('').replace(decimal, '.');
  } else if (dots + commas > 0) {
    const mark = dots ? '.' : ',';
    const grouped = new RegExp(`^[-+]?\\d{1,3}(\\${mark}\\d{3})+$`).test(s);
    const isGroup = language !== undefined && numberMarks(language).group === mark;
    if (grouped && (isGroup || dots + commas > 1)) s = s.split(mark).join('');
    else if (dots + commas === 1) s = s.replace(',', '.');
    else return null;
  }
  const value = Number(s);
  return Number.isFinite(value) ? value : null;
}

/**
 * A number as a number input shows it: with the user's decimal mark (`20000,5` in German), but
 * without grouping, so that editing it never trips over a mark (grouped input is read too).
 */
export const formatNumberInput = (value: number, language: string): string =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 10, useGrouping: false }).format(value);
