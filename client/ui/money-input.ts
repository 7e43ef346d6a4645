/**
 * Money typed as the user's language writes it (`1.234,50` in German, `1,234.50` in English,
 * `1 234,50` in Polish; a currency sign may stand beside) and kept as cents, the services'
 * integers: settlements, payments.
 */

/** The digit group and decimal signs of a language's numbers. */
export function amountSeparators(language: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(language).formatToParts(12345.6);
  return {
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Spaces of every kind separate digit groups in some languages (Polish, French): never meaningful.
const SPACES = /[\s\u00a0\u202f]/g;

/**
 * Typed money -> cents; blank is 0. Digit groups must be whole (`1.234,5` but not `1.23,5` in
 * German) and at most two decimals, so that a number in another language's format is refused
 * rather than read as a different amount. Null for anything that is no amount (also negative).
 */
export function parseAmount(text: string, language: string): number | null {
  const { group, decimal } = amountSeparators(language);
  // A currency sign or code beside the number is what the formatted amounts show: allowed.
  const bare = text.replace(SPACES, '').replace(/^[^\d\-.,]+|[^\d.,]+$/g, '');
  if (bare === '') return text.trim() === '' ? 0 : null;
  const g = group.replace(SPACES, '');
  const groups = g ? `\\d{1,3}(?:${escape(g)}\\d{3})+` : '(?!)';
  const match = new RegExp(`^(\\d+|${groups})(?:${escape(decimal)}(\\d{1,2}))?$`).exec(bare);
  if (!match?.[1]) return null;
  const whole = Number(g ? match[1].split(g).join('') : match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  const value = whole * 100 + cents;
  return Number.isSafeInteger(value) ? value : null;
}

/** Cents as the input shows them to edit: no digit groups, two decimals (`1234,50`). */
export function amountText(cents: number, language: string): string {
  return new Intl.NumberFormat(language, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(cents / 100);
}
