import { describe, expect, it } from 'vitest';
import { partySortSql, readPageToken, writePageToken, jsonParty } from './list-keyset.ts';

describe('keyset page tokens', () => {
  it('read back what they wrote: page, last row, its sort value and the total', () => {
    const token = writePageToken(3, 41, 'DESC', { field: 'title', value: 'Wasser.schaden' }, 57);
    expect(token).toMatch(/^3\.41\.d\.t57\.title\./);
    expect(readPageToken(token, 'DESC', 'title', 'text')).toEqual({
      page: 3,
      afterId: 41,
      afterValue: 'Wasser.schaden',
      total: 57,
    });
    // Without a total (an older token) the next page counts again.
    expect(readPageToken('2.9.a', 'ASC').total).toBeNull();
  });

  it('refuse a token of another order, another field or a value not of the sort type', () => {
    const token = writePageToken(2, 9, 'ASC', { field: 'damageDate', value: '2026-01-02' }, 4);
    expect(readPageToken(token, 'ASC', 'damageDate', 'date').afterValue).toBe('2026-01-02');
    for (const [direction, field] of [
      ['DESC', 'damageDate'],
      ['ASC', 'title'],
    ] as const) {
      expect(() => readPageToken(token, direction, field, 'date')).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_query' }),
      );
    }
    const forged = writePageToken(2, 9, 'ASC', { field: 'damageDate', value: "1'; --" });
    expect(() => readPageToken(forged, 'ASC', 'damageDate', 'date')).toThrow('pageToken');
    expect(() => readPageToken('7', 'ASC')).toThrow('pageToken');
  });
});

describe('partySortSql', () => {
  it('reads each name field from the first party that has it, and is never NULL', () => {
    const sql = partySortSql([jsonParty('p.holder'), (f) => `a.${f}`], 'c.account_code');
    expect(sql).toContain("coalesce(p.holder->>'lastName', a.last_name)");
    expect(sql).toMatch(/c\.account_code, ''\)\)$/);
  });
});
