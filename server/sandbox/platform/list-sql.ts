import type { Request, RequestHandler, Router } from 'express';
import { getAuth, type AuthContext } from './auth-context.ts';
import type { Queryable } from './db.ts';
import { HttpError } from './errors.ts';
import { parseListQuery, type ListQuery } from './list-query.ts';
import { countOf, listTotals, offsetPage, type ListPage } from './list-page.ts';
import { FIRST_PAGE, readPageToken, writePageToken, type SortType } from './list-keyset.ts';
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
  /**
   * Expressions the search matches (ILIKE, any of them), or a condition given the search's
   * placeholder (`$4`), for a match through another table; none: the list takes no search.
   */
  search?: readonly (string | ((param: string) => string))[];
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
  /**
   * Lists paged by keyset on (sort, unique) rather than OFFSET (list-keyset.ts): the type each
   * sort's value is compared as, one per entry of `orders`, whose expressions must never be NULL
   * (the row comparison would drop the row). The unique column follows the sort's direction.
   */
  keyset?: Readonly<Record<string, SortType>>;
  /**
   * What a keyset list's first page counts, when lighter than its select: the same FROM and the
   * joins its filters and search need, no columns. A join that can narrow the rows must stay.
   */
  countFrom?: string;
  /**
   * A keyset list's first page counts at most this many rows and answers `totalItemsAbove`
   * beyond it: counting a million invoices cost the first page 220 ms (decision 016).
   */
  countCap?: number;
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

/**
 * Reads a list call's query for `source`: unknown filters, sorts and expands are a 400. A keyset
 * list's page token is read with its sort (keysetPage); a page number (the upstream contract's
 * 1, 2, ...) is an OFFSET page there too.
 */
export function readList(query: Request['query'], source: ListSource): ListQuery {
  const { pageToken, ...rest } = query;
  const numbered = !source.keyset || pageToken === undefined || /^\d{1,6}$/.test(String(pageToken));
  return parseListQuery(numbered ? query : rest, {
    filters: Object.keys(source.filters),
    orders: Object.keys(source.orders),
    expands: source.expands ?? [],
    maxPageSize: source.maxPageSize,
  });
}

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
    const matches = source.search.map((column) =>
      typeof column === 'string' ? `${column} ILIKE ${p}` : column(p),
    );
    where.push(`(${matches.join(' OR ')})`);
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

/**
 * One page of `select` (everything before its WHERE) narrowed and sorted as the list asks. A
 * keyset list (`source.keyset`) reads the page after the token's row: pass the call's pageToken.
 */
export async function listPage<T>(
  db: Queryable,
  list: ListQuery,
  source: ListSource,
  select: string,
  base: { where: readonly string[]; params: readonly unknown[] },
  pageToken?: unknown,
): Promise<ListPage<T>> {
  const { where, orderBy, params } = listClauses(source, list, base);
  if (!source.keyset || (list.page > 1 && /^\d+$/.test(String(pageToken)))) {
    return offsetPage<T>(db, list, `${select}\n WHERE ${where}\n ORDER BY ${orderBy}`, params);
  }
  return keysetPage<T>(db, list, source, source.keyset, select, { where, params }, pageToken);
}

/** Rows of a keyset list carry their numeric id (the unique column's value). */
async function keysetPage<T>(
  db: Queryable,
  list: ListQuery,
  source: ListSource,
  types: Readonly<Record<string, SortType>>,
  select: string,
  filtered: { where: string; params: unknown[] },
  pageToken: unknown,
): Promise<ListPage<T>> {
  const [defaultField, defaultDirection] = source.defaultOrder;
  const field = list.order?.field ?? defaultField;
  const direction = list.order?.direction ?? defaultDirection;
  const sort = source.orders[field];
  const type = types[field];
  if (!sort || !type) throw invalidQuery(`unsupported order ${field}`);
  const token =
    pageToken === undefined ? FIRST_PAGE : readPageToken(pageToken, direction, field, type);
  const params = [...filtered.params];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const after =
    token.afterId === null
      ? ''
      : ` AND (${sort}, ${source.unique}) ${direction === 'ASC' ? '>' : '<'} ` +
        `(${bind(token.afterValue)}::${type}, ${bind(token.afterId)})`;
  // The sort value of each row, for the next page's token (as text, see list-keyset.ts).
  const sql =
    select.replace(/^\s*SELECT\s/i, `SELECT (${sort})::text AS sort__value, `) +
    `\n WHERE ${filtered.where}${after}` +
    `\n ORDER BY ${sort} ${direction}, ${source.unique} ${direction}` +
    `\n LIMIT ${bind(list.pageSize + 1)}`;
  const [rows, counted] = await Promise.all([
    db.query<T & { id: number; sort__value: string }>(sql, params),
    // Counted on the first page only; later pages carry it in their token (issue 14). A capped
    // count carries cap + 1 there, which reads back as "more than the cap".
    token.total ??
      countOf(
        db,
        `${source.countFrom ?? select}\n WHERE ${filtered.where}`,
        filtered.params,
        source.countCap,
      ),
  ]);
  const countCapped = source.countCap !== undefined && counted > source.countCap;
  const more = rows.length > list.pageSize;
  const page = more ? rows.slice(0, list.pageSize) : rows;
  const last = page.at(-1);
  return {
    items: page.map(({ sort__value: _, ...row }) => row as unknown as T),
    nextPageToken:
      more && last
        ? writePageToken(
            token.page + 1,
            last.id,
            direction,
            { field, value: last.sort__value },
            counted,
          )
        : null,
    totalItems: countCapped ? source.countCap! : counted,
    ...(countCapped ? { countCapped } : {}),
  };
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
    const page = await listPage<T>(
      db,
      list,
      source,
      select,
      { where: [`${tenantColumn} = $1`], params: [auth.tenantId] },
      req.query.pageToken,
    );
    res.json({
      items: await present(page.items, list, auth),
      nextPageToken: page.nextPageToken,
      ...listTotals(page),
    });
  };
}

/** A record type as its two read routes serve it: listed by `source`, found one by its code. */
export interface ReadSource<T> {
  source: ListSource;
  select: string;
  /** The column the caller's tenant is matched on (`c.tenant_id`). */
  tenantColumn: string;
  /** The single record's key in the answer (`{ claim: ... }`). */
  key: string;
  /** One record of the tenant by its code, or a 404. */
  find(db: Queryable, tenantId: number, code: string): Promise<T>;
  present(row: T): unknown;
}

/**
 * Mounts the list of a record type at `path` (`listRoute`, each row presented alone) and one
 * record at `path/:code`, both behind `guard`: the reads every record type of a service repeats.
 */
export function mountReads<T>(
  router: Router,
  db: Queryable,
  path: string,
  guard: RequestHandler,
  read: ReadSource<T>,
): void {
  router.get(
    path,
    guard,
    listRoute<T>(db, read.source, read.select, read.tenantColumn, (rows) => rows.map(read.present)),
  );
  router.get(`${path}/:code`, guard, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await read.find(db, tenantId, String(req.params.code));
    res.json({ [read.key]: read.present(row) });
  });
}
