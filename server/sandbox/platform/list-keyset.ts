import { HttpError } from './errors.ts';

/**
 * Keyset page tokens (issue 15): a sorted list pages by `(sort value, id)`, not OFFSET, so that
 * page 300 costs what page 1 does and a row saved meanwhile neither skips nor repeats a row. The
 * token is `<page>.<last id>.<a|d>[.t<total>][.<field>.<base64url of the last sort value>]`:
 * - the page number stays for a client that counts pages;
 * - the direction and the field are in it because the last row means nothing in another order,
 *   so a token of another order is a 400, not a wrong page;
 * - the value is as PostgreSQL wrote it as text, so that it compares back exactly (timestamps to
 *   the microsecond);
 * - the total (issue 14) is the first page's count of the filtered list: later pages answer it
 *   again instead of counting the whole list on every page. A token without one counts again.
 */
export interface PageToken {
  page: number;
  afterId: number | null;
  /** The sorted column's value of the last row; null for the id order or the first page. */
  afterValue: string | null;
  /** The whole filtered list's count from the first page; null: count it. */
  total: number | null;
}

/** The types a sort value is compared as, each with the shape of its text in a token. */
export const SORT_VALUE_SHAPES = {
  int: /^-?\d{1,10}$/,
  text: /^[\s\S]{0,300}$/,
  numeric: /^-?\d{1,15}(\.\d{1,10})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  timestamptz: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/,
} as const;
export type SortType = keyof typeof SORT_VALUE_SHAPES;

export const badPageToken = () =>
  new HttpError(
    400,
    'invalid_query',
    'pageToken must be 1 or the nextPageToken of the previous page in the same order',
  );

const TOKEN =
  /^(\d{1,6})\.(\d{1,10})\.([ad])(?:\.t(\d{1,9}))?(?:\.([A-Za-z]{1,20})\.([A-Za-z0-9_-]{0,400}))?$/;

export const FIRST_PAGE: PageToken = { page: 1, afterId: null, afterValue: null, total: null };

/**
 * The token of a page of the list sorted by `field` in `direction`; the first page is no token
 * or "1". `type`: the sorted value's type, whose shape a hand-made value must have (it must not
 * reach the cast as a 500).
 */
export function readPageToken(
  text: unknown,
  direction: 'ASC' | 'DESC',
  field: string = 'id',
  type?: SortType,
): PageToken {
  if (text === undefined || text === '' || text === '1') return FIRST_PAGE;
  const match = typeof text === 'string' ? TOKEN.exec(text) : null;
  if (!match || Number(match[1]) < 2 || match[3] !== direction[0]?.toLowerCase()) {
    throw badPageToken();
  }
  if ((match[5] ?? 'id') !== field) throw badPageToken();
  const afterValue =
    match[6] === undefined ? null : Buffer.from(match[6], 'base64url').toString('utf8');
  if (
    type &&
    (field !== 'id' || afterValue !== null) &&
    !SORT_VALUE_SHAPES[type].test(afterValue ?? '')
  ) {
    throw badPageToken();
  }
  return {
    page: Number(match[1]),
    afterId: Number(match[2]),
    afterValue,
    total: match[4] === undefined ? null : Number(match[4]),
  };
}

export const writePageToken = (
  page: number,
  lastId: number,
  direction: 'ASC' | 'DESC',
  sorted?: { field: string; value: string },
  total?: number,
) =>
  `${page}.${lastId}.${direction === 'ASC' ? 'a' : 'd'}` +
  (total === undefined ? '' : `.t${total}`) +
  (sorted ? `.${sorted.field}.${Buffer.from(sorted.value, 'utf8').toString('base64url')}` : '');

type PartyField = 'type' | 'last_name' | 'first_name' | 'company_name';
const JSON_PARTY_FIELDS: Record<PartyField, string> = {
  type: 'type',
  last_name: 'lastName',
  first_name: 'firstName',
  company_name: 'companyName',
};

/** A party given by value (a policy's holder, `p.holder`) as a source of its name's fields. */
export const jsonParty =
  (json: string) =>
  (field: PartyField): string =>
    `${json}->>'${JSON_PARTY_FIELDS[field]}'`;

/** A customer account row (`a`) as a source of its name's fields. */
export const accountParty =
  (alias: string) =>
  (field: PartyField): string =>
    `${alias}.${field}`;

/**
 * The sort key of a party's name, never NULL (a keyset sort): persons by last and first name,
 * companies by name, as a clerk looks a holder up. Each field is read from the first of
 * `parties` that has it (e.g. the holder given by value, else its account); `fallback` when
 * there is no name at all.
 */
export function partySortSql(
  parties: readonly ((field: PartyField) => string)[],
  fallback = "''",
): string {
  const of = (field: PartyField) => `coalesce(${parties.map((p) => p(field)).join(', ')})`;
  return `lower(coalesce(
      CASE WHEN ${of('type')} = 'person'
           THEN nullif(trim(concat_ws(' ', ${of('last_name')}, ${of('first_name')})), '')
      END,
      nullif(${of('company_name')}, ''), ${fallback}, ''))`;
}
