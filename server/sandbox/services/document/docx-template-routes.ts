import { Router, type Response } from 'express';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { getAuth, requireAuth, type AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import {
  auditIso,
  updatedByNameSql,
  userNameSql,
  type Audit,
} from '#server/sandbox/platform/records.ts';
import { equals, listPage, readList, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { listTotals } from '#server/sandbox/platform/list-page.ts';
import { UPLOAD_POLICY_SECONDS } from '#common/claim-documents.ts';
import type { ErrorIssue } from '#common/contracts/error.ts';
import {
  DOCX_CONTENT_TYPE,
  DOCX_ENTITY_TYPES,
  DocxRenderBody,
  DocxTemplateCreateBody,
  type DocxEntityType,
} from '#common/contracts/docx-template.ts';
import { TEMPLATE_ACCESS } from '#server/sandbox/services/notification/index.ts';
import { attachmentHeader, documentFiles } from './document-files.ts';
import { checkDocx, docxTagsOf, docxToPdf, fillDocx } from './docx-templates.ts';
import { issuerFor, recordValues } from './record-facts.ts';
import { pdfRendererOf } from './pdf-renderer.ts';

/**
 * Docx templates (issue 19; spec: GET and POST /docx-templates, GET and DELETE /{code}, GET
 * /{code}/download-url; upload by a signed multipart form; decision 019). POST writes the record
 * and answers the signed form; the browser sends the file straight to the store. The service
 * checks the file when it first sees it arrived (its read, the list, a fill): a file that is no
 * Word document, does not compile, or uses a tag that is not a variable of its entity, or a raw
 * XML tag, is refused: the template is gone, and reading it answers 422 with every problem at
 * its paragraph and character. Ours beside the spec: POST /{code}/render fills it with one
 * record's facts (the facts the PDF documents print) as DOCX or PDF, and
 * GET /docx-template-entities lists what each entity's templates may use. Permissions are the
 * document templates' (`document-management.templates.*`); a fill also needs the record's.
 */

interface DocxTemplateRow extends Audit {
  id: number;
  tenant_id: number;
  code: string;
  name: string;
  filename: string;
  entity_type: DocxEntityType;
  s3_key: string;
  status: 'pending' | 'ready' | 'refused';
  tags: string[];
  problems: ErrorIssue[] | null;
  size_bytes: number | null;
  upload_expires_at: Date | null;
  deleted_at: Date | null;
  created_by_name: string | null;
  updated_by_name: string | null;
}

const SELECT = `SELECT t.*, ${userNameSql('t.created_by', 'created_by_name')}, ${updatedByNameSql('t')}
  FROM docx_templates t`;

const LIST: ListSource = {
  filters: { code: equals('t.code'), entityType: equals('t.entity_type') },
  search: ['t.name', 't.filename'],
  orders: {
    createdAt: 't.created_at',
    updatedAt: 't.updated_at',
    id: 't.id',
    name: 'lower(t.name)',
    filename: 'lower(t.filename)',
  },
  defaultOrder: ['createdAt', 'DESC'],
  unique: 't.id',
  maxPageSize: 100,
};

/** How many uploads in flight a list checks (abandoned ones cost no more). */
const MAX_PENDING_CHECKS = 10;

function present(r: DocxTemplateRow) {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    filename: r.filename,
    entityType: r.entity_type,
    status: r.status,
    sizeBytes: r.size_bytes,
    tags: r.tags,
    ...auditIso(r),
    createdByName: r.created_by_name,
    updatedByName: r.updated_by_name,
  };
}

const refused = (problems: readonly ErrorIssue[]) =>
  new HttpError(
    422,
    'template_refused',
    `the file was refused: ${problems
      .map(
        (p) =>
          `${p.code}${p.name ? ` "${p.name}"` : ''}${p.line ? ` in paragraph ${p.line}, character ${p.column}` : ''}`,
      )
      .join('; ')}`,
    undefined,
    problems,
  );

/** A safe download name: the template's name and the record, with the format's extension. */
const outputName = (name: string, entityId: string, ext: string) =>
  `${`${name}-${entityId}`.replace(/[\\/\u0000-\u001f\u007f"]+/g, '_').slice(0, 180)}.${ext}`;

export function docxTemplateRouter(ctx: SandboxContext): Router {
  const { db, store } = ctx;
  const files = documentFiles(ctx);
  const router = Router();
  router.use(['/docx-templates', '/docx-template-entities'], requireAuth(db, ctx.signer));
  const who = (auth: AuthContext) => ({ auth, clock: ctx.clock });
  const now = () => new Date(ctx.clock.now());

  const rowOf = async (tx: Queryable, tenantId: number, code: string) =>
    (
      await tx.query<DocxTemplateRow>(`${SELECT} WHERE t.tenant_id = $1 AND t.code = $2`, [
        tenantId,
        code,
      ])
    )[0];

  /**
   * A template whose upload was signed, once its file is in the store: checked, then ready or
   * refused (its object removed). One whose signature expired without a file goes. Answers the
   * row as it is now.
   */
  async function settle(row: DocxTemplateRow): Promise<DocxTemplateRow> {
    if (row.status !== 'pending' || row.deleted_at) return row;
    let bytes: Buffer | null;
    try {
      bytes = await store.read(row.s3_key);
    } catch (err) {
      ctx.logger.warn({ err, key: row.s3_key }, 'object storage not reachable');
      return row;
    }
    if (!bytes) {
      if (row.upload_expires_at && row.upload_expires_at.getTime() < Date.now()) {
        await db.query(
          `UPDATE docx_templates SET deleted_at = now(), deleted_by = 'system'
            WHERE id = $1 AND status = 'pending'`,
          [row.id],
        );
      }
      return (await rowOf(db, row.tenant_id, row.code))!;
    }
    const check = checkDocx(bytes, row.entity_type);
    if (check.problems.length) {
      await db.query(
        `UPDATE docx_templates SET status = 'refused', problems = $2, deleted_at = now(),
                deleted_by = 'system', size_bytes = $3
          WHERE id = $1 AND status = 'pending'`,
        [row.id, JSON.stringify(check.problems), bytes.length],
      );
      // A refused file is nobody's: it never can be filled or downloaded.
      await store.remove(row.s3_key).catch((err: unknown) => {
        ctx.logger.warn({ err, key: row.s3_key }, 'refused template not removed');
      });
    } else {
      await db.query(
        `UPDATE docx_templates SET status = 'ready', tags = $2, size_bytes = $3
          WHERE id = $1 AND status = 'pending'`,
        [row.id, JSON.stringify(check.tags), bytes.length],
      );
    }
    return (await rowOf(db, row.tenant_id, row.code))!;
  }

  /** The caller's template by code, settled: 404 for none or removed, 422 for a refused file. */
  async function templateOf(auth: AuthContext, code: string): Promise<DocxTemplateRow> {
    const found = await rowOf(db, auth.tenantId, code);
    const row = found && (await settle(found));
    if (row?.status === 'refused') throw refused(row.problems ?? []);
    if (!row || row.deleted_at)
      throw new HttpError(404, 'not_found', 'Docx template does not exist');
    return row;
  }

  const ready = async (auth: AuthContext, code: string) => {
    const row = await templateOf(auth, code);
    if (row.status !== 'ready') {
      throw new HttpError(409, 'template_pending', 'the file of this template has not arrived');
    }
    return row;
  };

  router.get('/docx-template-entities', TEMPLATE_ACCESS.view, (_req, res) => {
    res.json({
      items: DOCX_ENTITY_TYPES.map((entityType) => ({
        entityType,
        variables: docxTagsOf(entityType),
      })),
    });
  });

  router.get('/docx-templates', TEMPLATE_ACCESS.view, async (req, res) => {
    const auth = getAuth(res);
    const list = readList(req.query, LIST);
    // Uploads that arrived since: checked before the list answers, the newest first.
    const pending = await db.query<DocxTemplateRow>(
      `${SELECT} WHERE t.tenant_id = $1 AND t.status = 'pending' AND t.deleted_at IS NULL
        ORDER BY t.id DESC LIMIT ${MAX_PENDING_CHECKS}`,
      [auth.tenantId],
    );
    for (const row of pending) await settle(row);
    const page = await listPage<DocxTemplateRow>(db, list, LIST, SELECT, {
      where: ['t.tenant_id = $1', "t.status = 'ready'", 't.deleted_at IS NULL'],
      params: [auth.tenantId],
    });
    res.json({
      items: page.items.map(present),
      nextPageToken: page.nextPageToken,
      ...listTotals(page),
    });
  });

  router.post('/docx-templates', TEMPLATE_ACCESS.create, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(DocxTemplateCreateBody, req.body);
    const code = newCode('dxt');
    // The key is the service's, never the client's: workspace, templates, the new code.
    const key = `${auth.tenantSlug}/docx-templates/${code}.docx`;
    const at = now();
    const expiresAt = new Date(Date.now() + UPLOAD_POLICY_SECONDS * 1000);
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO docx_templates (tenant_id, code, name, filename, entity_type, s3_key,
                                     upload_expires_at, created_at, updated_at, created_by,
                                     updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9)`,
        [
          auth.tenantId,
          code,
          body.name,
          body.filename,
          body.entityType,
          key,
          expiresAt,
          at,
          auth.userCode,
        ],
      );
      await recordChange(tx, who(auth), {
        entityType: 'docx_template',
        entityId: code,
        entityLabel: body.name,
        action: 'created',
        changes: [
          { field: 'filename', before: null, after: body.filename },
          { field: 'entityType', before: null, after: body.entityType },
        ],
      });
    });
    const signed = files.signUpload(
      { key, 'Content-Type': DOCX_CONTENT_TYPE, filename: body.filename, code },
      new Date(),
      expiresAt,
    );
    res
      .status(201)
      .json({ docxTemplate: present((await rowOf(db, auth.tenantId, code))!), ...signed });
  });

  router.get('/docx-templates/:code', TEMPLATE_ACCESS.view, async (req, res) => {
    res.json({ docxTemplate: present(await templateOf(getAuth(res), String(req.params.code))) });
  });

  router.get('/docx-templates/:code/download-url', TEMPLATE_ACCESS.view, async (req, res) => {
    const row = await ready(getAuth(res), String(req.params.code));
    res.json({ url: files.downloadAddress(row) });
  });

  // Removed, not erased: the row stays (deleted_at) and so does its file, as the log names it.
  router.delete('/docx-templates/:code', TEMPLATE_ACCESS.delete, async (req, res) => {
    const auth = getAuth(res);
    const row = await templateOf(auth, String(req.params.code));
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE docx_templates SET deleted_at = $2, deleted_by = $3, updated_at = $2,
                updated_by = $3
          WHERE id = $1 AND deleted_at IS NULL`,
        [row.id, now(), auth.userCode],
      );
      await recordChange(tx, who(auth), {
        entityType: 'docx_template',
        entityId: row.code,
        entityLabel: row.name,
        action: 'deleted',
      });
    });
    res.status(204).end();
  });

  router.post('/docx-templates/:code/render', TEMPLATE_ACCESS.view, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(DocxRenderBody, req.body);
    const row = await ready(auth, String(req.params.code));
    if (body.entityType && body.entityType !== row.entity_type) {
      throw new HttpError(
        400,
        'validation_error',
        `entityType: this template is for ${row.entity_type}`,
        undefined,
        [{ path: 'entityType', code: 'wrong_entity' }],
      );
    }
    // Before the file is read: a fill needs the record's own permission too.
    issuerFor(auth, row.entity_type);
    await sendFilled(res, auth, row, body.entityId, body.format);
  });

  async function sendFilled(
    res: Response,
    auth: AuthContext,
    row: DocxTemplateRow,
    entityId: string,
    format: 'docx' | 'pdf',
  ) {
    // The record's facts as the sandbox's own documents of that kind print them.
    const values = await recordValues(db, auth, row.entity_type, entityId, {
      title: row.name,
      now: now(),
      field: 'entityId',
    });
    const bytes = await store.read(row.s3_key);
    if (!bytes) throw new HttpError(404, 'not_found', 'the file of this template is missing');
    const docx = fillDocx(bytes, row.entity_type, values);
    const out = format === 'pdf' ? await docxToPdf(pdfRendererOf(ctx), docx, row.name) : docx;
    res
      .status(200)
      .set({
        'Content-Type': format === 'pdf' ? 'application/pdf' : DOCX_CONTENT_TYPE,
        'Content-Length': String(out.length),
        'Content-Disposition': attachmentHeader(outputName(row.name, entityId, format)),
        'X-Content-Type-Options': 'nosniff',
      })
      .end(out);
  }

  return router;
}
