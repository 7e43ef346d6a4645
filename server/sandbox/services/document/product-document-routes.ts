import { Router, type Request } from 'express';
import type { Db } from '#server/sandbox/platform/db.ts';
import { offsetPage } from '#server/sandbox/platform/list-page.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { escapeLike, newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  UPLOAD_POLICY_SECONDS,
  contentTypeOfName,
  shortContentType,
} from '#common/claim-documents.ts';
import {
  PRODUCT_DOCUMENT_ENTITY_TYPE,
  ProductDocumentUpdateBody,
  ProductDocumentUploadBody,
} from '#common/contracts/product-document.ts';
import { documentFiles } from './document-files.ts';
import { presentDocument, type DocumentRow } from './document-routes.ts';
import { ensurePrinted } from './issued-documents.ts';
import { pdfRendererOf } from './pdf-renderer.ts';

/**
 * Product documents (spec: "Product document: productSlug, createdAt, filename, requester";
 * docs/contracts.md, "Product documents (issue 19)"): rows of the documents table with entity
 * type ProductDocument and the product's code as entity id (a slug may be renamed, the code
 * stays); their files go through the same signed upload and download as claim documents. They
 * are the product's, so the product permissions guard them: view reads, update changes.
 */

const VIEW = requireServicePermission('policy-management', 'products', 'view');
const CHANGE = requireServicePermission('policy-management', 'products', 'update');

const MAX_PAGE_SIZE = 100;

type ProductDocumentRow = DocumentRow & {
  product_slug: string;
  product_version_id: number | null;
};

// The product version an issued IPID is of (decision 020); null for an uploaded file.
const present = (r: ProductDocumentRow) => ({
  ...presentDocument(r),
  productSlug: r.product_slug,
  productVersionId: r.product_version_id,
});

/** The tenant's product documents with their product's slug; stored ones only. */
const WITH_PRODUCT = `
  SELECT d.*, p.slug AS product_slug
    FROM documents d
    JOIN products p ON p.tenant_id = d.tenant_id AND p.code = d.entity_id
   WHERE d.tenant_id = $1 AND d.entity_type = '${PRODUCT_DOCUMENT_ENTITY_TYPE}'
     AND d.status = 'stored'`;

