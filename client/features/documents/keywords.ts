/** Completing the search text's last word with a suggested keyword. */

/** The text with its last word replaced by a chosen keyword (the word being typed). */
export function withKeyword(text: string, keyword: string): string {
  const words = text.trim().split(/\s+/);
  words[words.length - 1] = keyword;
  return `${words.join(' ')} `;
}

/** The word being typed, when it is long enough to suggest anything for. */
export function wordBeingTyped(text: string): string | null {
  if (/\s$/.test(text)) return null;
  const word = text.trim().split(/\s+/).at(-1) ?? '';
  return word.length >= 2 ? word : null;
}
