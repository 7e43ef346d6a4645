import { describe, expect, it } from 'vitest';
import { listParams } from './tenant-admin-client.ts';

describe('listParams', () => {
  it('encodes each filter value, so & and = inside a value stay in it', () => {
    const params = new URLSearchParams(
      listParams({
        pageSize: 30,
        filter: { type: 'person', city: 'Bad & Bunt', note: 'a=b', rate: '100%' },
      }),
    );
    const filter = params.get('filter')!;
    expect(filter).toBe('type=person&city=Bad %26 Bunt&note=a%3Db&rate=100%25');
    // What the sandbox does: split on &, then on the first =, then decode the value.
    const pairs = filter.split('&').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq), decodeURIComponent(part.slice(eq + 1))];
    });
    expect(pairs).toEqual([
      ['type', 'person'],
      ['city', 'Bad & Bunt'],
      ['note', 'a=b'],
      ['rate', '100%'],
    ]);
  });

  it('leaves plain values as they were', () => {
    const params = new URLSearchParams(
      listParams({ pageSize: 30, filter: { status: 'open,approved', email: 'a+b@x.test' } }),
    );
    expect(params.get('filter')).toBe('status=open,approved&email=a+b@x.test');
  });

  it('leaves out empty filters and sends the page only above 1', () => {
    expect(listParams({ pageSize: 10, page: 1, filter: { city: '', type: undefined } })).toBe(
      'pageSize=10',
    );
  });
});