export function productDocumentRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const files = documentFiles(ctx);
  const router = Router();
  router.use('/documents/product', requireAuth(db, ctx.signer));

  /**
   * A product document's upload, rename or delete in the workspace's activity log: who, when,
   * which file of which product (the label, kept as it was: the document may go).
   */
  const logged = (
    auth: AuthContext,
    document: { code: string; filename: string; productName: string },
    action: 'created' | 'updated' | 'deleted',
    change?: { before: object; after: object },
  ) =>
    recordChange(
      db,
      { auth, clock: ctx.clock },
      {
        entityType: 'product_document',
        entityId: document.code,
        entityLabel: `${document.productName}: ${document.filename}`,
        action,
        ...change,
      },
    );

  async function productOf(tenantId: number, slug: string) {
    const [product] = await db.query<{ code: string; slug: string; name: string }>(
      'SELECT code, slug, name FROM products WHERE tenant_id = $1 AND slug = $2',
      [tenantId, slug],
    );
    if (!product) throw new HttpError(404, 'not_found', 'Product does not exist');
    return product;
  }

  /** A stored document of the product, else 404 (an upload in flight is asked about first). */
  async function documentOf(tenantId: number, slug: string, code: string) {
    const product = await productOf(tenantId, slug);
    const [pending] = await db.query<{ id: number; s3_key: string }>(
      `SELECT id, s3_key FROM documents WHERE tenant_id = $1 AND code = $2 AND status = 'pending'`,
      [tenantId, code],
    );
    if (pending) await files.confirm(pending);
    const [row] = await db.query<ProductDocumentRow>(
      `${WITH_PRODUCT} AND d.entity_id = $2 AND d.code = $3`,
      [tenantId, product.code, code],
    );
    if (!row) throw new HttpError(404, 'not_found', 'Document does not exist');
    return row;
  }

  async function list(tenantId: number, query: Request['query'], productCode?: string) {
    const parsed = parseListQuery(query, {
      filters: ['productSlug'],
      orders: ['createdAt', 'filename'],
      expands: [],
      maxPageSize: MAX_PAGE_SIZE,
    });
    await files.confirmArrivals(tenantId);
    const where: string[] = [];
    const params: unknown[] = [tenantId];
    if (productCode) {
      params.push(productCode);
      where.push(`d.entity_id = $${params.length}`);
    }
    const slug = parsed.filter.get('productSlug');
    if (slug) {
      params.push(slug);
      where.push(`p.slug = $${params.length}`);
    }
    if (parsed.search) {
      params.push(escapeLike(parsed.search));
      where.push(`(d.filename ILIKE $${params.length} OR d.description ILIKE $${params.length})`);
    }
    const direction = parsed.order?.direction ?? 'DESC';
    const column = parsed.order?.field === 'filename' ? 'lower(d.filename)' : 'd.created_at';
    const page = await offsetPage<ProductDocumentRow>(
      db,
      parsed,
      `${WITH_PRODUCT} ${where.map((w) => `AND ${w}`).join(' ')}
        ORDER BY ${column} ${direction}, d.id ${direction}`,
      params,
    );
    return {
      items: page.items.map(present),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    };
  }

  router.get('/documents/product', VIEW, async (req, res) => {
    res.json(await list(getAuth(res).tenantId, req.query));
  });

  router.get('/documents/product/:slug', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const product = await productOf(tenantId, String(req.params.slug));
    res.json(await list(tenantId, req.query, product.code));
  });

  router.post('/documents/product/:slug', CHANGE, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(ProductDocumentUploadBody, req.body);
    const type = contentTypeOfName(body.filename);
    if (!type) {
      throw new HttpError(400, 'validation_error', 'filename: png, jpeg, jpg or pdf only');
    }
    const product = await productOf(auth.tenantId, String(req.params.slug));
    await files.settleExpired(auth.tenantId);
    const code = newCode('doc');
    // The key is the service's, never the client's: tenant, product and the document's code.
    const key = `${auth.tenantSlug}/products/${product.code}/${code}.${shortContentType(type)}`;
    const now = new Date(ctx.clock.now());
    const expiresAt = new Date(now.getTime() + UPLOAD_POLICY_SECONDS * 1000);
    await db.query(
      `INSERT INTO documents (tenant_id, code, entity_type, entity_id, description, content_type,
                              filename, s3_key, requester, status, upload_expires_at,
                              created_by, updated_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11, $11, $12, $12)`,
      [
        auth.tenantId,
        code,
        PRODUCT_DOCUMENT_ENTITY_TYPE,
        product.code,
        body.description,
        type,
        body.filename,
        key,
        body.requester,
        expiresAt,
        auth.userCode,
        now,
      ],
    );
    await logged(auth, { code, filename: body.filename, productName: product.name }, 'created');
    const signed = files.signUpload(
      {
        key,
        'Content-Type': type,
        filename: body.filename,
        code,
        entityId: product.code,
        entityType: PRODUCT_DOCUMENT_ENTITY_TYPE,
      },
      now,
      expiresAt,
    );
    res.status(201).json(signed);
  });

  router.get('/documents/product/:slug/:code', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    res.json(
      await documentOf(tenantId, String(req.params.slug), String(req.params.code)).then(present),
    );
  });

  router.post('/documents/product/:slug/:code', CHANGE, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(ProductDocumentUpdateBody, req.body);
    const row = await documentOf(auth.tenantId, String(req.params.slug), String(req.params.code));
    // A new name keeps the kind of file: the stored bytes and their type stay what they are.
    if (body.filename !== undefined && contentTypeOfName(body.filename) !== row.content_type) {
      throw new HttpError(400, 'validation_error', 'filename: the kind of file cannot change');
    }
    const next = {
      filename: body.filename ?? row.filename,
      description: body.description ?? row.description,
    };
    await db.query(
      `UPDATE documents SET filename = $2, description = $3, updated_at = $5, updated_by = $4
        WHERE id = $1`,
      [row.id, next.filename, next.description, auth.userCode, new Date(ctx.clock.now())],
    );
    const product = await productOf(auth.tenantId, row.product_slug);
    await logged(auth, { ...row, ...next, productName: product.name }, 'updated', {
      before: { filename: row.filename, description: row.description },
      after: next,
    });
    res.json(present(await documentOf(auth.tenantId, row.product_slug, row.code)));
  });

  router.get('/documents/product/:slug/:code/download-url', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await documentOf(tenantId, String(req.params.slug), String(req.params.code));
    // An IPID the sandbox issued is printed on its first download (decision 020).
    await ensurePrinted(db, ctx.store, pdfRendererOf(ctx), row);
    res.json({ url: files.downloadAddress(row) });
  });

  // Like every document's delete (DELETE /documents/{code}): the row goes, then its object.
  router.delete('/documents/product/:slug/:code', CHANGE, async (req, res) => {
    const auth = getAuth(res);
    const slug = String(req.params.slug);
    const row = await documentOf(auth.tenantId, slug, String(req.params.code));
    const product = await productOf(auth.tenantId, slug);
    await db.query('DELETE FROM documents WHERE id = $1', [row.id]);
    await logged(auth, { ...row, productName: product.name }, 'deleted');
    await ctx.store.remove(row.s3_key).catch((err: unknown) => {
      ctx.logger.warn({ err, key: row.s3_key }, 'stored object not removed');
    });
    res.status(204).end();
  });

  return router;
}
