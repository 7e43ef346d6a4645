import { describe, expect, it } from 'vitest';
import {
  PASSWORD_MAX_LENGTH,
  passwordMeetsRules,
  passwordProblems,
} from '#common/password-rules.ts';

describe('the shared password rule', () => {
  it.each([
    ['Abcdefg1', true],
    // Decision: Unicode upper and lower case letters count (German and Polish users).
    ['Äbcdefg1', true],
    ['Łódźmiasto1', true],
    ['ÄÖÜSSSSSß1', true],
    ['abcdefg1', false],
    ['ABCDEFG1', false],
    ['Abcdefgh', false],
    ['Ab1', false],
    // Arabic-Indic digits are not the 0-9 the hint names.
    ['Abcdefg١', false],
    ['Abcd\tefg1', false],
    ['Abcd\u0000efg1', false],
    ['Abcd efg1', true],
  ])('%j meets the rule: %j', (password, expected) => {
    expect(passwordMeetsRules(password)).toBe(expected);
  });

  it('caps the length at 200 code units', () => {
    const at = `Ab1${'x'.repeat(PASSWORD_MAX_LENGTH - 3)}`;
    expect(at).toHaveLength(200);
    expect(passwordMeetsRules(at)).toBe(true);
    expect(passwordProblems(`${at}x`)).toEqual(['too_long']);
  });

  it('names every broken rule', () => {
    expect(passwordProblems('')).toEqual(['too_short', 'no_upper', 'no_lower', 'no_digit']);
    expect(passwordProblems('abc\n')).toEqual([
      'too_short',
      'no_upper',
      'no_digit',
      'control_character',
    ]);
  });
});
