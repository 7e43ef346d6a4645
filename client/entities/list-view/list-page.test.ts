import { describe, expect, it } from 'vitest';
import {
  columnOrderChoices,
  listQuery,
  orderChoiceOf,
  queryWithOrderChoice,
} from './list-page.tsx';

describe('the service query a list page builds of its filters', () => {
  const fields = { name: 'lastName', created: 'createdAt' };

  it('leaves out the empty filters: an empty one means "no filter", not "match empty"', () => {
    expect(
      listQuery({ search: '', type: 'org', city: '', statuses: [] }, null, fields),
    ).toStrictEqual({
      type: 'org',
      order: null,
    });
  });

  it('adds the sorted column by its service field and the token from page 2 on', () => {
    const query = listQuery(
      { search: 'Bad & Bunt', statuses: ['open'] },
      { column: 'name', direction: 'desc' },
      fields,
      '2.41.d.x',
    );
    expect(query).toStrictEqual({
      pageToken: '2.41.d.x',
      search: 'Bad & Bunt',
      statuses: ['open'],
      order: { field: 'lastName', direction: 'DESC' },
    });
  });
});

describe('the order select and the column headers of one list agree', () => {
  const columns = ['holder', 'premium'];

  it('shows the sorted column while one decides, else the list’s own order', () => {
    expect(orderChoiceOf({ column: 'holder', direction: 'asc' }, '')).toBe('column:holder:asc');
    expect(orderChoiceOf({ column: 'holder', direction: 'desc' }, 'oldest')).toBe(
      'column:holder:desc',
    );
    expect(orderChoiceOf(null, 'oldest')).toBe('oldest');
    expect(orderChoiceOf(null, '')).toBe('');
  });

  it('offers each column in both directions, by the values it shows', () => {
    const choices = columnOrderChoices(
      [{ column: 'holder', label: 'Holder' }],
      (name, direction) => `${name} ${direction}`,
    );
    expect(choices).toEqual([
      { value: orderChoiceOf({ column: 'holder', direction: 'asc' }, ''), label: 'Holder asc' },
      { value: orderChoiceOf({ column: 'holder', direction: 'desc' }, ''), label: 'Holder desc' },
    ]);
  });

  it('sorts by a chosen column, keeping the filters and the order for later', () => {
    expect(
      queryWithOrderChoice('status=ACTIVE&order=oldest', 'column:premium:desc', { columns }),
    ).toBe('status=ACTIVE&order=oldest&sort=premium%3Adesc');
    expect(queryWithOrderChoice('sort=holder%3Aasc', 'column:premium:asc', { columns })).toBe(
      'sort=premium%3Aasc',
    );
  });

  it('ends the column sort for an order of the list’s own; the default leaves no parameter', () => {
    expect(queryWithOrderChoice('q=m%C3%BCller&sort=holder%3Aasc', 'oldest', { columns })).toBe(
      'q=m%C3%BCller&order=oldest',
    );
    expect(queryWithOrderChoice('sort=holder%3Aasc&order=oldest', '', { columns })).toBe('');
  });

  it('changes nothing for a column the list does not sort by, and keeps its own keys', () => {
    expect(queryWithOrderChoice('order=oldest', 'column:secret:asc', { columns })).toBe(
      'order=oldest',
    );
    expect(
      queryWithOrderChoice('claimsSort=holder%3Aasc', 'column:holder:desc', {
        columns,
        sortKey: 'claimsSort',
      }),
    ).toBe('claimsSort=holder%3Adesc');
  });
});
