import { Router, type Response } from 'express';
import type { Db } from '#server/sandbox/platform/db.ts';
import { offsetPage } from '#server/sandbox/platform/list-page.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { escapeLike, newCode } from '#server/sandbox/platform/admin-shared.ts';
import type { ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { hasPermission } from '#common/permissions.ts';
import {
  CLAIM_DOCUMENT_DELETE_PERMISSIONS,
  CLAIM_DOCUMENT_ENTITY_TYPE,
  CLAIM_DOCUMENT_UPLOAD_PERMISSIONS,
  CLAIM_DOCUMENT_VIEW_PERMISSIONS,
  UPLOAD_POLICY_SECONDS,
  contentTypeOfName,
  shortContentType,
  type DocumentContentType,
} from '#common/claim-documents.ts';
import { PreSignedPostBody } from '#common/contracts/document.ts';
import type { Audit } from '#server/sandbox/platform/records.ts';
import { ensurePrinted, type IssuedDocument } from './issued-documents.ts';
import { pdfRendererOf } from './pdf-renderer.ts';
import { documentFiles } from './document-files.ts';

/**
 * The document service (upstream contract, "Documents"): metadata of the files of a lead, a
 * policy, a claim; signed uploads and downloads for the object store (which holds the bytes and
 * checks the signatures, see storage-routes.ts). Decisions are in docs/contracts.md, "Insurance:
 * leads" and "Claims and documents".
 */

const DOCUMENT_VIEW = ['document-management.documents.view', 'eis.documents.view'] as const;
/**
 * Claim documents are also the claims handler's: the claims permission reads them too (the list
 * holds the documents permissions as well; other kinds of document are checked per row).
 */
const VIEW_ANY = requirePermission(...CLAIM_DOCUMENT_VIEW_PERMISSIONS);
const UPLOAD = requirePermission(...CLAIM_DOCUMENT_UPLOAD_PERMISSIONS);
const DELETE = requirePermission(...CLAIM_DOCUMENT_DELETE_PERMISSIONS);
/** Searching goes over every kind of document: the documents permission itself. */
const SEARCH = requirePermission(...DOCUMENT_VIEW);

/** A document of another kind than a claim's needs the documents permission itself. */
function assertCanRead(auth: AuthContext, entityType: string): void {
  if (entityType === CLAIM_DOCUMENT_ENTITY_TYPE) return;
  if (!DOCUMENT_VIEW.some((p) => hasPermission(auth.permissions, p))) {
    throw new HttpError(403, 'forbidden', 'missing permission document-management.documents.view');
  }
}

/** Spec section 9: invoice and claim documents are asked for 100 at a time. */
const MAX_DOCUMENTS_PAGE_SIZE = 100;

export interface DocumentRow extends Audit {
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
  status: 'pending' | 'stored';
  account_code: string | null;
  template_slug: string | null;
  size_bytes: number | null;
  upload_expires_at: Date | null;
  issued: IssuedDocument | null;
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

export function presentDocument(r: DocumentRow) {
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
    // The spec's claim document fields beside the contract's.
    accountCode: r.account_code,
    templateSlug: r.template_slug,
    sizeBytes: r.size_bytes,
    documentId: r.id,
    documentUpdatedAt: new Date(r.updated_at).toISOString(),
    cashedUser: r.updated_by,
  };
}

/** An instant of the time filter: ISO 8601 with a zone, anything else a clear 400. */
function instant(field: string, value: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) {
    throw new HttpError(400, 'invalid_query', `${field} must be an ISO date-time with a zone`);
  }
  return new Date(ms).toISOString();
}

/** Kept here for its readers (document templates print under the same header). */
export { attachmentHeader } from './document-files.ts';

// --- Document search (docs/contracts.md, "Document search") ------------------------------------

/**
 * The searchable documents of a tenant with their product and owner: a document belongs to the
 * product of its policy (a claim's document carries the claim's policy) or of its application
 * (a lead's document), and to that policy's or application's customer. Documents without either
 * (no customer, no product) are not searchable. Parameters: $1 tenant, $2 product id.
 * Materialized first: the owner is a computed code, and the account is then found by its key.
 */
