import { describe, expect, it } from 'vitest';
import { listParams } from './tenant-admin-client.ts';

describe('listParams', () => {
  it('encodes each filter value, so & and = inside a value stay in it', () => {
    const params = new URLSearchParams(
      listParams({ pageSize: 30, filter: { type: 'person', city: 'Bad & Bunt', note: 'a=b' } }),
    );
    const filter = params.get('filter')!;
    expect(filter).toBe('type=person&city=Bad%20%26%20Bunt&note=a%3Db');
    // What the sandbox does: split on &, then on the first =, then decode the value.
    const pairs = filter.split('&').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq), decodeURIComponent(part.slice(eq + 1))];
    });
    expect(pairs).toEqual([
      ['type', 'person'],
      ['city', 'Bad & Bunt'],
      ['note', 'a=b'],
    ]);
  });

  it('leaves out empty filters and sends the page only above 1', () => {
    expect(listParams({ pageSize: 10, page: 1, filter: { city: '', type: undefined } })).toBe(
      'pageSize=10',
    );
  });
});
