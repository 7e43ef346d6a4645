import type { Request } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { sha256 } from '#server/sandbox/platform/crypto.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';

/**
 * The `Idempotency-Key` of a money write (docs/contracts.md, "Billing and payments"): the first
 * request with a key does the write; the same key with the same body answers what it made
 * again; the same key with another body is a 422. The guard is the unique (tenant, key) of
 * `idempotency_keys`, taken inside the write's transaction: a second request with the key waits
 * on the first one's row (PostgreSQL) or its transaction (PGlite) and then finds it, so two at
 * once book once, also from two processes on one database. A write that fails rolls its key back
 * with it, so a retry with the key is taken afresh.
 */

const KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's key; null without one, unless `required` (400 `idempotency_key_missing`). */
export function idempotencyKeyOf(req: Request, required: boolean): string | null {
  const key = req.get('Idempotency-Key');
  if (key === undefined || key === '') {
    if (!required) return null;
    throw new HttpError(400, 'idempotency_key_missing', 'the Idempotency-Key header is required');
  }
  if (!KEY.test(key))
    throw new HttpError(
      400,
      'idempotency_key_invalid',
      'the Idempotency-Key must be 1 to 255 printable characters',
    );
  return key;
}

/** A body as one string whatever the order of its keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * Takes `key` for a write of `scope` with `body` in the transaction: answers null when this
 * request is the first (write, then `settleIdempotencyKey`), or the id the first one made.
 */
export async function takeIdempotencyKey(
  tx: Queryable,
  tenantId: number,
  key: string,
  scope: string,
  body: unknown,
  by: string,
): Promise<number | null> {
  const hash = sha256(`${scope}\n${canonical(body)}`);
  const taken = await tx.query(
    `INSERT INTO idempotency_keys (tenant_id, key, scope, request_hash, created_by)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tenant_id, key) DO NOTHING RETURNING id`,
    [tenantId, key, scope, hash, by],
  );
  if (taken.length) return null;
  const [first] = await tx.query<{ request_hash: string; resource_id: number | null }>(
    'SELECT request_hash, resource_id FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
    [tenantId, key],
  );
  if (!first || first.request_hash !== hash || first.resource_id === null)
    throw new HttpError(
      422,
      'idempotency_key_reused',
      'this Idempotency-Key was used for another request; send a new key for a new request',
    );
  return first.resource_id;
}

/** Records what the first request with the key made. */
export async function settleIdempotencyKey(
  tx: Queryable,
  tenantId: number,
  key: string,
  resourceId: number,
): Promise<void> {
  await tx.query('UPDATE idempotency_keys SET resource_id = $3 WHERE tenant_id = $1 AND key = $2', [
    tenantId,
    key,
    resourceId,
  ]);
}

/**
 * A write under an optional key in one transaction: the first request with the key runs
 * `write` (its answer, the made record's id, is kept with the key); a replay answers that id.
 */
export async function idempotentWrite(
  db: Db,
  who: { tenantId: number; userCode: string },
  key: string | null,
  request: { scope: string; body: unknown },
  write: (tx: Queryable) => Promise<number>,
): Promise<{ id: number; replayed: boolean }> {
  return db.transaction(async (tx) => {
    if (key) {
      const first = await takeIdempotencyKey(
        tx,
        who.tenantId,
        key,
        request.scope,
        request.body,
        who.userCode,
      );
      if (first !== null) return { id: first, replayed: true };
    }
    const made = await write(tx);
    if (key) await settleIdempotencyKey(tx, who.tenantId, key, made);
    return { id: made, replayed: false };
  });
}
