import { Router, type Request, type Response } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { getAuth, requireAuth, type AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { newCode, sendMail } from '#server/sandbox/platform/admin-shared.ts';
import { auditIso, callerNameOf, uniqueViolation } from '#server/sandbox/platform/records.ts';
import { equals, listPage, readList, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { listTotals } from '#server/sandbox/platform/list-page.ts';
import {
  SYSTEM_TEMPLATES,
  TEMPLATE_LANGUAGES,
  type TemplateBodies,
  type TemplateBody,
} from './default-templates.ts';
import { checkLayout, checkTemplate, refuseProblems } from './template-engine.ts';
import { TEMPLATE_ACCESS, templateName, templateSource } from './template-access.ts';
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
 */

const { view: VIEW, create: CREATE, update: UPDATE, delete: DELETE } = TEMPLATE_ACCESS;

const layoutNotFound = () => new HttpError(404, 'not_found', 'layout not found');
const templateNotFound = () => new HttpError(404, 'not_found', 'notification template not found');

const name = templateName;
const source = templateSource;
const BodySchema = v.object({
  subject: v.pipe(source, v.maxLength(300)),
  html: source,
  text: source,
});
const BodiesSchema = v.object({ de: BodySchema, en: BodySchema, pl: BodySchema });

const LayoutBody = v.object({ name, html: source, text: source });
const LayoutPatch = v.partial(LayoutBody);

const TemplateBody = v.object({
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'invalid_slug')),
  name,
  kind: v.pipe(v.string(), v.check(isTemplateKind, 'unknown_kind')),
  layoutCode: v.optional(v.nullable(v.string())),
  bodies: BodiesSchema,
});
const TemplatePatch = v.object({
  data: v.object({
    name: v.optional(name),
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

async function findLayout(db: Queryable, tenantId: number, code: string): Promise<LayoutRow> {
  const [row] = await db.query<LayoutRow>(
    `${SELECT_LAYOUT} WHERE t.tenant_id = $1 AND t.code = $2`,
    [tenantId, code],
  );
  if (!row) throw layoutNotFound();
  return row;
}

async function findTemplate(db: Queryable, tenantId: number, code: string): Promise<TemplateRow> {
  const [row] = await db.query<TemplateRow>(
    `${SELECT_TEMPLATE} WHERE t.tenant_id = $1 AND t.code = $2`,
    [tenantId, code],
  );
  if (!row) throw templateNotFound();
  return row;
}

/** A layout code of the workspace as its id; null for none; 400 for one it does not have. */
async function layoutIdOf(
  db: Queryable,
  tenantId: number,
  code: string | null | undefined,
): Promise<number | null> {
  if (!code) return null;
  const [row] = await db.query<{ id: number }>(
    'SELECT id FROM mail_layouts WHERE tenant_id = $1 AND code = $2',
    [tenantId, code],
  );
  if (!row) throw invalidInput([{ path: 'layoutCode', code: 'unknown_layout' }], 'no such layout');
  return row.id;
}

async function saveVersion(tx: Queryable, auth: AuthContext, row: TemplateRow, at: Date) {
  await tx.query(
    `INSERT INTO notification_template_versions (template_id, version, name, layout_id, bodies,
                                                 saved_at, saved_by, saved_by_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.version,
      row.name,
      row.layout_id,
      JSON.stringify(row.bodies),
      at,
      auth.userCode,
      await callerNameOf(tx, auth),
    ],
  );
}

const slugTaken = () =>
  new HttpError(
    409,
    'slug_taken',
    'the workspace has a template with this key already',
    undefined,
    [{ path: 'slug', code: 'slug_taken' }],
  );
const layoutNameTaken = () =>
  new HttpError(409, 'name_taken', 'the workspace has a layout of this name already', undefined, [
    { path: 'name', code: 'name_taken' },
  ]);

export function templateRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(
    ['/layouts', '/notification-templates', '/template-kinds'],
    requireAuth(db, ctx.signer),
  );
  const now = () => new Date(ctx.clock.now());
  // Layouts and templates carry no money: a removal deletes the row and leaves it in the log.
  const TABLES = { mail_layout: 'mail_layouts', notification_template: 'notification_templates' };
  const removeRecord = (
    auth: AuthContext,
    entityType: keyof typeof TABLES,
    row: { id: number; code: string; name: string },
  ) =>
    db.transaction(async (tx) => {
      await tx.query(`DELETE FROM ${TABLES[entityType]} WHERE id = $1`, [row.id]);
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        { entityType, entityId: row.code, entityLabel: row.name, action: 'deleted' },
      );
    });
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
  /** A list route of the workspace's rows, each presented. */
  const listOf =
    <T>(source: ListSource, select: string, present: (row: T) => unknown) =>
    async (req: Request, res: Response) => {
      const page = await listPage<T>(db, readList(req.query, source), source, select, {
        where: ['t.tenant_id = $1'],
        params: [getAuth(res).tenantId],
      });
      res.json({
        items: page.items.map(present),
        nextPageToken: page.nextPageToken,
        ...listTotals(page),
      });
    };

  router.get('/template-kinds', VIEW, (_req, res) => {
    res.json({
      items: TEMPLATE_KINDS.map((kind) => ({ kind, variables: variablePaths(variablesOf(kind)) })),
    });
  });

  // ---- layouts ------------------------------------------------------------------------------

  router.get('/layouts', VIEW, listOf(LAYOUT_LIST, SELECT_LAYOUT, presentLayout));

  router.get('/layouts/:code', VIEW, async (req, res) => {
    res.json({
      layout: presentLayout(await findLayout(db, getAuth(res).tenantId, String(req.params.code))),
    });
  });

  router.post('/layouts', CREATE, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(LayoutBody, req.body);
    checkLayoutSources(body.html, body.text);
    const code = newCode('mly');
    try {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO mail_layouts (tenant_id, code, name, html_template, text_template,
                                     created_at, updated_at, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $7)`,
          [auth.tenantId, code, body.name, body.html, body.text, now(), auth.userCode],
        );
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'mail_layout',
            entityId: code,
            entityLabel: body.name,
            action: 'created',
          },
        );
      });
    } catch (error) {
      if (uniqueViolation(error)) throw layoutNameTaken();
      throw error;
    }
    res.status(201).json({ layout: presentLayout(await findLayout(db, auth.tenantId, code)) });
  });

  router.put('/layouts/:code', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const patch = parseBody(LayoutPatch, (req.body as { data?: unknown })?.data ?? req.body);
    const before = await findLayout(db, auth.tenantId, String(req.params.code));
    const next = {
      name: patch.name ?? before.name,
      html: patch.html ?? before.html_template,
      text: patch.text ?? before.text_template,
    };
    checkLayoutSources(next.html, next.text);
    try {
      await db.transaction(async (tx) => {
        await tx.query(
          `UPDATE mail_layouts SET name = $3, html_template = $4, text_template = $5,
                                   updated_at = $6, updated_by = $7
            WHERE tenant_id = $1 AND code = $2`,
          [auth.tenantId, before.code, next.name, next.html, next.text, now(), auth.userCode],
        );
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'mail_layout',
            entityId: before.code,
            entityLabel: next.name,
            action: 'updated',
            before: { name: before.name, html: before.html_template, text: before.text_template },
            after: next,
          },
        );
      });
    } catch (error) {
      if (uniqueViolation(error)) throw layoutNameTaken();
      throw error;
    }
    res.json({ layout: presentLayout(await findLayout(db, auth.tenantId, before.code)) });
  });

  router.delete('/layouts/:code', DELETE, async (req, res) => {
    const auth = getAuth(res);
    const layout = await findLayout(db, auth.tenantId, String(req.params.code));
    if (layout.is_system)
      throw new HttpError(409, 'system_layout', 'the standard layout cannot be deleted');
    const [used] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notification_templates WHERE layout_id = $1',
      [layout.id],
    );
    if (used!.n > 0)
      throw new HttpError(409, 'layout_in_use', `${used!.n} template(s) use this layout`, {
        templates: used!.n,
      });
    await removeRecord(auth, 'mail_layout', layout);
    res.status(204).end();
  });

  // ---- templates ----------------------------------------------------------------------------

  router.get(
    '/notification-templates',
    VIEW,
    listOf(TEMPLATE_LIST, SELECT_TEMPLATE, presentTemplate),
  );

  // Before `/:code`: a preview of unsaved sources with the kind's sample record.
  router.post('/notification-templates/preview', VIEW, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(PreviewBody, req.body);
    const kind = body.kind as TemplateKind;
    refuseProblems(checkBody('body', body.body, variablesOf(kind)));
    const layoutId = await layoutIdOf(db, auth.tenantId, body.layoutCode);
    res.json({ preview: await renderSample(auth, kind, body.body, layoutId) });
  });

  router.get('/notification-templates/:code', VIEW, async (req, res) => {
    const row = await findTemplate(db, getAuth(res).tenantId, String(req.params.code));
    res.json({
      template: presentTemplate(row),
      variables: variablePaths(variablesOf(row.kind)),
    });
  });

  router.get('/notification-templates/:code/versions', VIEW, async (req, res) => {
    const row = await findTemplate(db, getAuth(res).tenantId, String(req.params.code));
    const versions = await db.query<{
      version: number;
      name: string;
      bodies: TemplateBodies;
      saved_at: Date;
      saved_by_name: string;
    }>(
      `SELECT version, name, bodies, saved_at, saved_by_name FROM notification_template_versions
        WHERE template_id = $1 ORDER BY version DESC`,
      [row.id],
    );
    res.json({
      items: versions.map((r) => ({
        version: r.version,
        name: r.name,
        bodies: r.bodies,
        savedAt: new Date(r.saved_at).toISOString(),
        savedByName: r.saved_by_name,
      })),
    });
  });

  router.post('/notification-templates', CREATE, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(TemplateBody, req.body);
    const kind = body.kind as TemplateKind;
    checkBodies(kind, body.bodies);
    const layoutId = await layoutIdOf(db, auth.tenantId, body.layoutCode);
    const code = newCode('ntt');
    try {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO notification_templates (tenant_id, code, slug, name, kind, layout_id, bodies,
                                               created_at, updated_at, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9)`,
          [
            auth.tenantId,
            code,
            body.slug,
            body.name,
            kind,
            layoutId,
            JSON.stringify(body.bodies),
            now(),
            auth.userCode,
          ],
        );
        await saveVersion(tx, auth, await findTemplate(tx, auth.tenantId, code), now());
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'notification_template',
            entityId: code,
            entityLabel: body.name,
            action: 'created',
          },
        );
      });
    } catch (error) {
      if (uniqueViolation(error)) throw slugTaken();
      throw error;
    }
    res
      .status(201)
      .json({ template: presentTemplate(await findTemplate(db, auth.tenantId, code)) });
  });

  router.put('/notification-templates/:code', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { data } = parseBody(TemplatePatch, req.body);
    const saved = await db.transaction(async (tx) => {
      const [locked] = await tx.query<{ id: number }>(
        'SELECT id FROM notification_templates WHERE tenant_id = $1 AND code = $2 FOR UPDATE',
        [auth.tenantId, String(req.params.code)],
      );
      if (!locked) throw templateNotFound();
      const before = await findTemplate(tx, auth.tenantId, String(req.params.code));
      const bodies = data.bodies ?? before.bodies;
      checkBodies(before.kind, bodies);
      const layoutId =
        data.layoutCode === undefined
          ? before.layout_id
          : await layoutIdOf(tx, auth.tenantId, data.layoutCode);
      const name = data.name ?? before.name;
      const changed =
        name !== before.name ||
        layoutId !== before.layout_id ||
        JSON.stringify(bodies) !== JSON.stringify(before.bodies);
      if (!changed) return before;
      await tx.query(
        `UPDATE notification_templates
            SET name = $2, layout_id = $3, bodies = $4, version = version + 1, updated_at = $5,
                updated_by = $6
          WHERE id = $1`,
        [before.id, name, layoutId, JSON.stringify(bodies), now(), auth.userCode],
      );
      const after = await findTemplate(tx, auth.tenantId, before.code);
      await saveVersion(tx, auth, after, now());
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        {
          entityType: 'notification_template',
          entityId: before.code,
          entityLabel: name,
          action: 'updated',
          before: { name: before.name, layoutCode: before.layout_code, bodies: before.bodies },
          after: { name: after.name, layoutCode: after.layout_code, bodies: after.bodies },
        },
      );
      return after;
    });
    res.json({ template: presentTemplate(saved) });
  });

  router.delete('/notification-templates/:code', DELETE, async (req, res) => {
    const auth = getAuth(res);
    const row = await findTemplate(db, auth.tenantId, String(req.params.code));
    if (row.is_system)
      throw new HttpError(
        409,
        'system_template',
        'the sandbox sends this e-mail itself: its template can be changed, not deleted',
      );
    await removeRecord(auth, 'notification_template', row);
    res.status(204).end();
  });

  // The saved template with the kind's sample record, to the caller's own address only.
  router.post('/notification-templates/:code/test-mail', VIEW, async (req, res) => {
    const auth = getAuth(res);
    const { language } = parseBody(TestMailBody, req.body);
    const row = await findTemplate(db, auth.tenantId, String(req.params.code));
    const mail = await renderSample(auth, row.kind, row.bodies[language], row.layout_id);
    await sendMail(db, { tenantId: auth.tenantId, to: auth.email, ...mail, link: null });
    res.status(202).json({ sentTo: auth.email, subject: mail.subject });
  });

  return router;
}
