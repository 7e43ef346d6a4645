import { describe, expect, it } from 'vitest';
import { totalCountOf } from './infinite-table.tsx';

describe('totalCountOf', () => {
  it('takes an exact count, a capped one as a floor, and nothing when the list has none', () => {
    expect(totalCountOf({ totalItems: 1234 })).toEqual({ totalCount: 1234 });
    expect(totalCountOf({ totalItemsAbove: 10_000 })).toEqual({
      totalCount: 10_000,
      totalAbove: true,
    });
    // Some upstream lists answer null or leave the count out: the table counts its rows then.
    expect(totalCountOf({ totalItems: null })).toEqual({});
    expect(totalCountOf({})).toEqual({});
  });
});
