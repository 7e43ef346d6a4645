import { Router } from 'express';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { TEMPLATE_ACCESS } from '#server/sandbox/services/notification/index.ts';
import { CLAIM_DOCUMENT_VIEW_PERMISSIONS } from '#common/claim-documents.ts';
import { attachmentHeader } from './document-files.ts';
import { pdfRendererOf } from './pdf-renderer.ts';
import {
  STATIC_KINDS,
  publishStaticDocument,
  publishedPdf,
  publishedVersion,
  publishedVersions,
  staticTemplateOf,
  type StaticVersionRow,
} from './static-documents.ts';

/**
 * Static documents (issue 19, decision 020; docs/contracts.md "Static documents"): the list of
 * the workspace's record-less templates with their newest publication, one with its
 * publications, publishing (the templates' update permission) and the spec's
 * `GET documents/download-static/{key}` (the PDF; `?version=n` for an older one). Reading needs
 * the templates' or the documents' view permission: whoever sends a customer the terms reads
 * documents, not necessarily templates.
 */

const DOWNLOAD = requirePermission(
  'document-management.templates.view',
  'eis.templates.view',
  ...CLAIM_DOCUMENT_VIEW_PERMISSIONS,
);

const iso = (at: Date | string) => new Date(at).toISOString();

function presentVersion(r: StaticVersionRow) {
  return {
    key: r.key,
    version: r.version,
    templateCode: r.template_code,
    templateVersion: r.template_version,
    kind: r.kind,
    title: r.title,
    filename: r.filename,
    sizeBytes: r.size_bytes,
    publishedAt: iso(r.published_at),
    publishedBy: r.published_by,
    publishedByName: r.published_by_name,
  };
}

interface ListedRow {
  key: string;
  code: string;
  name: string;
  kind: string;
  version: number;
  updated_at: Date;
  published_version: number | null;
  published_template_version: number | null;
  published_at: Date | null;
  published_by_name: string | null;
}

function presentListed(r: ListedRow) {
  return {
    key: r.key,
    templateCode: r.code,
    name: r.name,
    kind: r.kind,
    templateVersion: r.version,
    updatedAt: iso(r.updated_at),
    publishedVersion: r.published_version,
    publishedTemplateVersion: r.published_template_version,
    publishedAt: r.published_at && iso(r.published_at),
    publishedByName: r.published_by_name,
  };
}

/** A version's number from the query, or null for the newest; 400 for anything else. */
function versionParam(raw: unknown): number | null {
  if (raw === undefined) return null;
  const n = typeof raw === 'string' && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw new HttpError(400, 'invalid_query', 'version must be a number');
  return n;
}

export function staticDocumentRouter(ctx: SandboxContext): Router {
  const { db, store } = ctx;
  const router = Router();
  router.use(['/static-documents', '/documents/download-static'], requireAuth(db, ctx.signer));
  const deps = () => ({ db, store, renderer: pdfRendererOf(ctx) });

  const LIST = `
    SELECT t.slug AS key, t.code, t.name, t.kind, t.version, t.updated_at,
           p.version AS published_version, p.template_version AS published_template_version,
           p.published_at, p.published_by_name
      FROM doc_templates t
      LEFT JOIN LATERAL (SELECT * FROM static_document_versions v
                          WHERE v.tenant_id = t.tenant_id AND v.key = t.slug
                          ORDER BY v.version DESC LIMIT 1) p ON true
     WHERE t.tenant_id = $1 AND t.kind = ANY($2::text[])`;

  router.get('/static-documents', TEMPLATE_ACCESS.view, async (_req, res) => {
    const { tenantId } = getAuth(res);
    const rows = await db.query<ListedRow>(`${LIST} ORDER BY t.id`, [tenantId, STATIC_KINDS]);
    // A handful per workspace: one page.
    res.json({ items: rows.map(presentListed), nextPageToken: null, totalItems: rows.length });
  });

  router.get('/static-documents/:key', TEMPLATE_ACCESS.view, async (req, res) => {
    const { tenantId } = getAuth(res);
    const key = String(req.params.key);
    await staticTemplateOf(db, tenantId, key);
    const [row] = await db.query<ListedRow>(`${LIST} AND t.slug = $3`, [
      tenantId,
      STATIC_KINDS,
      key,
    ]);
    res.json({
      staticDocument: presentListed(row!),
      versions: (await publishedVersions(db, tenantId, key)).map(presentVersion),
    });
  });

  router.post('/static-documents/:key/publish', TEMPLATE_ACCESS.update, async (req, res) => {
    const auth = getAuth(res);
    const [user] = await db.query<{ name: string }>(
      `SELECT coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) AS name
         FROM users WHERE id = $1`,
      [auth.userId],
    );
    const row = await publishStaticDocument(
      deps(),
      { tenantId: auth.tenantId, userCode: auth.userCode, userName: user?.name ?? auth.email },
      String(req.params.key),
      new Date(ctx.clock.now()),
      (tx, published, template) =>
        recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'doc_template',
            entityId: template.code,
            entityLabel: template.name,
            action: 'published',
            changes: [
              {
                field: 'publishedVersion',
                before: published.version > 1 ? published.version - 1 : null,
                after: published.version,
              },
            ],
          },
        ),
    );
    res.status(201).json({ version: presentVersion(row) });
  });

  router.get('/documents/download-static/:key', DOWNLOAD, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await publishedVersion(
      db,
      tenantId,
      String(req.params.key),
      versionParam(req.query.version),
    );
    const bytes = await publishedPdf(deps(), row);
    res
      .status(200)
      .set({
        'Content-Type': 'application/pdf',
        'Content-Length': String(bytes.length),
        'Content-Disposition': attachmentHeader(row.filename),
        'X-Content-Type-Options': 'nosniff',
      })
      .end(bytes);
  });

  return router;
}