const SEARCHABLE = `
  WITH owned AS MATERIALIZED (
    SELECT d.*, COALESCE(p.account_code, d.account_code, l.account_code) AS owner_account_code
      FROM documents d
      LEFT JOIN policies p ON p.tenant_id = d.tenant_id AND p.code = d.policy_code
      LEFT JOIN leads l ON l.tenant_id = d.tenant_id AND l.code = d.lead_code
     WHERE d.tenant_id = $1 AND d.status = 'stored'
       AND COALESCE(p.product_id, l.product_id) = $2)
  SELECT o.*, a.code AS owner_code, a.account_number AS owner_number, a.type AS owner_type,
         a.title AS owner_title, a.first_name AS owner_first_name,
         a.last_name AS owner_last_name, a.company_name AS owner_company_name
    FROM owned o
    JOIN accounts a ON a.code = o.owner_account_code AND a.tenant_id = $1`;

interface OwnerColumns {
  owner_code: string;
  owner_number: string;
  owner_type: string;
  owner_title: string;
  owner_first_name: string;
  owner_last_name: string;
  owner_company_name: string | null;
}

function presentOwner(r: OwnerColumns) {
  return {
    code: r.owner_code,
    accountNumber: r.owner_number,
    type: r.owner_type,
    title: r.owner_title,
    firstName: r.owner_first_name,
    lastName: r.owner_last_name,
    companyName: r.owner_company_name,
  };
}

/** A search's text: up to 200 characters, words that each must occur. */
const MAX_SEARCH_TEXT = 200;
function searchTextOf(query: Record<string, unknown>, required: boolean): string {
  const raw = query.searchText;
  if (raw !== undefined && typeof raw !== 'string') {
    throw new HttpError(400, 'invalid_query', 'searchText given twice');
  }
  const text = (raw ?? '').trim();
  if (required && !text) throw new HttpError(400, 'invalid_query', 'searchText is required');
  if (text.length > MAX_SEARCH_TEXT) {
    throw new HttpError(400, 'invalid_query', `searchText is longer than ${MAX_SEARCH_TEXT}`);
  }
  return text;
}

/** Keywords are words of at least this many letters or digits. */
const MIN_KEYWORD_LENGTH = 3;
const MAX_KEYWORDS = 10;
/** How many matching documents the keywords are read from (plenty for suggestions). */
const KEYWORD_SAMPLE = 2000;

