import { Router } from 'express';
import * as v from 'valibot';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { HttpError, notFound } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth } from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  ListViewCreateBody,
  ListViewListName,
  ListViewUpdateBody,
} from '#common/contracts/tenant.ts';

/**
 * Saved list views under /tenantservice/v1/list-views: a named query string of one list (the
 * filters, search and order the list carries in its address). A view is its owner's; shared, every
 * user of the same workspace sees it and may apply it, but only the owner changes or deletes it.
 * No permission beyond being signed in: a view only remembers a query, and the list itself still
 * checks what the user may read.
 */

interface ViewRow {
  id: number;
  code: string;
  owner_id: number;
  owner_name: string;
  list: string;
  name: string;
  query: string;
  shared: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const MAX_VIEWS_PER_LIST = 50;

const SELECT = `SELECT lv.id, lv.code, lv.owner_id, lv.list, lv.name, lv.query, lv.shared,
       lv.version, lv.created_at, lv.updated_at,
       trim(u.first_name || ' ' || u.last_name) AS owner_name
  FROM list_views lv JOIN users u ON u.id = lv.owner_id`;

function present(row: ViewRow, userId: number) {
  return {
    id: row.id,
    code: row.code,
    list: row.list,
    name: row.name,
    query: row.query,
    shared: row.shared,
    isOwn: row.owner_id === userId,
    owner: { name: row.owner_name },
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A duplicate name is the unique index speaking; say so instead of a 500. */
function nameTaken(err: unknown): never {
  if ((err as { code?: string }).code === '23505')
    throw new HttpError(
      409,
      'name_taken',
      'name: you already have a view of this list with this name',
    );
  throw err;
}

export function listViewRouter(deps: { db: Db; signer: TokenSigner }): Router {
  const { db } = deps;
  const router = Router();
  router.use('/list-views', requireAuth(db, deps.signer));

  /** A view the caller may see: their own or a shared one of the same workspace. */
  async function visible(tenantId: number, userId: number, code: string): Promise<ViewRow> {
    const [row] = await db.query<ViewRow>(
      `${SELECT} WHERE lv.tenant_id = $1 AND lv.code = $2 AND (lv.owner_id = $3 OR lv.shared)`,
      [tenantId, code, userId],
    );
    if (!row) throw notFound('list view');
    return row;
  }
  async function own(tenantId: number, userId: number, code: string): Promise<ViewRow> {
    const row = await visible(tenantId, userId, code);
    if (row.owner_id !== userId)
      throw new HttpError(403, 'forbidden', 'only the owner can change or delete a view');
    return row;
  }

  router.get('/list-views', async (req, res) => {
    const auth = getAuth(res);
    const filter = new URLSearchParams(
      typeof req.query.filter === 'string' ? req.query.filter : '',
    );
    const list = filter.get('list');
    if (!list || !v.is(ListViewListName, list))
      throw new HttpError(400, 'bad_request', 'filter list is required (filter=list=customers)');
    const rows = await db.query<ViewRow>(
      `${SELECT} WHERE lv.tenant_id = $1 AND lv.list = $2 AND (lv.owner_id = $3 OR lv.shared)
        ORDER BY lv.owner_id <> $3, lower(lv.name), lv.id`,
      [auth.tenantId, list, auth.userId],
    );
    res.json({ items: rows.map((r) => present(r, auth.userId)), nextPageToken: null });
  });

  router.post('/list-views', async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(ListViewCreateBody, req.body);
    const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM list_views WHERE tenant_id = $1 AND owner_id = $2 AND list = $3',
      [auth.tenantId, auth.userId, body.list],
    );
    if (count >= MAX_VIEWS_PER_LIST)
      throw new HttpError(409, 'too_many_views', `at most ${MAX_VIEWS_PER_LIST} views per list`);
    const code = newCode('lvw');
    await db
      .query(
        `INSERT INTO list_views (tenant_id, code, owner_id, list, name, query, shared, created_by,
                                 updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [
          auth.tenantId,
          code,
          auth.userId,
          body.list,
          body.name,
          body.query,
          body.shared,
          auth.userCode,
        ],
      )
      .catch(nameTaken);
    res
      .status(201)
      .json({ listView: present(await visible(auth.tenantId, auth.userId, code), auth.userId) });
  });

  router.get('/list-views/:code', async (req, res) => {
    const auth = getAuth(res);
    const row = await visible(auth.tenantId, auth.userId, String(req.params.code));
    res.json({ listView: present(row, auth.userId) });
  });

  router.put('/list-views/:code', async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(ListViewUpdateBody, req.body);
    const current = await own(auth.tenantId, auth.userId, String(req.params.code));
    const updated = await db
      .query<{ id: number }>(
        `UPDATE list_views SET name = $3, query = $4, shared = $5, version = version + 1,
                updated_at = now(), updated_by = $6
          WHERE tenant_id = $1 AND id = $2 AND version = $7 RETURNING id`,
        [
          auth.tenantId,
          current.id,
          body.name,
          body.query,
          body.shared,
          auth.userCode,
          body.version,
        ],
      )
      .catch(nameTaken);
    const latest = await visible(auth.tenantId, auth.userId, current.code);
    if (!updated.length) {
      throw new HttpError(
        409,
        'version_conflict',
        `view was changed meanwhile (version ${latest.version}, yours ${body.version})`,
        { listView: present(latest, auth.userId) },
      );
    }
    res.json({ listView: present(latest, auth.userId) });
  });

  router.delete('/list-views/:code', async (req, res) => {
    const auth = getAuth(res);
    const row = await own(auth.tenantId, auth.userId, String(req.params.code));
    await db.query('DELETE FROM list_views WHERE tenant_id = $1 AND id = $2', [
      auth.tenantId,
      row.id,
    ]);
    res.status(204).end();
  });

  return router;
}
