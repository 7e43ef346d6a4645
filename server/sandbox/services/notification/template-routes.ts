import { Router } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { getAuth, requireAuth, type AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { sendMail } from '#server/sandbox/platform/admin-shared.ts';
import { auditIso } from '#server/sandbox/platform/records.ts';
import { equals, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import {
  SYSTEM_TEMPLATES,
  TEMPLATE_LANGUAGES,
  type TemplateBodies,
  type TemplateBody,
} from './default-templates.ts';
import { checkLayout, checkTemplate, refuseProblems } from './template-engine.ts';
import { TEMPLATE_ACCESS, templateName, templateSource } from './template-access.ts';
import { mountTemplateCrud } from './template-crud.ts';
import {
  SELECT_LAYOUT,
  SELECT_TEMPLATE,
  renderMail,
  tenantNameOf,
  type LayoutRow,
  type TemplateRow,
} from './template-store.ts';
import {
  TEMPLATE_KINDS,
  isTemplateKind,
  sampleOf,
  variablePaths,
  variablesOf,
  type TemplateKind,
  type VariableRecord,
} from './template-variables.ts';

/**
 * E-mail layouts and notification templates (issue 19; docs/contracts.md "Notification
 * templates"): the spec's POST, GET, PUT, DELETE of /layouts and /notification-templates (PUT of
 * a template carries `data`), plus what the editor needs: the kinds and their variables, a
 * preview of unsaved sources with a sample record, the versions, and a test e-mail to oneself.
 * Every source is checked at save (template-engine.ts); a refusal names each problem's place.
 * The lists, reads, writes, versions and log entries are template-crud.ts, which the document
 * templates share; this file says what an e-mail's sources are and how they are checked.
 */

const BodySchema = v.object({
  subject: v.pipe(templateSource, v.maxLength(300)),
  html: templateSource,
  text: templateSource,
});
const BodiesSchema = v.object({ de: BodySchema, en: BodySchema, pl: BodySchema });

const TemplateBody = v.object({
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'invalid_slug')),
  name: templateName,
  kind: v.pipe(v.string(), v.check(isTemplateKind, 'unknown_kind')),
  layoutCode: v.optional(v.nullable(v.string())),
  bodies: BodiesSchema,
});
const TemplatePatch = v.object({
  data: v.object({
    name: v.optional(templateName),
    layoutCode: v.optional(v.nullable(v.string())),
    bodies: v.optional(BodiesSchema),
  }),
});
const PreviewBody = v.object({
  kind: v.pipe(v.string(), v.check(isTemplateKind, 'unknown_kind')),
  layoutCode: v.optional(v.nullable(v.string())),
  language: v.picklist(TEMPLATE_LANGUAGES),
  body: BodySchema,
});
const TestMailBody = v.object({ language: v.picklist(TEMPLATE_LANGUAGES) });

const PARTS = ['subject', 'html', 'text'] as const;

/** One language's sources checked, at `prefix.subject` and so on. */
const checkBody = (prefix: string, body: TemplateBody, variables: VariableRecord) =>
  PARTS.map((part) => ({
    path: `${prefix}.${part}`,
    problems: checkTemplate(body[part], variables),
  }));

function checkBodies(kind: TemplateKind, bodies: TemplateBodies): void {
  const variables = variablesOf(kind);
  refuseProblems(
    TEMPLATE_LANGUAGES.flatMap((language) =>
      checkBody(`bodies.${language}`, bodies[language], variables),
    ),
  );
}

/** Layouts may use what every template has (the workspace, the recipient). */
const LAYOUT_VARIABLES = { tenant: { name: 'text' }, recipient: { email: 'text' } } as const;

function checkLayoutSources(html: string, text: string): void {
  refuseProblems([
    { path: 'html', problems: checkLayout(html, LAYOUT_VARIABLES) },
    { path: 'text', problems: checkLayout(text, LAYOUT_VARIABLES) },
  ]);
}

const presentLayout = (r: LayoutRow) => ({
  id: r.id,
  code: r.code,
  name: r.name,
  html: r.html_template,
  text: r.text_template,
  isSystem: r.is_system,
  ...auditIso(r),
  updatedByName: r.updated_by_name,
});

const presentTemplate = (r: TemplateRow) => ({
  id: r.id,
  code: r.code,
  slug: r.slug,
  name: r.name,
  kind: r.kind,
  layoutCode: r.layout_code,
  bodies: r.bodies,
  isSystem: r.is_system,
  // A system template still named as the sandbox named it: screens show that name in the
  // reader's language; a name the workspace gave it is shown as it is.
  builtInName:
    r.is_system && r.name === SYSTEM_TEMPLATES[r.kind as keyof typeof SYSTEM_TEMPLATES]?.name,
  version: r.version,
  ...auditIso(r),
  updatedByName: r.updated_by_name,
});

