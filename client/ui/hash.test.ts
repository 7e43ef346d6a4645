import { describe, expect, it } from 'vitest';
import { parseHashPairs, withHashPair } from './hash-params.ts';
import { buildSavedFilterHash, parseSavedFilterHash } from './saved-filter-hash.ts';

describe('hash pairs', () => {
  it('parses id=value pairs', () => {
    expect(parseHashPairs('#tabs=roles&inner=a%20b')).toEqual({ tabs: 'roles', inner: 'a b' });
    expect(parseHashPairs('')).toEqual({});
    expect(parseHashPairs('#junk&=x&ok=1&bad=%E0%A4%A')).toEqual({ ok: '1' });
  });

  it('sets, replaces in place and removes a pair', () => {
    expect(withHashPair('', 'tabs', 'users')).toBe('#tabs=users');
    expect(withHashPair('#a=1&tabs=users&b=2', 'tabs', 'roles')).toBe('#a=1&tabs=roles&b=2');
    expect(withHashPair('#a=1&tabs=users', 'tabs', null)).toBe('#a=1');
    expect(withHashPair('#tabs=users', 'tabs', null)).toBe('');
    expect(withHashPair('', 'my tab', 'a&b')).toBe('#my%20tab=a%26b');
    expect(parseHashPairs(withHashPair('', 'my tab', 'a&b'))).toEqual({ 'my tab': 'a&b' });
  });
});

describe('saved-filter hash', () => {
  it('parses the sheet and the filters, values URL-decoded', () => {
    expect(
      parseSavedFilterHash('#c/sheetId=42&filters=status:open,closed;city:K%C3%B6ln;name:a%2Cb'),
    ).toEqual({
      sheetId: '42',
      filters: { status: ['open', 'closed'], city: ['Köln'], name: ['a,b'] },
    });
  });

  it("drops 'All' and 'Alle' and ignores 'Kunde', 'title' and 'app'", () => {
    expect(
      parseSavedFilterHash(
        '#c/sheetId=s1&filters=status:All,open;region:Alle;Kunde:ACME;title:Report;app:eis;x:1',
      ),
    ).toEqual({ sheetId: 's1', filters: { status: ['open'], x: ['1'] } });
  });

  it('is null for other hashes and tolerates missing parts', () => {
    expect(parseSavedFilterHash('#tabs=users')).toBeNull();
    expect(parseSavedFilterHash('')).toBeNull();
    expect(parseSavedFilterHash('#c/')).toEqual({ sheetId: null, filters: {} });
    expect(parseSavedFilterHash('c/filters=a:1;;b;:2')).toEqual({
      sheetId: null,
      filters: { a: ['1'] },
    });
  });

  it('round-trips through buildSavedFilterHash', () => {
    const filter = { sheetId: 'a b', filters: { 'n;1': ['x,y', 'z:1'], m: ['ü'] } };
    expect(parseSavedFilterHash(buildSavedFilterHash(filter))).toEqual(filter);
  });
});
