import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeBackUrl } from './back-url.ts';

describe('safeBackUrl', () => {
  it.each([
    ['/u/0', '/u/0'],
    ['/u/1/policies', '/u/1/policies'],
    ['/u/0/policies?status=active&page=2#top', '/u/0/policies?status=active&page=2#top'],
    ['/u/0/search?q=a:b', '/u/0/search?q=a:b'],
    ['/profile', '/profile'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (raw, expected) => {
    expect(safeBackUrl(raw)).toBe(expected);
  });

  it.each([
    ['%2Fu%2F0%2Fpolicies', '/u/0/policies'],
    ['/u/0/search%3Fq%3Dx', '/u/0/search?q=x'],
    ['/u/0/claims?name=M%C3%BCller', '/u/0/claims?name=Müller'],
    // Decoded exactly once: an encoded value inside the query string stays encoded once.
    ['/u/0/search?q=a%252Fb', '/u/0/search?q=a%2Fb'],
  ])('decodes %s once', (raw, expected) => {
    expect(safeBackUrl(raw)).toBe(expected);
  });

  it('keeps the encoding of download routes', () => {
    expect(safeBackUrl('/download/reports%2F2024%2Fq1.pdf')).toBe(
      '/download/reports%2F2024%2Fq1.pdf',
    );
    expect(safeBackUrl('/download/a%20b.pdf')).toBe('/download/a%20b.pdf');
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['u/0'],
    ['relative/path'],
    [' /u/0'],
    ['//evil.test'],
    ['//evil.test/u/0'],
    ['///evil.test'],
    ['/\\evil.test'],
    ['\\\\evil.test'],
    ['/u/0\\..\\x'],
    ['https://evil.test'],
    ['http://evil.test/u/0'],
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['/javascript:alert(1)'],
    ['/\tjavascript:alert(1)'],
    ['/\t/evil.test'],
    ['/\n/evil.test'],
    ['/u/0\u0000'],
    ['/u/0\u2028'],
    ['/u/0\u0085'],
    // Encoded once.
    ['%2F%2Fevil.test'],
    ['/%2Fevil.test'],
    ['%2F%5Cevil.test'],
    ['/%5Cevil.test'],
    ['%6A%61vascript:alert(1)'],
    ['javascript%3Aalert(1)'],
    ['/%09/evil.test'],
    ['/u/0%00'],
    // Double- and triple-encoded.
    ['%252F%252Fevil.test'],
    ['/%252Fevil.test'],
    ['/%255Cevil.test'],
    ['/%25252Fevil.test'],
    ['/%2509/evil.test'],
    ['/%256Aavascript:alert(1)'],
    ['/u/0?x=%255C'],
    // Malformed escapes cannot be decoded once.
    ['/u/0%'],
    ['/u/0%E0%A4%A'],
    // Download routes keep their encoding but are checked all the same.
    ['/download/%2F%5Cevil'],
    ['/download/\\evil'],
    ['/download/\u0000'],
  ])('rejects %j', (raw) => {
    expect(safeBackUrl(raw)).toBe('/u/0');
  });

  it('uses the given fallback, unless the fallback itself is unsafe', () => {
    expect(safeBackUrl('//evil.test', '/login')).toBe('/login');
    expect(safeBackUrl(null, '/u/2')).toBe('/u/2');
    expect(safeBackUrl('//evil.test', '//evil.test')).toBe('/u/0');
    expect(safeBackUrl(undefined, 'https://evil.test')).toBe('/u/0');
  });

  it('whatever comes in, the result is a same-origin absolute path', () => {
    const dangerous = fc.constantFrom(
      '/',
      '\\',
      '%',
      '2F',
      '5C',
      '25',
      ':',
      '\t',
      'javascript',
      '.',
    );
    const input = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc
        .array(fc.oneof(dangerous, fc.string({ maxLength: 3 })), { maxLength: 12 })
        .map((p) => p.join('')),
      fc.webUrl(),
      fc.webPath(),
    );
    fc.assert(
      fc.property(input, (raw) => {
        const result = safeBackUrl(raw);
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(result.startsWith('/\\')).toBe(false);
        expect(result.includes('\\')).toBe(false);
      }),
      { numRuns: 2000 },
    );
    // 2 000 generated inputs: about a second on a quiet machine, several on a busy CI box.
  }, 30_000);

  it('a safe path, encoded once, comes back unchanged', () => {
    const safeSegment = fc.stringMatching(/^[a-zA-Z0-9_-]{1,10}$/);
    fc.assert(
      fc.property(fc.array(safeSegment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join('/')}`;
        expect(safeBackUrl(encodeURIComponent(path))).toBe(path);
      }),
    );
  });
});
