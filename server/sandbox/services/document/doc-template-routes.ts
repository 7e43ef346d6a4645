import { Router, type Response } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { getAuth, requireAuth, type AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  auditIso,
  callerNameOf,
  iso,
  recordKey,
  uniqueViolation,
} from '#server/sandbox/platform/records.ts';
import {
  equals,
  listPage,
  numeric,
  readList,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { listTotals } from '#server/sandbox/platform/list-page.ts';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LAYOUT_VARIABLES,
  checkTemplate,
  documentSampleOf,
  documentVariablesOf,
  isDocumentKind,
  refuseProblems,
  TEMPLATE_ACCESS,
  templateName,
  templateSource,
  variablePaths,
  type DocumentKind,
} from '#server/sandbox/services/notification/index.ts';
import {
  SELECT_DOC_LAYOUT,
  SELECT_DOC_TEMPLATE,
  docLayoutById,
  type DocLayoutRow,
  type DocTemplateRow,
} from './doc-template-store.ts';
import { renderDocumentPdf } from './document-output.ts';
import { pdfRendererOf } from './pdf-renderer.ts';
import { attachmentHeader } from './document-routes.ts';

/**
 * Document layouts and templates (issue 19; spec "Notification and document templates";
 * docs/contracts.md "Document templates"): `/layouts` (POST; GET with pageSize up to 60 and
 * expand headerTemplate,footerTemplate; GET, PUT, DELETE by id; sorted by createdAt ASC) and
 * `/doc-templates` (POST; GET with expand bodyTemplate, paging, filter id=…, order 'id ASC'/'id
 * DESC', search; GET, PUT, DELETE by id), plus the kinds with their variables, the versions and
 * a PDF preview with a sample record. Every source is checked at save, problems with line and
 * column, against the kind's variables (the notification service's engine and catalogue).
 */

const { view: VIEW, create: CREATE, update: UPDATE, delete: DELETE } = TEMPLATE_ACCESS;

const layoutNotFound = () => new HttpError(404, 'not_found', 'document layout not found');
const templateNotFound = () => new HttpError(404, 'not_found', 'document template not found');

const name = templateName;
const source = templateSource;
/** A layout by its id or its code; null for none. */
const layoutRef = {
  layoutId: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
  layoutCode: v.optional(v.nullable(v.string())),
};

const LayoutBody = v.object({ name, headerTemplate: source, footerTemplate: source });
const LayoutPatch = v.partial(LayoutBody);
const TemplateBody = v.object({
  slug: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'invalid_slug'))),
  name,
  kind: v.pipe(v.string(), v.check(isDocumentKind, 'unknown_kind')),
  ...layoutRef,
  bodyTemplate: source,
});
const TemplatePatch = v.object({
  name: v.optional(name),
  ...layoutRef,
  bodyTemplate: v.optional(source),
});
const PreviewBody = v.object({
  kind: v.pipe(v.string(), v.check(isDocumentKind, 'unknown_kind')),
  name: v.optional(v.string()),
  ...layoutRef,
  bodyTemplate: source,
});

function checkLayoutSources(header: string, footer: string): void {
  refuseProblems([
    { path: 'headerTemplate', problems: checkTemplate(header, DOCUMENT_LAYOUT_VARIABLES) },
    { path: 'footerTemplate', problems: checkTemplate(footer, DOCUMENT_LAYOUT_VARIABLES) },
  ]);
}

const checkBody = (kind: DocumentKind, body: string) =>
  refuseProblems([
    { path: 'bodyTemplate', problems: checkTemplate(body, documentVariablesOf(kind)) },
  ]);

const names = (r: { created_by_name: string | null; updated_by_name: string | null }) => ({
  createdByName: r.created_by_name,
  updatedByName: r.updated_by_name,
});

function presentLayout(r: DocLayoutRow, expand: ReadonlySet<string> | 'all') {
  const has = (field: string) => expand === 'all' || expand.has(field);
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    ...(has('headerTemplate') ? { headerTemplate: r.header_template } : {}),
    ...(has('footerTemplate') ? { footerTemplate: r.footer_template } : {}),
    isDefault: r.is_default,
    ...auditIso(r),
    ...names(r),
  };
}

