import { describe, expect, it } from 'vitest';
import { activeFilters, isNearEnd, nextSort, sortFromParam, sortToParam } from './table-sort.ts';

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

describe('sort in the address', () => {
  it('writes and reads back a sort of a sortable column', () => {
    expect(sortToParam({ column: 'city', direction: 'desc' })).toBe('city:desc');
    expect(sortToParam(null)).toBe('');
    expect(sortFromParam('city:desc', ['name', 'city'])).toEqual({
      column: 'city',
      direction: 'desc',
    });
  });
  it('ignores what a hand-edited address makes of it', () => {
    expect(sortFromParam(null, ['city'])).toBeNull();
    expect(sortFromParam('email:asc', ['city'])).toBeNull();
    expect(sortFromParam('city:sideways', ['city'])).toBeNull();
    expect(sortFromParam('city', ['city'])).toBeNull();
  });
});
