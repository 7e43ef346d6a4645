/**
 * The URL hash as `id=value` pairs joined with `&` (spec, section 2: tabs keep the active tab in
 * the hash). Keys and values are URL-encoded; other pairs in the hash are kept untouched.
 */
export function parseHashPairs(hash: string): Record<string, string> {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const pairs: Record<string, string> = {};
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    try {
      pairs[decodeURIComponent(part.slice(0, at))] = decodeURIComponent(part.slice(at + 1));
    } catch {
      // A malformed escape in a hand-edited address: skip that pair, keep the others.
    }
  }
  return pairs;
}

/** The hash with `id` set to `value` (or removed when null), keeping the order of the others. */
export function withHashPair(hash: string, id: string, value: string | null): string {
  const pairs = Object.entries(parseHashPairs(hash)).filter(([key]) => key !== id);
  if (value !== null) {
    const existing = Object.keys(parseHashPairs(hash)).indexOf(id);
    const entry: [string, string] = [id, value];
    if (existing === -1) pairs.push(entry);
    else pairs.splice(existing, 0, entry);
  }
  const text = pairs
    .map(([key, item]) => `${encodeURIComponent(key)}=${encodeURIComponent(item)}`)
    .join('&');
  return text === '' ? '' : `#${text}`;
}
