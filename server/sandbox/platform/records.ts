import type { AuthContext } from './auth-context.ts';
import type { Queryable } from './db.ts';
import { notFound, type HttpError } from './errors.ts';

/** Helpers of the records every service keeps: ids in paths, audit stamps, unique keys. */

/** A numeric id from a path; anything else is as unknown as an id that names nothing. */
export function idOf(text: string, notFound: () => HttpError): number {
  if (!/^\d{1,9}$/.test(text)) throw notFound();
  return Number(text);
}

/** Who created and last changed a record, and when: the columns every table has. */
export interface Audit {
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
}
export const audit = (r: Audit) => ({
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  createdBy: r.created_by,
  updatedBy: r.updated_by,
});

/** A time as the answers carry it: UTC ISO form, whatever the driver hands back (spec section 9). */
export const iso = (value: Date | string) => new Date(value).toISOString();

/** The audit stamps with their times in UTC ISO form. */
export const auditIso = (r: Audit) => ({
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  createdBy: r.created_by,
  updatedBy: r.updated_by,
});

/**
 * A select expression for the name of the user a row's `updated_by` names (the tenant service's
 * users), null for `system` or a user without a name: screens show who saved a version by name,
 * never by code. `table` is the row's table or alias.
 */
export const updatedByNameSql = (table: string) =>
  userNameSql(`${table}.updated_by`, 'updated_by_name');

/**
 * A select expression for the name of the user whose code `column` holds, as `alias`: a stamp
 * such as who cancelled a claim reads by name also to a reader who may not list users.
 */
export const userNameSql = (column: string, alias: string) =>
  `(SELECT nullif(trim(u.first_name || ' ' || u.last_name), '') FROM users u
     WHERE u.code = ${column}) AS ${alias}`;

/**
 * The name of the calling user, for a stamp a screen shows by name (a status history's
 * `byName`, a template version's `savedByName`); their e-mail when they have no name.
 */
export async function callerNameOf(db: Queryable, auth: AuthContext): Promise<string> {
  const [row] = await db.query<{ name: string | null }>(
    `SELECT nullif(trim(first_name || ' ' || last_name), '') AS name FROM users WHERE id = $1`,
    [auth.userId],
  );
  return row?.name ?? auth.email;
}

/** PostgreSQL refused a row because a unique key holds it already. */
export const uniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * A workspace's record by the numeric id of a path: 404 `<noun> not found` for an id of another
 * workspace, one that names nothing and text that is no id alike.
 */
export async function rowById<T>(
  db: Queryable,
  kind: { table: string; columns: string; noun: string },
  tenantId: number,
  idText: string,
): Promise<T> {
  const id = idOf(idText, () => notFound(kind.noun));
  const [row] = await db.query<T>(
    `SELECT ${kind.columns} FROM ${kind.table} WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
  );
  if (!row) throw notFound(kind.noun);
  return row;
}

/**
 * A record's `{code}` path key: its numeric id or its code (`clm_...` for prefix `clm`); anything
 * else is `notFound()`, before any query. Answers whether it is the id and the value to bind.
 */
export function recordKey(
  key: string,
  prefix: string,
  notFound: () => HttpError,
): { byId: boolean; value: string | number } {
  const byId = /^\d{1,9}$/.test(key);
  if (!byId && !new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`).test(key)) throw notFound();
  return { byId, value: byId ? Number(key) : key };
}