function presentTemplate(r: DocTemplateRow, expand: ReadonlySet<string> | 'all') {
  return {
    id: r.id,
    code: r.code,
    slug: r.slug,
    name: r.name,
    kind: r.kind,
    layoutId: r.layout_id,
    layoutCode: r.layout_code,
    ...(expand === 'all' || expand.has('bodyTemplate') ? { bodyTemplate: r.body_template } : {}),
    isSystem: r.is_system,
    version: r.version,
    ...auditIso(r),
    ...names(r),
  };
}

const LAYOUT_LIST: ListSource = {
  filters: { id: numeric('t.id', 'id must be a number'), code: equals('t.code') },
  search: ['t.name'],
  orders: { createdAt: 't.created_at', id: 't.id', name: 't.name' },
  // Spec, section 9: document layouts sorted by creation, oldest first, 60 a page.
  defaultOrder: ['createdAt', 'ASC'],
  unique: 't.id',
  expands: ['headerTemplate', 'footerTemplate'],
  maxPageSize: 60,
};
const TEMPLATE_LIST: ListSource = {
  filters: {
    id: numeric('t.id', 'id must be a number'),
    code: equals('t.code'),
    slug: equals('t.slug'),
    kind: equals('t.kind'),
    layoutId: numeric('t.layout_id', 'layoutId must be a number'),
  },
  search: ['t.name', 't.slug'],
  orders: { id: 't.id', createdAt: 't.created_at', updatedAt: 't.updated_at', name: 't.name' },
  defaultOrder: ['createdAt', 'ASC'],
  unique: 't.id',
  expands: ['bodyTemplate'],
  maxPageSize: 100,
};

/** A record by the path's key, its id or its code, within the workspace. */
async function findRow<T>(
  db: Queryable,
  select: string,
  prefix: string,
  notFound: () => HttpError,
  tenantId: number,
  key: string,
): Promise<T> {
  const { byId, value } = recordKey(key, prefix, notFound);
  const [row] = await db.query<T>(
    `${select} WHERE t.tenant_id = $1 AND t.${byId ? 'id' : 'code'} = $2`,
    [tenantId, value],
  );
  if (!row) throw notFound();
  return row;
}
const findLayout = (db: Queryable, tenantId: number, key: string) =>
  findRow<DocLayoutRow>(db, SELECT_DOC_LAYOUT, 'dly', layoutNotFound, tenantId, key);
const findTemplate = (db: Queryable, tenantId: number, key: string) =>
  findRow<DocTemplateRow>(db, SELECT_DOC_TEMPLATE, 'dtp', templateNotFound, tenantId, key);

/** The layout a body names (by id or code) as its id; null for none; 400 for one not there. */
async function layoutIdOf(
  db: Queryable,
  tenantId: number,
  ref: { layoutId?: number | null; layoutCode?: string | null },
): Promise<number | null | undefined> {
  if (ref.layoutId === undefined && ref.layoutCode === undefined) return undefined;
  if (ref.layoutId === null || ref.layoutCode === null || ref.layoutCode === '') return null;
  const [row] = await db.query<{ id: number }>(
    `SELECT id FROM document_layouts WHERE tenant_id = $1 AND ${
      ref.layoutId === undefined ? 'code' : 'id'
    } = $2`,
    [tenantId, ref.layoutId ?? ref.layoutCode],
  );
  if (!row)
    throw invalidInput(
      [{ path: ref.layoutId === undefined ? 'layoutCode' : 'layoutId', code: 'unknown_layout' }],
      'no such layout',
    );
  return row.id;
}

