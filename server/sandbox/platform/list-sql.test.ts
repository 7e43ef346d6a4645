import { describe, expect, it } from 'vitest';
import {
  anyOf,
  equals,
  equalsIgnoringCase,
  listClauses,
  numeric,
  readList,
  type ListSource,
} from './list-sql.ts';

const SOURCE: ListSource = {
  filters: {
    city: equals('c.city'),
    email: equalsIgnoringCase('c.email'),
    id: numeric('c.id', 'id must be numeric'),
    status: anyOf('c.status', /^[a-z]+$/, 'status must be a status or a comma list'),
    from: { where: (p) => `c.created_at >= ${p}`, value: (text) => text || undefined },
  },
  search: ['c.name', 'c.email'],
  orders: { id: 'c.id', name: 'lower(c.name)' },
  defaultOrder: ['id', 'DESC'],
  unique: 'c.id',
};
const BASE = { where: ['c.tenant_id = $1'], params: [7] };

const clauses = (query: Record<string, string>, source = SOURCE) =>
  listClauses(source, readList(query, source), BASE);

describe('listClauses', () => {
  it('narrows by each filter given, its value bound after the caller’s own', () => {
    const { where, params } = clauses({
      filter: `city=${encodeURIComponent('Bad & Bunt')}&email=A@x.test&id=4&status=open,closed`,
    });
    expect(where).toBe(
      'c.tenant_id = $1 AND c.city = $2 AND lower(c.email) = lower($3) AND c.id = $4' +
        ' AND c.status = ANY($5::text[])',
    );
    // A value holding `&` arrives encoded and is bound whole.
    expect(params).toEqual([7, 'Bad & Bunt', 'A@x.test', 4, ['open', 'closed']]);
  });

  it('refuses a value its filter cannot read, and an unknown filter, as invalid_query', () => {
    expect(() => clauses({ filter: 'id=4a' })).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'invalid_query',
        message: 'id must be numeric',
        issues: [{ path: 'filter.id', code: 'invalid' }],
      }),
    );
    expect(() => clauses({ filter: 'status=Open' })).toThrow('status must be a status');
    expect(() => clauses({ filter: 'owner=me' })).toThrow(
      expect.objectContaining({
        code: 'invalid_query',
        message: 'unsupported filter owner',
        issues: [{ path: 'filter.owner', code: 'unsupported' }],
      }),
    );
  });

  it('skips a filter whose value says it does not narrow', () => {
    expect(clauses({ filter: 'from=' }).where).toBe('c.tenant_id = $1');
  });

  it('searches every column with one escaped pattern', () => {
    const { where, params } = clauses({ search: '50%_off' });
    expect(where).toBe('c.tenant_id = $1 AND (c.name ILIKE $2 OR c.email ILIKE $2)');
    expect(params[1]).toBe('%50\\%\\_off%');
    // A list without searched columns takes no search.
    expect(clauses({ search: 'x' }, { ...SOURCE, search: undefined }).where).toBe(
      'c.tenant_id = $1',
    );
  });

  it('sorts by a whitelisted field or the default, ending in the unique column', () => {
    expect(clauses({}).orderBy).toBe('c.id DESC, c.id DESC');
    expect(clauses({ order: 'name:ASC' }).orderBy).toBe('lower(c.name) ASC, c.id ASC');
    expect(clauses({ order: 'name DESC' }, { ...SOURCE, uniqueAscending: true }).orderBy).toBe(
      'lower(c.name) DESC, c.id ASC',
    );
    expect(() => clauses({ order: 'secret' })).toThrow('unsupported order secret');
  });
});
