import { Router, type Request } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { HttpError, notFound } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { escapeLike } from '#server/sandbox/platform/admin-shared.ts';
import { offsetPage } from '#server/sandbox/platform/list-page.ts';
import type { Audit } from '#server/sandbox/platform/records.ts';

const canView = requireServicePermission('partner-management', 'partners', 'view');

export interface PartnerRow extends Audit {
  id: number;
  code: string;
  display_name: string;
  partner_type_id: number;
  partner_number: string;
  account_code: string | null;
  custom_fields: Record<string, unknown>;
  version: number;
}
interface TypeRow {
  id: number;
  code: string;
  name: string;
  slug: string;
}
interface TagRow {
  code: string;
  slug: string;
  label: string;
  description: string;
}

export const PARTNER_COLUMNS = `p.id, p.code, p.display_name, p.partner_type_id, p.partner_number, p.account_code,
  p.custom_fields, p.version, p.created_at, p.updated_at, p.created_by, p.updated_by`;
const EXPANDS = ['partnerType', 'tags'] as const;

/** Loads the expansions of a page of partners in two queries, not two per partner. */
export async function presentPartners(
  db: Queryable,
  tenantId: number,
  rows: PartnerRow[],
  expand: Set<string>,
) {
  const ids = rows.map((r) => r.id);
  const types = new Map<number, TypeRow>();
  if (expand.has('partnerType') && rows.length) {
    for (const t of await db.query<TypeRow>(
      'SELECT id, code, name, slug FROM partner_types WHERE tenant_id = $1 AND id = ANY($2::int[])',
      [tenantId, [...new Set(rows.map((r) => r.partner_type_id))]],
    )) {
      types.set(t.id, t);
    }
  }
  const tags = new Map<number, TagRow[]>();
  if (expand.has('tags') && rows.length) {
    for (const t of await db.query<TagRow & { partner_id: number }>(
      `SELECT l.partner_id, g.code, g.slug, g.label, g.description
         FROM partner_tag_links l JOIN partner_tags g ON g.id = l.tag_id
        WHERE l.tenant_id = $1 AND l.partner_id = ANY($2::int[]) ORDER BY g.label`,
      [tenantId, ids],
    )) {
      const { partner_id: partnerId, ...tag } = t;
      tags.set(partnerId, [...(tags.get(partnerId) ?? []), tag]);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    displayName: r.display_name,
    partnerTypeId: r.partner_type_id,
    ...(expand.has('partnerType') ? { partnerType: types.get(r.partner_type_id) ?? null } : {}),
    ...(expand.has('tags') ? { tags: tags.get(r.id) ?? [] } : {}),
    partnerNumber: r.partner_number,
    accountCode: r.account_code,
    customFields: r.custom_fields,
    version: r.version,
    ern: `ern:partner:partner:${r.code}`,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
    updatedBy: r.updated_by,
  }));
}

function expandOf(raw: unknown): Set<string> {
  // The list parser's expand check, so that a single item refuses what a list refuses.
  return parseListQuery({ expand: raw } as Request['query'], {
    filters: [],
    orders: [],
    expands: EXPANDS,
  }).expand;
}

const ORDERS: Record<string, string> = {
  displayName: 'lower(p.display_name)',
  partnerNumber: 'p.partner_number',
  id: 'p.id',
  createdAt: 'p.created_at',
};

export function partnerRouter(deps: { db: Db; signer: TokenSigner }): Router {
  const { db } = deps;
  const router = Router();
  router.use(requireAuth(db, deps.signer));

  router.get('/partners', canView, async (req, res) => {
    const auth = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['id', 'code', 'partnerTypeId', 'partnerType', 'tagSlugs'],
      orders: Object.keys(ORDERS),
      expands: EXPANDS,
    });
    const where = ['p.tenant_id = $1'];
    const params: unknown[] = [auth.tenantId];
    for (const [field, value] of list.filter) {
      if (field === 'id' || field === 'partnerTypeId') {
        if (!/^\d{1,9}$/.test(value)) {
          throw new HttpError(400, 'invalid_query', `${field} must be numeric`);
        }
        params.push(Number(value));
        where.push(`p.${field === 'id' ? 'id' : 'partner_type_id'} = $${params.length}`);
      } else if (field === 'code') {
        params.push(value);
        where.push(`p.code = $${params.length}`);
      } else if (field === 'partnerType') {
        params.push(value);
        where.push(`EXISTS (SELECT 1 FROM partner_types t WHERE t.id = p.partner_type_id
                      AND t.tenant_id = p.tenant_id AND t.slug = $${params.length})`);
      } else {
        // tagSlugs=broker,agent: partners carrying any of the named tags.
        const slugs = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (!slugs.length || slugs.length > 20) {
          throw new HttpError(400, 'invalid_query', 'tagSlugs needs 1 to 20 slugs');
        }
        params.push(slugs);
        where.push(`EXISTS (SELECT 1 FROM partner_tag_links l JOIN partner_tags g ON g.id = l.tag_id
                      WHERE l.partner_id = p.id AND g.tenant_id = p.tenant_id
                        AND g.slug = ANY($${params.length}::text[]))`);
      }
    }
    if (list.search) {
      params.push(escapeLike(list.search));
      const p = `$${params.length}`;
      where.push(`(p.display_name ILIKE ${p} OR p.partner_number ILIKE ${p} OR p.code ILIKE ${p})`);
    }
    const order = list.order
      ? `${ORDERS[list.order.field] ?? 'p.id'} ${list.order.direction}, p.id ${list.order.direction}`
      : 'p.id';
    const page = await offsetPage<PartnerRow>(
      db,
      list,
      `SELECT ${PARTNER_COLUMNS} FROM partners p WHERE ${where.join(' AND ')} ORDER BY ${order}`,
      params,
    );
    res.json({
      items: await presentPartners(db, auth.tenantId, page.items, list.expand),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    });
  });

  router.get('/partners/:id', canView, async (req, res) => {
    const auth = getAuth(res);
    const expand = expandOf(req.query.expand);
    const ref = String(req.params.id);
    const byId = /^\d{1,9}$/.test(ref);
    if (!byId && !/^ptn_[a-z0-9]{1,40}$/.test(ref)) throw notFound('partner');
    const rows = await db.query<PartnerRow>(
      `SELECT ${PARTNER_COLUMNS} FROM partners p WHERE p.tenant_id = $1 AND p.${byId ? 'id' : 'code'} = $2`,
      [auth.tenantId, byId ? Number(ref) : ref],
    );
    if (!rows.length) throw notFound('partner');
    const [partner] = await presentPartners(db, auth.tenantId, rows, expand);
    res.json({ partner });
  });

  router.get('/tags', canView, async (_req, res) => {
    const auth = getAuth(res);
    const items = await db.query<TagRow>(
      'SELECT code, slug, label, description FROM partner_tags WHERE tenant_id = $1 ORDER BY label',
      [auth.tenantId],
    );
    res.json({ items, nextPageToken: null });
  });

  router.get('/partner-types', canView, async (_req, res) => {
    const auth = getAuth(res);
    const items = await db.query<TypeRow>(
      'SELECT id, code, name, slug FROM partner_types WHERE tenant_id = $1 ORDER BY id',
      [auth.tenantId],
    );
    res.json({ items, nextPageToken: null });
  });

  return router;
}