const LAYOUT_LIST: ListSource = {
  filters: { code: equals('t.code') },
  search: ['t.name'],
  orders: { createdAt: 't.created_at', name: 't.name' },
  // Spec, section 9: layouts sorted by creation, oldest first, 60 a page.
  defaultOrder: ['createdAt', 'ASC'],
  unique: 't.id',
  maxPageSize: 60,
};
const TEMPLATE_LIST: ListSource = {
  filters: { code: equals('t.code'), slug: equals('t.slug'), kind: equals('t.kind') },
  search: ['t.name', 't.slug'],
  orders: { createdAt: 't.created_at', name: 't.name', updatedAt: 't.updated_at' },
  defaultOrder: ['createdAt', 'ASC'],
  unique: 't.id',
  maxPageSize: 100,
};

export function templateRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(
    ['/layouts', '/notification-templates', '/template-kinds'],
    requireAuth(db, ctx.signer),
  );
  const { findTemplate, layoutIdOf } = mountTemplateCrud<LayoutRow, TemplateRow, TemplateBodies>(
    router,
    ctx,
    {
      layouts: {
        table: 'mail_layouts',
        select: SELECT_LAYOUT,
        entityType: 'mail_layout',
        codePrefix: 'mly',
        byId: false,
        list: LAYOUT_LIST,
        noun: 'layout',
        present: presentLayout,
        standard: { column: 'is_system', code: 'system_layout' },
        sources: { html: 'html_template', text: 'text_template' },
        check: (sources) => checkLayoutSources(sources.html!, sources.text!),
      },
      templates: {
        path: '/notification-templates',
        table: 'notification_templates',
        select: SELECT_TEMPLATE,
        entityType: 'notification_template',
        codePrefix: 'ntt',
        byId: false,
        list: TEMPLATE_LIST,
        noun: 'notification template',
        present: presentTemplate,
        systemTemplate:
          'the sandbox sends this e-mail itself: its template can be changed, not deleted',
        versions: 'notification_template_versions',
        content: { column: 'bodies', json: true, field: 'bodies', logField: 'bodies' },
        readDraft: (raw) => parseBody(TemplateBody, raw),
        // The spec's PUT of a template carries its fields in `data`.
        readChange: (raw) => parseBody(TemplatePatch, raw).data,
        check: checkBodies,
        variables: (kind) => variablePaths(variablesOf(kind)),
      },
    },
  );
  const layoutById = async (id: number | null) =>
    id === null
      ? null
      : ((await db.query<LayoutRow>('SELECT * FROM mail_layouts WHERE id = $1', [id]))[0] ?? null);
  /** One language's sources with the kind's sample record, as the caller would receive them. */
  const renderSample = async (
    auth: AuthContext,
    kind: TemplateKind,
    body: TemplateBody,
    layoutId: number | null,
  ) =>
    renderMail(
      body,
      await layoutById(layoutId),
      sampleOf(kind, {
        tenantName: await tenantNameOf(db, auth.tenantId),
        recipientEmail: auth.email,
      }),
    );
  router.get('/template-kinds', TEMPLATE_ACCESS.view, (_req, res) => {
    res.json({
      items: TEMPLATE_KINDS.map((kind) => ({ kind, variables: variablePaths(variablesOf(kind)) })),
    });
  });

  // ---- previews and test e-mails ----------------------------------------------------------

  // A preview of unsaved sources with the kind's sample record.
  router.post('/notification-templates/preview', TEMPLATE_ACCESS.view, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(PreviewBody, req.body);
    const kind = body.kind as TemplateKind;
    refuseProblems(checkBody('body', body.body, variablesOf(kind)));
    const layoutId = (await layoutIdOf(db, auth.tenantId, { layoutCode: body.layoutCode })) ?? null;
    res.json({ preview: await renderSample(auth, kind, body.body, layoutId) });
  });

  // The saved template with the kind's sample record, to the caller's own address only.
  router.post('/notification-templates/:code/test-mail', TEMPLATE_ACCESS.view, async (req, res) => {
    const auth = getAuth(res);
    const { language } = parseBody(TestMailBody, req.body);
    const row = await findTemplate(db, auth.tenantId, String(req.params.code));
    const mail = await renderSample(auth, row.kind, row.bodies[language], row.layout_id);
    await sendMail(db, { tenantId: auth.tenantId, to: auth.email, ...mail, link: null });
    res.status(202).json({ sentTo: auth.email, subject: mail.subject });
  });

  return router;
}