export function documentRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const store: ObjectStore = ctx.store;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  // Uploads, arrivals and downloads of the files, shared with product documents.
  const { confirm, confirmArrivals, settleExpired, downloadAddress, signUpload } =
    documentFiles(ctx);

  /** A document of the caller's tenant by code or storage key, once its file is stored; else 404. */
  async function findDocument(tenantId: number, column: 'code' | 's3_key', value: string) {
    const [row] = await db.query<DocumentRow>(
      `SELECT * FROM documents WHERE tenant_id = $1 AND ${column} = $2`,
      [tenantId, value],
    );
    if (!row || (row.status === 'pending' && !(await confirm(row)))) {
      throw new HttpError(404, 'not_found', 'Document does not exist');
    }
    return row;
  }

  async function sendAddress(res: Response, row: DocumentRow): Promise<void> {
    assertCanRead(getAuth(res), row.entity_type);
    // A document the sandbox issued (a policy schedule, ...) is printed on its first download.
    await ensurePrinted(db, store, pdfRendererOf(ctx), row);
    res.json({ url: downloadAddress(row) });
  }

  router.get('/documents', VIEW_ANY, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId } = auth;
    const list = parseListQuery(req.query, {
      filters: [...Object.keys(FILTER_COLUMNS), 'accountCode', 'createdAtFrom', 'createdAtTo'],
      orders: Object.keys(ORDERS),
      expands: [],
      maxPageSize: MAX_DOCUMENTS_PAGE_SIZE,
    });
    // A whole tenant's documents in one list serves nobody: the spec always names an owner.
    const owner = ['entityId', 'policyCode', 'leadCode', 'accountCode', 'code'].some((f) =>
      list.filter.has(f),
    );
    if (!owner) {
      throw new HttpError(
        400,
        'invalid_query',
        'filter by entityId (with entityType), policyCode, leadCode, accountCode or code',
      );
    }
    assertCanRead(auth, list.filter.get('entityType') ?? '');
    // Only documents whose file arrived (an upload in flight is not a document yet).
    await confirmArrivals(tenantId);
    const where = ['tenant_id = $1', "status = 'stored'"];
    const params: unknown[] = [tenantId];
    for (const [field, value] of list.filter) {
      if (field === 'createdAtFrom' || field === 'createdAtTo') {
        params.push(instant(field, value));
        where.push(`created_at ${field === 'createdAtFrom' ? '>=' : '<='} $${params.length}`);
        continue;
      }
      params.push(value);
      if (field === 'accountCode') {
        // A customer's documents: those that name the customer, and those of the customer's
        // leads (lead documents name their lead only).
        where.push(
          `(account_code = $${params.length} OR lead_code IN
             (SELECT code FROM leads WHERE tenant_id = $1 AND account_code = $${params.length}))`,
        );
        continue;
      }
      where.push(`${FILTER_COLUMNS[field]} = $${params.length}`);
    }
    if (list.search) {
      params.push(escapeLike(list.search));
      where.push(`(filename ILIKE $${params.length} OR description ILIKE $${params.length})`);
    }
    // Newest first unless asked otherwise.
    const direction = list.order?.direction ?? 'DESC';
    const order = `${ORDERS[list.order?.field ?? 'createdAt']} ${direction}, id ${direction}`;
    const page = await offsetPage<DocumentRow>(
      db,
      list,
      `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY ${order}`,
      params,
    );
    res.json({
      items: page.items.map(presentDocument),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    });
  });

  router.post('/documents/pre-signed-post', UPLOAD, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(PreSignedPostBody, req.body);
    const type: DocumentContentType = body.isoContentType;
    if (contentTypeOfName(body.filename) !== type || shortContentType(type) !== body.contentType) {
      throw new HttpError(
        400,
        'validation_error',
        'filename: the name, contentType and isoContentType do not agree (png, jpeg, jpg, pdf only)',
      );
    }
    const [claim] = await db.query<{ code: string; policy_code: string; account_code: string }>(
      'SELECT code, policy_code, account_code FROM claims WHERE tenant_id = $1 AND id = $2',
      [auth.tenantId, body.entityId],
    );
    if (!claim) throw new HttpError(404, 'not_found', 'Claim does not exist');
    if (claim.policy_code !== body.policyCode || claim.account_code !== body.accountCode) {
      throw new HttpError(
        400,
        'validation_error',
        "policyCode: the claim's policy and account are not the ones given",
      );
    }
    await settleExpired(auth.tenantId);
    const code = newCode('doc');
    const ext = shortContentType(type);
    // The key is the service's, never the client's: tenant, claim and the new document's code.
    const key = `${auth.tenantSlug}/claims/${claim.code}/${code}.${ext}`;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + UPLOAD_POLICY_SECONDS * 1000);
    await db.query(
      `INSERT INTO documents (tenant_id, code, entity_type, entity_id, policy_code, account_code,
                              description, content_type, filename, s3_key, requester,
                              template_slug, status, upload_expires_at, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', $13, $14, $14)`,
      [
        auth.tenantId,
        code,
        CLAIM_DOCUMENT_ENTITY_TYPE,
        String(body.entityId),
        claim.policy_code,
        claim.account_code,
        body.description,
        type,
        body.filename,
        key,
        body.requester,
        body.templateSlug,
        expiresAt,
        auth.userCode,
      ],
    );
    const signed = signUpload(
      {
        key,
        'Content-Type': type,
        filename: body.filename,
        code,
        description: body.description,
        entityId: String(body.entityId),
        entityType: CLAIM_DOCUMENT_ENTITY_TYPE,
        contentType: body.contentType,
        templateSlug: body.templateSlug,
      },
      now,
      expiresAt,
    );
    res.status(201).json(signed);
  });

  router.get('/documents/signed-s3-url', VIEW_ANY, async (req, res) => {
    const key = typeof req.query.s3Key === 'string' ? req.query.s3Key : '';
    if (!key) throw new HttpError(400, 'invalid_query', 's3Key is required');
    await sendAddress(res, await findDocument(getAuth(res).tenantId, 's3_key', key));
  });

  router.get('/documents/:code/download-url', VIEW_ANY, async (req, res) => {
    await sendAddress(
      res,
      await findDocument(getAuth(res).tenantId, 'code', String(req.params.code)),
    );
  });

  router.delete('/documents/:code', DELETE, async (req, res) => {
    const auth = getAuth(res);
    const row = await findDocument(auth.tenantId, 'code', String(req.params.code));
    assertCanRead(auth, row.entity_type);
    await db.query('DELETE FROM documents WHERE id = $1', [row.id]);
    // The row first: a failing store leaves an unreachable object, never a listed missing file.
    await store.remove(row.s3_key).catch((err: unknown) => {
      ctx.logger.warn({ err, key: row.s3_key }, 'stored object not removed');
    });
    res.status(204).end();
  });

  // Spec: document searches require a product (its slug; the tenant's, else a 404).
  async function productOf(
    tenantId: number,
    query: Record<string, unknown>,
  ): Promise<{ id: number; slug: string }> {
    const slug = query.product;
    if (typeof slug !== 'string' || !slug.trim()) {
      throw new HttpError(400, 'invalid_query', 'product is required');
    }
    const [product] = await db.query<{ id: number; slug: string }>(
      'SELECT id, slug FROM products WHERE tenant_id = $1 AND slug = $2',
      [tenantId, slug.trim()],
    );
    if (!product) throw new HttpError(404, 'not_found', 'Product does not exist');
    return product;
  }

  router.get('/searchable-document-owners', SEARCH, async (req, res) => {
    const { tenantId } = getAuth(res);
    await confirmArrivals(tenantId);
    const product = await productOf(tenantId, req.query);
    const rows = await db.query<OwnerColumns>(
      `SELECT * FROM (
         SELECT DISTINCT owner_code, owner_number, owner_type, owner_title, owner_first_name,
                owner_last_name, owner_company_name
           FROM (${SEARCHABLE}) s) o
        ORDER BY lower(CASE WHEN owner_type = 'org' THEN coalesce(owner_company_name, '')
                            ELSE owner_last_name || ' ' || owner_first_name END), owner_code`,
      [tenantId, product.id],
    );
    res.json({ items: rows.map(presentOwner) });
  });

  router.get('/searchable-documents', SEARCH, async (req, res) => {
    const { tenantId } = getAuth(res);
    await confirmArrivals(tenantId);
    const list = parseListQuery(req.query, {
      filters: [],
      orders: ['createdAt', 'filename'],
      expands: [],
      maxPageSize: MAX_DOCUMENTS_PAGE_SIZE,
    });
    const product = await productOf(tenantId, req.query);
    const text = searchTextOf(req.query, false);
    const ownerText = req.query.ownerIds;
    if (typeof ownerText !== 'string' || !ownerText.trim()) {
      throw new HttpError(400, 'invalid_query', "ownerIds is required ('*' for every owner)");
    }
    const where: string[] = [];
    const params: unknown[] = [tenantId, product.id];
    // Spec: '*' is every owner; otherwise account codes joined by '|'.
    if (ownerText.trim() !== '*') {
      const owners = ownerText.split('|').map((o) => o.trim());
      if (owners.some((o) => !o) || owners.length > 100) {
        throw new HttpError(
          400,
          'invalid_query',
          "ownerIds: up to 100 codes joined by '|', or '*'",
        );
      }
      params.push(owners);
      where.push(`owner_code = ANY($${params.length}::text[])`);
    }
    for (const word of text.split(/\s+/).filter(Boolean)) {
      params.push(escapeLike(word));
      where.push(`(filename ILIKE $${params.length} OR description ILIKE $${params.length})`);
    }
    const direction = list.order?.direction ?? 'DESC';
    const column = list.order?.field === 'filename' ? 'lower(filename)' : 'created_at';
    const page = await offsetPage<DocumentRow & OwnerColumns>(
      db,
      list,
      `SELECT * FROM (${SEARCHABLE}) s ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY ${column} ${direction}, id ${direction}`,
      params,
    );
    res.json({
      items: page.items.map((r) => ({
        ...presentDocument(r),
        productSlug: product.slug,
        owner: presentOwner(r),
      })),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    });
  });

  // Suggestions while typing: words of the tenant's documents (names and descriptions) that
  // begin with the word being typed, the most frequent first (numbers are no keywords).
  router.get('/search-keywords', SEARCH, async (req, res) => {
    const { tenantId } = getAuth(res);
    await confirmArrivals(tenantId);
    // The word being typed: the last one of the text.
    const word = searchTextOf(req.query, true).toLowerCase().split(/\s+/).at(-1)!;
    const rows = await db.query<{ filename: string; description: string }>(
      `SELECT filename, description FROM documents
        WHERE tenant_id = $1 AND status = 'stored'
          AND (filename ILIKE $2 OR description ILIKE $2)
        ORDER BY id DESC LIMIT ${KEYWORD_SAMPLE}`,
      [tenantId, escapeLike(word)],
    );
    const counts = new Map<string, number>();
    for (const row of rows) {
      const words = `${row.filename} ${row.description}`.toLowerCase().split(/[^\p{L}\p{N}]+/u);
      for (const candidate of new Set(words)) {
        if (
          candidate.length >= MIN_KEYWORD_LENGTH &&
          candidate.startsWith(word) &&
          !/^\d+$/.test(candidate)
        ) {
          counts.set(candidate, (counts.get(candidate) ?? 0) + 1);
        }
      }
    }
    const items = [...counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, MAX_KEYWORDS)
      .map(([keyword]) => keyword);
    res.json({ items });
  });
  return router;
}
