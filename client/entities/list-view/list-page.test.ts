import { describe, expect, it } from 'vitest';
import { listQuery } from './list-page.tsx';

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
