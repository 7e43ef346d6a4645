import { describe, expect, it } from 'vitest';
import { noPolicyFilters } from '#client/ui/policies-table.tsx';
import { filtersFromSearch, searchFromFilters } from './list-filters.ts';

describe('policy list filters in the address', () => {
  it('reads statuses, product, search and order', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('status=SUSPENDED,active&product=home-contents&q=+braun+&order=oldest'),
    );
    expect(filters).toEqual({
      ...noPolicyFilters,
      statuses: ['ACTIVE', 'SUSPENDED'],
      productSlug: 'home-contents',
      search: 'braun',
      order: 'oldest',
    });
  });

  it('drops unknown statuses and orders instead of failing', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('status=GONE,,TERMINATED&order=sideways'),
    );
    expect(filters.statuses).toEqual(['TERMINATED']);
    expect(filters.order).toBe('newest');
  });

  it('writes only what differs from the defaults, in a stable order', () => {
    expect(searchFromFilters(noPolicyFilters).toString()).toBe('');
    const params = searchFromFilters({
      ...noPolicyFilters,
      statuses: ['WITHDRAWN', 'ACTIVE'],
      search: ' x ',
      order: 'oldest',
    });
    expect(params.toString()).toBe('status=ACTIVE%2CWITHDRAWN&q=x&order=oldest');
  });

  it('round-trips', () => {
    const filters = {
      ...noPolicyFilters,
      statuses: ['ACTIVE', 'TERMINATED'] as const,
      productSlug: 'car-comfort',
      search: 'POL-0001',
    };
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual(filters);
  });
});
