import { describe, expect, it } from 'vitest';
import { lastUsedAccount } from './last-account.ts';

describe('lastUsedAccount', () => {
  it("prefers this tab's account, then the remembered one, then the first held", () => {
    expect(lastUsedAccount([0, 1, 2], 2, 1)).toBe(2);
    expect(lastUsedAccount([0, 1, 2], undefined, 1)).toBe(1);
    expect(lastUsedAccount([2, 1], undefined, undefined)).toBe(1);
  });

  it('never answers an account the session does not hold', () => {
    expect(lastUsedAccount([0, 3], 5, 4)).toBe(0);
    expect(lastUsedAccount([], 0, 0)).toBeUndefined();
  });
});
