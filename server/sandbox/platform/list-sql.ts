import type { Request, RequestHandler } from 'express';
import { getAuth, type AuthContext } from './auth-context.ts';
import type { Queryable } from './db.ts';
import { HttpError } from './errors.ts';
import { parseListQuery, type ListQuery } from './list-query.ts';
import { offsetPage, type ListPage } from './list-page.ts';
import { escapeLike } from './admin-shared.ts';

/**
 * One list route's SQL from its list query: the WHERE from the filters given and the search, the
 * ORDER BY from a whitelisted sort, the page by OFFSET. A route declares its filters, searched
 * columns and sorts once; the parameters are always bound, the SQL expressions are constants.
 */

/** How a filter narrows the list. */
export interface Filter {
  /** The condition, given the placeholder (`$4`) of the value. */
  where(param: string): string;
  /**
   * The value bound for the filter's text (decoded already); 400 `invalid_query` for text it
   * cannot be. `undefined`: the filter does not narrow (an empty bound).
   */
  value?(text: string): unknown;
}

export interface ListSource {
  filters: Readonly<Record<string, Filter>>;
  /** Expressions the search matches (ILIKE, any of them); none: the list takes no search. */
  search?: readonly string[];
  /** Each sort the list offers and the expression it orders by. */
  orders: Readonly<Record<string, string>>;
  /** The sort when none is asked for. */
  defaultOrder: readonly [field: string, direction: 'ASC' | 'DESC'];
  /** A unique column after every sort, so that pages neither skip nor repeat rows. */
  unique: string;
  /** The unique column always ascending (older lists), not in the sort's direction. */
  uniqueAscending?: boolean;
  expands?: readonly string[];
  /** Lists with a larger page in the spec. */
  maxPageSize?: number;
}

export const invalidQuery = (message: string) => new HttpError(400, 'invalid_query', message);

/** A filter value's refusal, with the filter's path as its issue where it names none. */
function withIssue<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof HttpError && err.code === 'invalid_query' && !err.issues?.length)
      throw new HttpError(err.status, err.code, err.message, err.details, [
        { path, code: 'invalid' },
      ]);
    throw err;
  }
}

/** `column = value`. */
export const equals = (column: string): Filter => ({ where: (p) => `${column} = ${p}` });

/** `column = value`, either in any case. */
export const equalsIgnoringCase = (column: string): Filter => ({
  where: (p) => `lower(${column}) = lower(${p})`,
});

/** An id: digits only, else 400 with `message`. */
export const numeric = (column: string, message: string): Filter => ({
  where: (p) => `${column} = ${p}`,
  value: (text) => {
    if (!/^\d{1,9}$/.test(text)) throw invalidQuery(message);
    return Number(text);
  },
});

/** One of `values` (else 400 with `message`). */
export const oneOf = (column: string, values: ReadonlySet<string>, message: string): Filter => ({
  where: (p) => `${column} = ${p}`,
  value: (text) => {
    if (!values.has(text)) throw invalidQuery(message);
    return text;
  },
});

/** A comma list of values, each matching `pattern` (else 400 with `message`): any of them. */
export const anyOf = (column: string, pattern: RegExp, message: string): Filter => ({
  where: (p) => `${column} = ANY(${p}::text[])`,
  value: (text) => {
    const values = text.split(',');
    if (values.some((value) => !pattern.test(value))) throw invalidQuery(message);
    return values;
  },
});

/** Reads a list call's query for `source`: unknown filters, sorts and expands are a 400. */
export const readList = (query: Request['query'], source: ListSource): ListQuery =>
  parseListQuery(query, {
    filters: Object.keys(source.filters),
    orders: Object.keys(source.orders),
    expands: source.expands ?? [],
    maxPageSize: source.maxPageSize,
  });

/**
 * The WHERE (after the caller's own conditions, e.g. the tenant) and ORDER BY of a list query;
 * the filters' and the search's values are appended to `params`.
 */
export function listClauses(
  source: ListSource,
  list: ListQuery,
  base: { where: readonly string[]; params: readonly unknown[] },
): { where: string; orderBy: string; params: unknown[] } {
  const where = [...base.where];
  const params = [...base.params];
  for (const [field, text] of list.filter) {
    const filter = source.filters[field];
    // The refusal names the filter at fault, so that a client can show it at its control.
    const path = `filter.${field}`;
    if (!filter)
      throw new HttpError(400, 'invalid_query', `unsupported filter ${field}`, undefined, [
        { path, code: 'unsupported' },
      ]);
    const value = filter.value ? withIssue(path, () => filter.value!(text)) : text;
    if (value === undefined) continue;
    params.push(value);
    where.push(filter.where(`$${params.length}`));
  }
  if (list.search && source.search?.length) {
    params.push(escapeLike(list.search));
    const p = `$${params.length}`;
    where.push(`(${source.search.map((column) => `${column} ILIKE ${p}`).join(' OR ')})`);
  }
  const [defaultField, defaultDirection] = source.defaultOrder;
  const direction = list.order?.direction ?? defaultDirection;
  const column = source.orders[list.order?.field ?? defaultField] ?? source.orders[defaultField];
  return {
    where: where.join(' AND '),
    orderBy: `${column} ${direction}, ${source.unique} ${source.uniqueAscending ? 'ASC' : direction}`,
    params,
  };
}

/** One page of `select` (everything before its WHERE) narrowed and sorted as the list asks. */
export async function listPage<T>(
  db: Queryable,
  list: ListQuery,
  source: ListSource,
  select: string,
  base: { where: readonly string[]; params: readonly unknown[] },
): Promise<ListPage<T>> {
  const { where, orderBy, params } = listClauses(source, list, base);
  return offsetPage<T>(db, list, `${select}\n WHERE ${where}\n ORDER BY ${orderBy}`, params);
}

/**
 * `GET` of a workspace's list: one page of `select` where `tenantColumn` is the caller's
 * workspace, narrowed and sorted as the query asks, each row presented by `present`.
 */
export function listRoute<T>(
  db: Queryable,
  source: ListSource,
  select: string,
  tenantColumn: string,
  present: (rows: T[], list: ListQuery, auth: AuthContext) => unknown[] | Promise<unknown[]>,
): RequestHandler {
  return async (req, res) => {
    const auth = getAuth(res);
    const list = readList(req.query, source);
    const page = await listPage<T>(db, list, source, select, {
      where: [`${tenantColumn} = $1`],
      params: [auth.tenantId],
    });
    res.json({
      items: await present(page.items, list, auth),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    });
  };
}
