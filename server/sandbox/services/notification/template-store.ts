import type { Queryable } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  SYSTEM_LAYOUT,
  SYSTEM_TEMPLATES,
  type TemplateBodies,
  type TemplateBody,
  type TemplateLanguage,
} from './default-templates.ts';
import { renderPart } from './template-engine.ts';
import type { TemplateKind } from './template-variables.ts';

/** The records of layouts and templates as the routes and the mail writer read them. */

export interface LayoutRow {
  id: number;
  code: string;
  name: string;
  html_template: string;
  text_template: string;
  is_system: boolean;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  updated_by_name: string | null;
}

export interface TemplateRow {
  id: number;
  code: string;
  slug: string;
  name: string;
  kind: TemplateKind;
  layout_id: number | null;
  layout_code: string | null;
  bodies: TemplateBodies;
  is_system: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  updated_by_name: string | null;
}

/** Who wrote the workspace's starting layout and templates: nobody of its staff. */
const SYSTEM = 'system';

/**
 * Gives a workspace the system layout and templates it lacks (idempotent). The tenant service's
 * seed calls it for every workspace once they exist (workspaces are made there and nowhere else),
 * on each start, so older data directories get them too.
 */
export async function ensureSystemTemplates(
  db: Queryable,
  tenantId: number,
  now: Date,
): Promise<void> {
  const [present] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notification_templates WHERE tenant_id = $1 AND is_system`,
    [tenantId],
  );
  if (present && present.n >= Object.keys(SYSTEM_TEMPLATES).length) return;
  await db.query(
    `INSERT INTO mail_layouts (tenant_id, code, name, html_template, text_template, is_system,
                               created_at, updated_at, created_by, updated_by)
     SELECT $1, $2, $3, $4, $5, true, $6, $6, $7, $7
      WHERE NOT EXISTS (SELECT 1 FROM mail_layouts WHERE tenant_id = $1 AND is_system)
     ON CONFLICT DO NOTHING`,
    [
      tenantId,
      newCode('mly'),
      SYSTEM_LAYOUT.name,
      SYSTEM_LAYOUT.html,
      SYSTEM_LAYOUT.text,
      now,
      SYSTEM,
    ],
  );
  for (const [kind, template] of Object.entries(SYSTEM_TEMPLATES)) {
    await db.query(
      `INSERT INTO notification_templates (tenant_id, code, slug, name, kind, layout_id, bodies,
                                           is_system, created_at, updated_at, created_by,
                                           updated_by)
       SELECT $1, $2, $3, $4, $5,
              (SELECT id FROM mail_layouts WHERE tenant_id = $1 AND is_system ORDER BY id LIMIT 1),
              $6, true, $7, $7, $8, $8
       ON CONFLICT (tenant_id, slug) DO NOTHING`,
      [
        tenantId,
        newCode('ntt'),
        template.slug,
        template.name,
        kind,
        JSON.stringify(template.bodies),
        now,
        SYSTEM,
      ],
    );
  }
}

const UPDATED_BY_NAME = `(SELECT nullif(trim(u.first_name || ' ' || u.last_name), '')
                             FROM users u WHERE u.code = t.updated_by) AS updated_by_name`;

export const SELECT_LAYOUT = `SELECT t.*, ${UPDATED_BY_NAME} FROM mail_layouts t`;
export const SELECT_TEMPLATE = `SELECT t.*, l.code AS layout_code, ${UPDATED_BY_NAME}
  FROM notification_templates t LEFT JOIN mail_layouts l ON l.id = t.layout_id`;

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/**
 * Renders one language's sources of a template (or its unsaved ones: the editor's preview) with
 * `values`, inside its layout. Subjects are one line: what a template makes of them is trimmed.
 */
export async function renderMail(
  body: TemplateBody,
  layout: { html_template: string; text_template: string } | null,
  values: Record<string, unknown>,
): Promise<RenderedMail> {
  const subject = (await renderPart('text', body.subject, values)).replace(/\s+/g, ' ').trim();
  return {
    subject,
    html: await renderPart('html', body.html, values, layout?.html_template),
    text: await renderPart('text', body.text, values, layout?.text_template),
  };
}

/** A workspace's template by its slug, with its layout's sources; null when there is none. */
export async function templateBySlug(
  db: Queryable,
  tenantId: number,
  slug: string,
): Promise<(TemplateRow & { html_template: string | null; text_template: string | null }) | null> {
  const [row] = await db.query<
    TemplateRow & { html_template: string | null; text_template: string | null }
  >(
    `SELECT t.*, l.code AS layout_code, l.html_template, l.text_template, NULL AS updated_by_name
       FROM notification_templates t LEFT JOIN mail_layouts l ON l.id = t.layout_id
      WHERE t.tenant_id = $1 AND t.slug = $2`,
    [tenantId, slug],
  );
  return row ?? null;
}

/** The workspace's name, which every template may use (`tenant.name`). */
export async function tenantNameOf(db: Queryable, tenantId: number): Promise<string> {
  const [row] = await db.query<{ name: string }>('SELECT name FROM tenants WHERE id = $1', [
    tenantId,
  ]);
  return row?.name ?? '';
}

/**
 * The e-mail of one of the sandbox's own kinds (an invitation, a reset, a workflow's notice) as
 * the workspace's template makes it. A stored template that fails at render (a value of a shape
 * its check did not foresee) must not stop an invitation: the built-in one is used then, as for
 * a workspace without its templates (a start with the seed turned off on an older directory).
 */
export async function renderSystemMail(
  db: Queryable,
  mail: {
    tenantId: number;
    kind: Exclude<TemplateKind, 'policy'>;
    language: TemplateLanguage;
    values: Record<string, unknown>;
  },
): Promise<RenderedMail> {
  const builtIn = SYSTEM_TEMPLATES[mail.kind];
  const values = { tenant: { name: await tenantNameOf(db, mail.tenantId) }, ...mail.values };
  const stored = await templateBySlug(db, mail.tenantId, builtIn.slug);
  if (stored) {
    const layout =
      stored.html_template === null || stored.text_template === null
        ? null
        : { html_template: stored.html_template, text_template: stored.text_template };
    try {
      return await renderMail(stored.bodies[mail.language], layout, values);
    } catch {
      // Falls through to the built-in template.
    }
  }
  return renderMail(
    builtIn.bodies[mail.language],
    { html_template: SYSTEM_LAYOUT.html, text_template: SYSTEM_LAYOUT.text },
    values,
  );
}
