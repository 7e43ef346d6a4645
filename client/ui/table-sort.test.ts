import { describe, expect, it } from 'vitest';
import { activeFilters, isNearEnd, nextSort } from './table-sort.ts';

describe('nextSort', () => {
  it('cycles ascending, descending, none on one column', () => {
    const asc = nextSort(null, 'name');
    expect(asc).toEqual({ column: 'name', direction: 'asc' });
    const desc = nextSort(asc, 'name');
    expect(desc).toEqual({ column: 'name', direction: 'desc' });
    expect(nextSort(desc, 'name')).toBeNull();
  });

  it('another column starts at ascending, so only one column is sorted', () => {
    expect(nextSort({ column: 'name', direction: 'desc' }, 'city')).toEqual({
      column: 'city',
      direction: 'asc',
    });
  });
});

describe('activeFilters', () => {
  it('drops empty and blank filters', () => {
    expect(activeFilters({ a: 'x', b: '', c: '  ' })).toEqual({ a: 'x' });
  });
});

describe('isNearEnd', () => {
  it('is true within 20 px of the bottom', () => {
    expect(isNearEnd({ scrollTop: 480, scrollHeight: 1000, clientHeight: 500 })).toBe(true);
    expect(isNearEnd({ scrollTop: 479, scrollHeight: 1000, clientHeight: 500 })).toBe(false);
    expect(isNearEnd({ scrollTop: 0, scrollHeight: 300, clientHeight: 500 })).toBe(true);
  });
});
