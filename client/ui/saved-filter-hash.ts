/**
 * Saved-filter links (spec, section 2): `#c/sheetId=...&filters=name:value1,value2;name2:value`.
 * Values are URL-encoded (a comma or semicolon inside a value arrives as %2C / %3B).
 */
export interface SavedFilter {
  sheetId: string | null;
  filters: Record<string, string[]>;
}

/** "All" (English) and "Alle" (German) mean no filter. */
const DROPPED_VALUES = new Set(['All', 'Alle']);
/** Context of the old dashboards, not filters of the sheet. */
const IGNORED_NAMES = new Set(['Kunde', 'title', 'app']);

const PREFIX = 'c/';

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The saved filter of a hash; null when the hash is not a saved-filter link. */
export function parseSavedFilterHash(hash: string): SavedFilter | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text.startsWith(PREFIX)) return null;
  let sheetId: string | null = null;
  let rawFilters = '';
  for (const part of text.slice(PREFIX.length).split('&')) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    const key = part.slice(0, at);
    if (key === 'sheetId') sheetId = decode(part.slice(at + 1)) || null;
    if (key === 'filters') rawFilters = part.slice(at + 1);
  }
  const filters: Record<string, string[]> = {};
  for (const entry of rawFilters.split(';')) {
    const colon = entry.indexOf(':');
    if (colon <= 0) continue;
    const name = decode(entry.slice(0, colon));
    if (IGNORED_NAMES.has(name)) continue;
    const values = entry
      .slice(colon + 1)
      .split(',')
      .map(decode)
      .filter((value) => value !== '' && !DROPPED_VALUES.has(value));
    if (values.length === 0) continue;
    filters[name] = [...(filters[name] ?? []), ...values];
  }
  return { sheetId, filters };
}

/** The link hash of a saved filter (the inverse of {@link parseSavedFilterHash}). */
export function buildSavedFilterHash({ sheetId, filters }: SavedFilter): string {
  const encoded = Object.entries(filters)
    .filter(([, values]) => values.length > 0)
    .map(
      ([name, values]) =>
        `${encodeURIComponent(name)}:${values.map((value) => encodeURIComponent(value)).join(',')}`,
    )
    .join(';');
  return `#${PREFIX}sheetId=${encodeURIComponent(sheetId ?? '')}&filters=${encoded}`;
}
