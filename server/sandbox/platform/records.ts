import type { HttpError } from './errors.ts';

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

/** PostgreSQL refused a row because a unique key holds it already. */
export const uniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
