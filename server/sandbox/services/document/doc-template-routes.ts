import { Router, type Response } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { auditIso } from '#server/sandbox/platform/records.ts';
import { equals, numeric, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LAYOUT_VARIABLES,
  checkTemplate,
  documentSampleOf,
  documentVariablesOf,
  isDocumentKind,
  mountTemplateCrud,
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
import { commonValues, renderDocumentPdf } from './document-output.ts';
import { pdfRendererOf } from './pdf-renderer.ts';
import { attachmentHeader } from './document-routes.ts';
import { issueDocument } from './issued-documents.ts';
import { issuerFor, recordValues } from './record-facts.ts';
import { DOCUMENT_ISSUED } from '#common/contracts/notification.ts';

/**
 * Document layouts and templates (issue 19; spec "Notification and document templates";
 * docs/contracts.md "Document templates"): `/layouts` (POST; GET with pageSize up to 60 and
 * expand headerTemplate,footerTemplate; GET, PUT, DELETE by id; sorted by createdAt ASC) and
 * `/doc-templates` (POST; GET with expand bodyTemplate, paging, filter id=…, order 'id ASC'/'id
 * DESC', search; GET, PUT, DELETE by id), plus the kinds with their variables, the versions and
 * a PDF preview with a sample record. Every source is checked at save, problems with line and
 * column, against the kind's variables (the notification service's engine and catalogue). The
 * lists, reads, writes, versions and log entries are the e-mail templates' own (the notification
 * service's mountTemplateCrud); this file says what a document's sources are and how they print.
 */

/** A layout by its id or its code; null for none. */
const layoutRef = {
  layoutId: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
  layoutCode: v.optional(v.nullable(v.string())),
};

const TemplateBody = v.object({
  slug: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'invalid_slug'))),
  name: templateName,
  kind: v.pipe(v.string(), v.check(isDocumentKind, 'unknown_kind')),
  ...layoutRef,
  bodyTemplate: templateSource,
});
const TemplatePatch = v.object({
  name: v.optional(templateName),
  ...layoutRef,
  bodyTemplate: v.optional(templateSource),
});
const PreviewBody = v.object({
  kind: v.pipe(v.string(), v.check(isDocumentKind, 'unknown_kind')),
  name: v.optional(v.string()),
  ...layoutRef,
  bodyTemplate: templateSource,
  /** A record of the kind to print instead of the sample (its code). */
  entityCode: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty())),
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

/** Issuing a record's document is adding a document to it. */
const ISSUE = requireServicePermission('document-management', 'documents', 'create');
const IssueBody = v.object({ entityCode: v.pipe(v.string(), v.trim(), v.nonEmpty()) });