async function saveVersion(tx: Queryable, auth: AuthContext, row: DocTemplateRow, at: Date) {
  await tx.query(
    `INSERT INTO doc_template_versions (template_id, version, name, layout_id, body_template,
                                        saved_at, saved_by, saved_by_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.version,
      row.name,
      row.layout_id,
      row.body_template,
      at,
      auth.userCode,
      await callerNameOf(tx, auth),
    ],
  );
}

const taken = (field: 'name' | 'slug', message: string) =>
  new HttpError(409, `${field}_taken`, message, undefined, [
    { path: field, code: `${field}_taken` },
  ]);
const layoutNameTaken = () => taken('name', 'the workspace has a layout of this name already');
const slugTaken = () => taken('slug', 'the workspace has a template with this key already');

/** Runs a write; a unique key's refusal becomes `conflict()`. */
async function uniquely<T>(write: () => Promise<T>, conflict: () => HttpError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error)) throw conflict();
    throw error;
  }
}

function sendPdf(res: Response, filename: string, bytes: Buffer): void {
  res
    .status(200)
    .set({
      'Content-Type': 'application/pdf',
      'Content-Length': String(bytes.length),
      'Content-Disposition': attachmentHeader(filename).replace(/^attachment/, 'inline'),
    })
    .end(bytes);
}

export function docTemplateRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(['/layouts', '/doc-templates', '/doc-template-kinds'], requireAuth(db, ctx.signer));
  const now = () => new Date(ctx.clock.now());
  const who = (auth: AuthContext) => ({ auth, clock: ctx.clock });
  // Layouts and templates carry no money: a removal deletes the row and leaves it in the log.
  const TABLES = { document_layout: 'document_layouts', doc_template: 'doc_templates' };
  const remove = (
    auth: AuthContext,
    entityType: keyof typeof TABLES,
    row: { id: number; code: string; name: string },
  ) =>
    db.transaction(async (tx) => {
      await tx.query(`DELETE FROM ${TABLES[entityType]} WHERE id = $1`, [row.id]);
      await recordChange(tx, who(auth), {
        entityType,
        entityId: row.code,
        entityLabel: row.name,
        action: 'deleted',
      });
    });

  router.get('/doc-template-kinds', VIEW, (_req, res) => {
    res.json({
      items: DOCUMENT_KINDS.map((kind) => ({
        kind,
        variables: variablePaths(documentVariablesOf(kind)),
      })),
      layoutVariables: variablePaths(DOCUMENT_LAYOUT_VARIABLES),
    });
  });

  // ---- layouts ------------------------------------------------------------------------------

  router.get('/layouts', VIEW, async (req, res) => {
    const list = readList(req.query, LAYOUT_LIST);
    const page = await listPage<DocLayoutRow>(db, list, LAYOUT_LIST, SELECT_DOC_LAYOUT, {
      where: ['t.tenant_id = $1'],
      params: [getAuth(res).tenantId],
    });
    res.json({
      items: page.items.map((r) => presentLayout(r, list.expand)),
      nextPageToken: page.nextPageToken,
      ...listTotals(page),
    });
  });

  router.get('/layouts/:id', VIEW, async (req, res) => {
    const row = await findLayout(db, getAuth(res).tenantId, String(req.params.id));
    res.json({ layout: presentLayout(row, 'all') });
  });

  router.post('/layouts', CREATE, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(LayoutBody, req.body);
    checkLayoutSources(body.headerTemplate, body.footerTemplate);
    const code = newCode('dly');
    await uniquely(
      () =>
        db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO document_layouts (tenant_id, code, name, header_template, footer_template,
                                           created_at, updated_at, created_by, updated_by)
             VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $7)`,
            [
              auth.tenantId,
              code,
              body.name,
              body.headerTemplate,
              body.footerTemplate,
              now(),
              auth.userCode,
            ],
          );
          await recordChange(tx, who(auth), {
            entityType: 'document_layout',
            entityId: code,
            entityLabel: body.name,
            action: 'created',
          });
        }),
      layoutNameTaken,
    );
    res
      .status(201)
      .json({ layout: presentLayout(await findLayout(db, auth.tenantId, code), 'all') });
  });

  router.put('/layouts/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const patch = parseBody(LayoutPatch, (req.body as { data?: unknown })?.data ?? req.body);
    const before = await findLayout(db, auth.tenantId, String(req.params.id));
    const next = {
      name: patch.name ?? before.name,
      headerTemplate: patch.headerTemplate ?? before.header_template,
      footerTemplate: patch.footerTemplate ?? before.footer_template,
    };
    checkLayoutSources(next.headerTemplate, next.footerTemplate);
    await uniquely(
      () =>
        db.transaction(async (tx) => {
          await tx.query(
            `UPDATE document_layouts SET name = $2, header_template = $3, footer_template = $4,
                                         updated_at = $5, updated_by = $6
              WHERE id = $1`,
            [before.id, next.name, next.headerTemplate, next.footerTemplate, now(), auth.userCode],
          );
          await recordChange(tx, who(auth), {
            entityType: 'document_layout',
            entityId: before.code,
            entityLabel: next.name,
            action: 'updated',
            before: {
              name: before.name,
              headerTemplate: before.header_template,
              footerTemplate: before.footer_template,
            },
            after: next,
          });
        }),
      layoutNameTaken,
    );
    res.json({ layout: presentLayout(await findLayout(db, auth.tenantId, before.code), 'all') });
  });

  router.delete('/layouts/:id', DELETE, async (req, res) => {
    const auth = getAuth(res);
    const layout = await findLayout(db, auth.tenantId, String(req.params.id));
    if (layout.is_default)
      throw new HttpError(409, 'default_layout', 'the standard layout cannot be deleted');
    const [used] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM doc_templates WHERE layout_id = $1',
      [layout.id],
    );
    if (used!.n > 0)
      throw new HttpError(409, 'layout_in_use', `${used!.n} template(s) use this layout`, {
        templates: used!.n,
      });
    await remove(auth, 'document_layout', layout);
    res.status(204).end();
  });

  // ---- templates ----------------------------------------------------------------------------

  router.get('/doc-templates', VIEW, async (req, res) => {
    const list = readList(req.query, TEMPLATE_LIST);
    const page = await listPage<DocTemplateRow>(db, list, TEMPLATE_LIST, SELECT_DOC_TEMPLATE, {
      where: ['t.tenant_id = $1'],
      params: [getAuth(res).tenantId],
    });
    res.json({
      items: page.items.map((r) => presentTemplate(r, list.expand)),
      nextPageToken: page.nextPageToken,
      ...listTotals(page),
    });
  });

  /** Sources with the kind's sample record, as a PDF in the page. */
  const previewPdf = async (
    auth: AuthContext,
    res: Response,
    t: { kind: DocumentKind; name: string; body: string; layoutId: number | null },
  ) => {
    const [tenant] = await db.query<{ name: string }>('SELECT name FROM tenants WHERE id = $1', [
      auth.tenantId,
    ]);
    const values = documentSampleOf(t.kind, {
      tenantName: tenant?.name ?? '',
      title: t.name,
      issuedAt: now().toISOString().slice(0, 10),
    });
    const bytes = await renderDocumentPdf(
      pdfRendererOf(ctx),
      { body: t.body, layout: await docLayoutById(db, auth.tenantId, t.layoutId) },
      values,
      { title: t.name },
    );
    sendPdf(res, `${t.name || 'preview'}.pdf`, bytes);
  };

  // Before `/:id`: unsaved sources printed with the kind's sample record.
  router.post('/doc-templates/preview', VIEW, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(PreviewBody, req.body);
    const kind = body.kind as DocumentKind;
    checkBody(kind, body.bodyTemplate);
    const layoutId = (await layoutIdOf(db, auth.tenantId, body)) ?? null;
    await previewPdf(auth, res, {
      kind,
      name: body.name ?? 'Vorschau',
      body: body.bodyTemplate,
      layoutId,
    });
  });

  router.get('/doc-templates/:id', VIEW, async (req, res) => {
    const row = await findTemplate(db, getAuth(res).tenantId, String(req.params.id));
    res.json({
      template: presentTemplate(row, 'all'),
      variables: variablePaths(documentVariablesOf(row.kind)),
    });
  });

  router.get('/doc-templates/:id/preview', VIEW, async (req, res) => {
    const auth = getAuth(res);
    const row = await findTemplate(db, auth.tenantId, String(req.params.id));
    await previewPdf(auth, res, {
      kind: row.kind,
      name: row.name,
      body: row.body_template,
      layoutId: row.layout_id,
    });
  });

  router.get('/doc-templates/:id/versions', VIEW, async (req, res) => {
    const row = await findTemplate(db, getAuth(res).tenantId, String(req.params.id));
    const versions = await db.query<{
      version: number;
      name: string;
      body_template: string;
      saved_at: Date;
      saved_by_name: string;
    }>(
      `SELECT version, name, body_template, saved_at, saved_by_name FROM doc_template_versions
        WHERE template_id = $1 ORDER BY version DESC`,
      [row.id],
    );
    res.json({
      items: versions.map((r) => ({
        version: r.version,
        name: r.name,
        bodyTemplate: r.body_template,
        savedAt: iso(r.saved_at),
        savedByName: r.saved_by_name,
      })),
    });
  });

  router.post('/doc-templates', CREATE, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(TemplateBody, req.body);
    const kind = body.kind as DocumentKind;
    checkBody(kind, body.bodyTemplate);
    const layoutId = (await layoutIdOf(db, auth.tenantId, body)) ?? null;
    const code = newCode('dtp');
    await uniquely(
      () =>
        db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO doc_templates (tenant_id, code, slug, name, kind, layout_id, body_template,
                                        created_at, updated_at, created_by, updated_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9)`,
            [
              auth.tenantId,
              code,
              body.slug ?? code.replace('_', '-'),
              body.name,
              kind,
              layoutId,
              body.bodyTemplate,
              now(),
              auth.userCode,
            ],
          );
          await saveVersion(tx, auth, await findTemplate(tx, auth.tenantId, code), now());
          await recordChange(tx, who(auth), {
            entityType: 'doc_template',
            entityId: code,
            entityLabel: body.name,
            action: 'created',
          });
        }),
      slugTaken,
    );
    res
      .status(201)
      .json({ template: presentTemplate(await findTemplate(db, auth.tenantId, code), 'all') });
  });

  router.put('/doc-templates/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const data = parseBody(TemplatePatch, (req.body as { data?: unknown })?.data ?? req.body);
    const saved = await db.transaction(async (tx) => {
      const before = await findTemplate(tx, auth.tenantId, String(req.params.id));
      await tx.query('SELECT id FROM doc_templates WHERE id = $1 FOR UPDATE', [before.id]);
      const body = data.bodyTemplate ?? before.body_template;
      checkBody(before.kind, body);
      const named = await layoutIdOf(tx, auth.tenantId, data);
      const layoutId = named === undefined ? before.layout_id : named;
      const name = data.name ?? before.name;
      if (name === before.name && layoutId === before.layout_id && body === before.body_template)
        return before;
      await tx.query(
        `UPDATE doc_templates
            SET name = $2, layout_id = $3, body_template = $4, version = version + 1,
                updated_at = $5, updated_by = $6
          WHERE id = $1`,
        [before.id, name, layoutId, body, now(), auth.userCode],
      );
      const after = await findTemplate(tx, auth.tenantId, before.code);
      await saveVersion(tx, auth, after, now());
      await recordChange(tx, who(auth), {
        entityType: 'doc_template',
        entityId: before.code,
        entityLabel: name,
        action: 'updated',
        before: { name: before.name, layoutCode: before.layout_code, body: before.body_template },
        after: { name: after.name, layoutCode: after.layout_code, body: after.body_template },
      });
      return after;
    });
    res.json({ template: presentTemplate(saved, 'all') });
  });

  router.delete('/doc-templates/:id', DELETE, async (req, res) => {
    const auth = getAuth(res);
    const row = await findTemplate(db, auth.tenantId, String(req.params.id));
    if (row.is_system)
      throw new HttpError(
        409,
        'system_template',
        'the sandbox issues this document itself: its template can be changed, not deleted',
      );
    await remove(auth, 'doc_template', row);
    res.status(204).end();
  });

  return router;
}
