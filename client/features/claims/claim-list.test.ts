import { describe, expect, it } from 'vitest';
import { claimsParams } from '#client/api/claims-client.ts';
import { claimListFilters, claimsQuery, toggledStatuses } from './claim-list.ts';

const none = { status: '', type: '', search: '', sort: '' };

describe('claim list filters in the address', () => {
  it('reads statuses, type, search and sort', () => {
    expect(
      claimListFilters({
        status: 'open,in-review',
        type: 'theft',
        search: ' wasser ',
        sort: 'damage:desc',
      }),
    ).toEqual({
      statuses: ['open', 'in-review'],
      claimType: 'theft',
      search: 'wasser',
      sort: { column: 'damage', direction: 'desc' },
    });
    expect(claimListFilters(none)).toEqual({
      statuses: [],
      claimType: '',
      search: '',
      sort: null,
    });
  });

  it('drops what a hand-edited address gets wrong instead of failing the list', () => {
    expect(
      claimListFilters({
        status: 'open,,OPEN,open,drop table',
        type: 'flood',
        search: '',
        sort: 'premium:asc',
      }),
    ).toEqual({ statuses: ['open'], claimType: '', search: '', sort: null });
    expect(claimListFilters({ ...none, sort: 'number:sideways' }).sort).toBeNull();
  });

  it('writes a status choice in the order of the list shown, once each', () => {
    const shown = [{ slug: 'approved' }, { slug: 'in-review' }, { slug: 'open' }];
    expect(toggledStatuses(['open'], 'approved', true, shown)).toBe('approved,open');
    expect(toggledStatuses(['approved', 'open'], 'approved', false, shown)).toBe('open');
    expect(toggledStatuses(['open'], 'open', true, shown)).toBe('open');
    // A status from the address the tenant does not list stays, last.
    expect(toggledStatuses(['gone'], 'open', true, shown)).toBe('open,gone');
    expect(toggledStatuses(['open'], 'open', false, shown)).toBe('');
  });

  it('asks the service for the filters and the sorted column', () => {
    const query = claimsQuery(
      { statuses: ['open', 'approved'], claimType: 'damage', search: 'S-0001' },
      { column: 'damage', direction: 'asc' },
      '2.41.a.t90.damageDate.MjAyNi0wMS0wMg',
    );
    expect(query).toEqual({
      pageToken: '2.41.a.t90.damageDate.MjAyNi0wMS0wMg',
      search: 'S-0001',
      statuses: ['open', 'approved'],
      claimType: 'damage',
      order: { field: 'damageDate', direction: 'ASC' },
    });
    const params = new URLSearchParams(claimsParams(query));
    expect(params.get('filter')).toBe('status=open,approved&claimType=damage');
    expect(params.get('order')).toBe('damageDate:ASC');
    // The keyset token goes back as it came: it carries the sort and the total.
    expect(params.get('pageToken')).toBe('2.41.a.t90.damageDate.MjAyNi0wMS0wMg');
    // No sort and no filters: the service's default order, nothing filtered.
    const plain = new URLSearchParams(
      claimsParams(claimsQuery({ statuses: [], claimType: '', search: '' }, null)),
    );
    expect([...plain.keys()]).toEqual(['pageSize']);
  });
});
