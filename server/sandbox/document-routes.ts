import { Router } from 'express';
import type { Db } from './db.ts';
import type { SandboxContext } from './sandbox.ts';
import {
  HttpError,
  getAuth,
  pageOf,
  parseListQuery,
  requireAuth,
  requireServicePermission,
} from './http.ts';
import { escapeLike } from './admin-shared.ts';

/**
 * The document service's document list (upstream contract, "Documents"): metadata of the files of
 * a lead, a policy, later a claim or an invoice. Read-only for now; uploads and downloads arrive
 * with the claims. Decisions are in docs/contracts.md, "Insurance: leads".
 */

const VIEW = requireServicePermission('document-management', 'documents', 'view');

/** Spec section 9: invoice and claim documents are asked for 100 at a time. */
const MAX_DOCUMENTS_PAGE_SIZE = 100;

interface DocumentRow {
  id: number;
  code: string;
  entity_type: string;
  entity_id: string;
  policy_code: string | null;
  lead_code: string | null;
  description: string;
  content_type: string;
  filename: string;
  s3_key: string;
  requester: string;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
}

const FILTER_COLUMNS: Record<string, string> = {
  entityType: 'entity_type',
  entityId: 'entity_id',
  policyCode: 'policy_code',
  leadCode: 'lead_code',
  requester: 'requester',
  code: 'code',
};
const ORDERS: Record<string, string> = { createdAt: 'created_at', id: 'id', filename: 'filename' };

function presentDocument(r: DocumentRow) {
  return {
    id: r.id,
    code: r.code,
    policyCode: r.policy_code,
    leadCode: r.lead_code,
    entityType: r.entity_type,
    entityId: r.entity_id,
    description: r.description,
    contentType: r.content_type,
    filename: r.filename,
    s3Key: r.s3_key,
    requester: r.requester,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    createdBy: r.created_by,
    updatedBy: r.updated_by,
  };
}

export function documentRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/documents', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: Object.keys(FILTER_COLUMNS),
      orders: Object.keys(ORDERS),
      expands: [],
      maxPageSize: MAX_DOCUMENTS_PAGE_SIZE,
    });
    // A whole tenant's documents in one list serves nobody: the spec always names an owner.
    const owner = ['entityId', 'policyCode', 'leadCode', 'code'].some((f) => list.filter.has(f));
    if (!owner) {
      throw new HttpError(
        400,
        'invalid_query',
        'filter by entityId (with entityType), policyCode, leadCode or code',
      );
    }
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    for (const [field, value] of list.filter) {
      params.push(value);
      where.push(`${FILTER_COLUMNS[field]} = $${params.length}`);
    }
    if (list.search) {
      params.push(escapeLike(list.search));
      where.push(`(filename ILIKE $${params.length} OR description ILIKE $${params.length})`);
    }
    // Newest first unless asked otherwise.
    const direction = list.order?.direction ?? 'DESC';
    const order = `${ORDERS[list.order?.field ?? 'createdAt']} ${direction}, id ${direction}`;
    params.push(list.pageSize + 1, (list.page - 1) * list.pageSize);
    const rows = await db.query<DocumentRow>(
      `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY ${order}
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const page = pageOf(rows, list);
    res.json({ items: page.items.map(presentDocument), nextPageToken: page.nextPageToken });
  });

  return router;
}
