/**
 * The `backUrl` query parameter (`/login?backUrl=...`, change-password, session expiry) is
 * attacker-controlled: anyone can send a victim a login link. Only same-origin absolute paths may
 * come out of it; everything else falls back to the account home.
 */

const DEFAULT_FALLBACK = '/u/0';
const DOWNLOAD_PREFIX = '/download/';
// Enough rounds to unwrap any realistic nesting; a string still changing after that is rejected.
const MAX_DECODE_ROUNDS = 8;

// C0 controls, DEL, C1 controls and the Unicode line/paragraph separators: browsers strip or
// reinterpret some of them inside URLs (`/\t/evil.test` becomes `//evil.test`).
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// A scheme right after the leading slashes (`/javascript:...`): no route of ours looks like that,
// and some URL parsers drop leading slashes before a scheme.
const SCHEME_AFTER_SLASHES = /^[\s/]*[a-z][a-z0-9+.-]*:/i;

/**
 * Decodes `%XX` escapes of ASCII characters only. Every dangerous character is ASCII, and unlike
 * `decodeURIComponent` this never throws on a stray `%` or a partial UTF-8 sequence.
 */
function decodeAsciiEscapes(value: string): string {
  return value.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

function isSafeShape(path: string): boolean {
  return (
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('\\') &&
    !CONTROL_CHARACTERS.test(path) &&
    !SCHEME_AFTER_SLASHES.test(path)
  );
}

/**
 * The path must be safe as it is and stay safe however many more times something (a router, a
 * server, a redirect) decodes it: that rejects encoded and double-encoded `//`, `\`, controls
 * and schemes.
 */
function isSafePath(path: string): boolean {
  let current = path;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (!isSafeShape(current)) return false;
    const next = decodeAsciiEscapes(current);
    if (next === current) return true;
    current = next;
  }
  return false;
}

/**
 * Returns the same-origin path to go back to, or `fallback` (default `/u/0`).
 *
 * `raw` is the parameter as read from the query string (`URLSearchParams.get`). It is decoded
 * once more, as the spec says, except for download routes (`/download/{s3key}`), whose key keeps
 * its encoding. A fallback that is itself unsafe is replaced by `/u/0`, so the result always
 * starts with a single `/`.
 */
export function safeBackUrl(raw: string | null | undefined, fallback = DEFAULT_FALLBACK): string {
  const safeFallback = isSafePath(fallback) ? fallback : DEFAULT_FALLBACK;
  if (raw === null || raw === undefined || raw === '') return safeFallback;
  let candidate: string;
  if (raw.startsWith(DOWNLOAD_PREFIX)) {
    candidate = raw;
  } else {
    try {
      candidate = decodeURIComponent(raw);
    } catch {
      return safeFallback;
    }
  }
  return isSafePath(candidate) ? candidate : safeFallback;
}
