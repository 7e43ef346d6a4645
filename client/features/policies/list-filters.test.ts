import { describe, expect, it } from 'vitest';
import { noPolicyFilters } from '#client/entities/policy/policies-table.tsx';
import { filtersFromSearch, statusesParam } from './list-filters.ts';

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

  it('writes the statuses once each, in the order of the status list', () => {
    expect(statusesParam([])).toBe('');
    expect(statusesParam(['WITHDRAWN', 'ACTIVE', 'WITHDRAWN'])).toBe('ACTIVE,WITHDRAWN');
  });

  it('reads back the statuses it writes', () => {
    const statuses = ['TERMINATED', 'ACTIVE'] as const;
    const params = new URLSearchParams({ status: statusesParam(statuses) });
    expect(filtersFromSearch(params).statuses).toEqual(['ACTIVE', 'TERMINATED']);
  });
});