export function docTemplateRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(['/layouts', '/doc-templates', '/doc-template-kinds'], requireAuth(db, ctx.signer));
  const now = () => new Date(ctx.clock.now());
  const { findTemplate, layoutIdOf } = mountTemplateCrud<DocLayoutRow, DocTemplateRow, string>(
    router,
    ctx,
    {
      layouts: {
        table: 'document_layouts',
        select: SELECT_DOC_LAYOUT,
        entityType: 'document_layout',
        codePrefix: 'dly',
        byId: true,
        list: LAYOUT_LIST,
        noun: 'document layout',
        present: presentLayout,
        standard: { column: 'is_default', code: 'default_layout' },
        sources: { headerTemplate: 'header_template', footerTemplate: 'footer_template' },
        check: (sources) => checkLayoutSources(sources.headerTemplate!, sources.footerTemplate!),
      },
      templates: {
        path: '/doc-templates',
        table: 'doc_templates',
        select: SELECT_DOC_TEMPLATE,
        entityType: 'doc_template',
        codePrefix: 'dtp',
        byId: true,
        list: TEMPLATE_LIST,
        noun: 'document template',
        present: presentTemplate,
        systemTemplate:
          'the sandbox issues this document itself: its template can be changed, not deleted',
        versions: 'doc_template_versions',
        content: { column: 'body_template', json: false, field: 'bodyTemplate', logField: 'body' },
        readDraft: (raw) => parseBody(TemplateBody, raw),
        // The body itself or in `data`, as the notification templates' PUT takes it.
        readChange: (raw) => parseBody(TemplatePatch, (raw as { data?: unknown })?.data ?? raw),
        check: checkBody,
        variables: (kind) => variablePaths(documentVariablesOf(kind)),
      },
    },
  );

  router.get('/doc-template-kinds', TEMPLATE_ACCESS.view, (_req, res) => {
    res.json({
      items: DOCUMENT_KINDS.map((kind) => ({
        kind,
        variables: variablePaths(documentVariablesOf(kind)),
      })),
      layoutVariables: variablePaths(DOCUMENT_LAYOUT_VARIABLES),
    });
  });

  // ---- template previews ---------------------------------------------------------------------

  /** The kind's sample record with the workspace's name. */
  const sampleValues = async (auth: AuthContext, t: { kind: DocumentKind; name: string }) => {
    const { tenant, title, issuedAt } = await commonValues(db, auth.tenantId, t.name, now());
    return documentSampleOf(t.kind, { tenantName: tenant.name, title, issuedAt });
  };

  /**
   * Sources printed as a PDF in the page: with the kind's sample record, or with `entityCode`
   * one of the workspace's real records of the kind, for who may read it.
   */
  const previewPdf = async (
    auth: AuthContext,
    res: Response,
    t: { kind: DocumentKind; name: string; body: string; layoutId: number | null },
    entityCode?: string,
  ) => {
    const values = entityCode
      ? await recordValues(db, auth, t.kind, entityCode, {
          title: t.name,
          now: now(),
          field: 'entityCode',
        })
      : await sampleValues(auth, t);
    const bytes = await renderDocumentPdf(
      pdfRendererOf(ctx),
      { body: t.body, layout: await docLayoutById(db, auth.tenantId, t.layoutId) },
      values,
      { title: t.name },
    );
    sendPdf(res, `${t.name || 'preview'}.pdf`, bytes);
  };

  // Unsaved sources printed with the kind's sample record, or with one real record.
  router.post('/doc-templates/preview', TEMPLATE_ACCESS.view, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(PreviewBody, req.body);
    const kind = body.kind as DocumentKind;
    checkBody(kind, body.bodyTemplate);
    const layoutId = (await layoutIdOf(db, auth.tenantId, body)) ?? null;
    await previewPdf(
      auth,
      res,
      { kind, name: body.name ?? 'Vorschau', body: body.bodyTemplate, layoutId },
      body.entityCode,
    );
  });

  router.get('/doc-templates/:id/preview', TEMPLATE_ACCESS.view, async (req, res) => {
    const auth = getAuth(res);
    const row = await findTemplate(db, auth.tenantId, String(req.params.id));
    await previewPdf(auth, res, {
      kind: row.kind,
      name: row.name,
      body: row.body_template,
      layoutId: row.layout_id,
    });
  });

  // A document of one record from this template, asked for by a person (issue 19: "generate
  // again"): a new one each time, beside the ones issued before, and told to the workspace's
  // sockets like the ones the sandbox issues itself. Only kinds whose records the sandbox reads.
  router.post('/doc-templates/:id/issue', ISSUE, async (req, res) => {
    const auth = getAuth(res);
    const { entityCode } = parseBody(IssueBody, req.body);
    const row = await findTemplate(db, auth.tenantId, String(req.params.id));
    const issuer = issuerFor(auth, row.kind);
    const event = { tenantId: auth.tenantId, entityCode, by: auth.userCode };
    const issued = await issueDocument(db, issuer, event, now(), row);
    if (!issued) throw new HttpError(404, 'not_found', `${row.kind} ${entityCode} not found`);
    ctx.hub.publish(auth.tenantId, { ...DOCUMENT_ISSUED, ...issued });
    res.status(201).json(issued);
  });

  return router;
}
