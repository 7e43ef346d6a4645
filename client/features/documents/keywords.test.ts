import { describe, expect, it } from 'vitest';
import { withKeyword, wordBeingTyped } from './keywords.ts';

describe('keyword completion', () => {
  it('suggests for the last word once it has two letters, not after a space', () => {
    expect(wordBeingTyped('photo of da')).toBe('da');
    expect(wordBeingTyped('d')).toBeNull();
    expect(wordBeingTyped('damage ')).toBeNull();
    expect(wordBeingTyped('   ')).toBeNull();
  });

  it('replaces the word being typed and leaves room for the next', () => {
    expect(withKeyword('photo of da', 'damage')).toBe('photo of damage ');
    expect(withKeyword('rep', 'report')).toBe('report ');
  });
});
