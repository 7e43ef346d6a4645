import type { Queryable } from '#server/sandbox/platform/db.ts';
import { updatedByNameSql, userNameSql, type Audit } from '#server/sandbox/platform/records.ts';
import type { DocumentKind } from '#server/sandbox/services/notification/index.ts';

/**
 * Document layouts and templates as the routes, the seed and the generated documents read them
 * (migration 042), and the sources every workspace starts with.
 */

export interface DocLayoutRow extends Audit {
  id: number;
  code: string;
  name: string;
  header_template: string;
  footer_template: string;
  is_default: boolean;
  created_by_name: string | null;
  updated_by_name: string | null;
}

export interface DocTemplateRow extends Audit {
  id: number;
  code: string;
  slug: string;
  name: string;
  kind: DocumentKind;
  layout_id: number | null;
  layout_code: string | null;
  body_template: string;
  is_system: boolean;
  version: number;
  created_by_name: string | null;
  updated_by_name: string | null;
}

const NAMES = (t: string) =>
  `${userNameSql(`${t}.created_by`, 'created_by_name')}, ${updatedByNameSql(t)}`;
export const SELECT_DOC_LAYOUT = `SELECT t.*, ${NAMES('t')} FROM document_layouts t`;
export const SELECT_DOC_TEMPLATE = `SELECT t.*, l.code AS layout_code, ${NAMES('t')}
  FROM doc_templates t LEFT JOIN document_layouts l ON l.id = t.layout_id`;

/** The standard layout: the workspace's name and the document's title above, page x of y below. */
export const DEFAULT_LAYOUT = {
  name: 'Standard',
  header: `<div style="display:flex;justify-content:space-between">
  <strong>{{ tenant.name }}</strong><span>{{ title }}</span>
</div>`,
  footer: `<div style="display:flex;justify-content:space-between">
  <span>{{ tenant.name }} · {{ issuedAt | day }}</span>
  <span>Seite <span class="pageNumber"></span> von <span class="totalPages"></span></span>
</div>`,
};

/** The policy schedule every workspace issues (German), at creation and on each new version. */
export const POLICY_SCHEDULE = {
  slug: 'policy-schedule',
  name: 'Versicherungsschein',
  kind: 'policy' as const,
  body: `<h1>Versicherungsschein</h1>
<p class="address">{{ policy.holder.name }}<br>{{ policy.holder.street }}<br>{{ policy.holder.zipCode }} {{ policy.holder.city }}</p>
<table>
  <tr><th>Versicherungsnummer</th><td>{{ policy.number }}</td></tr>
  <tr><th>Produkt</th><td>{{ policy.productName }}</td></tr>
  <tr><th>Stand</th><td>Version {{ policy.version }}</td></tr>
  <tr><th>Versicherungsbeginn</th><td>{{ policy.startDate | day }}</td></tr>
  {% if policy.endDate %}<tr><th>Versicherungsende</th><td>{{ policy.endDate | day }}</td></tr>{% endif %}
</table>
<h2>Versicherte Gegenstände</h2>
<ul>
{% for object in policy.insuredObjects %}  <li>{{ object.label }}{% if object.summary != "" %}: {{ object.summary }}{% endif %}</li>
{% else %}  <li>Keine</li>
{% endfor %}</ul>
<h2>Beitrag</h2>
<table>
{% for item in policy.premiumItems %}  <tr><td>{{ item.name }}</td><td class="amount">{{ item.amountCents | money }}</td></tr>
{% endfor %}  <tr class="total"><th>Gesamtbeitrag{% case policy.premiumFrequency %}{% when "yearly" %} jährlich{% when "halfYearly" %} halbjährlich{% when "quarterly" %} vierteljährlich{% when "monthly" %} monatlich{% endcase %}</th><th class="amount">{{ policy.premiumCents | money }}</th></tr>
</table>
<p>Ausgestellt am {{ issuedAt | day }}. Bitte prüfen Sie die Angaben; Änderungen teilen Sie uns umgehend mit.</p>`,
};

/** Who wrote the workspace's starting layout and template: nobody of its staff. */
const SYSTEM = 'system';

/** A fresh record code in SQL, of newCode's form (`dly_` and 16 hex digits), one per row. */
const sqlCode = (prefix: string) => `'${prefix}_' || substr(md5(gen_random_uuid()::text), 1, 16)`;

/**
 * Gives every workspace the standard layout and the policy schedule it lacks. Idempotent: the
 * document service's seed calls it on each start, so older data directories get them too, and a
 * workspace's own changes to them stay. One statement for all workspaces (a start costs one
 * round trip however many there are): the layouts it adds, then the templates (on the layout
 * just added or the one there), then each added template's first version.
 */
export async function ensureDefaultDocTemplates(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `WITH layouts AS (
       INSERT INTO document_layouts (tenant_id, code, name, header_template, footer_template,
                                     is_default, created_at, updated_at, created_by, updated_by)
       SELECT t.id, ${sqlCode('dly')}, $1, $2, $3, true, $4, $4, $5, $5
         FROM tenants t
        WHERE NOT EXISTS (SELECT 1 FROM document_layouts l
                           WHERE l.tenant_id = t.id AND l.is_default)
       ON CONFLICT DO NOTHING
       RETURNING id, tenant_id
     ), templates AS (
       INSERT INTO doc_templates (tenant_id, code, slug, name, kind, layout_id, body_template,
                                  is_system, created_at, updated_at, created_by, updated_by)
       SELECT t.id, ${sqlCode('dtp')}, $6, $7, $8,
              -- A layout added by this statement is not yet visible to its other parts.
              coalesce((SELECT n.id FROM layouts n WHERE n.tenant_id = t.id),
                       (SELECT l.id FROM document_layouts l
                         WHERE l.tenant_id = t.id AND l.is_default)),
              $9, true, $4, $4, $5, $5
         FROM tenants t
        WHERE NOT EXISTS (SELECT 1 FROM doc_templates d WHERE d.tenant_id = t.id AND d.slug = $6)
       ON CONFLICT (tenant_id, slug) DO NOTHING
       RETURNING id, version, name, layout_id, body_template, created_at
     )
     INSERT INTO doc_template_versions (template_id, version, name, layout_id, body_template,
                                        saved_at, saved_by, saved_by_name)
     SELECT id, version, name, layout_id, body_template, created_at, $5, $5 FROM templates`,
    [
      DEFAULT_LAYOUT.name,
      DEFAULT_LAYOUT.header,
      DEFAULT_LAYOUT.footer,
      now,
      SYSTEM,
      POLICY_SCHEDULE.slug,
      POLICY_SCHEDULE.name,
      POLICY_SCHEDULE.kind,
      POLICY_SCHEDULE.body,
    ],
  );
}

/** A workspace's layout by id; null for none. */
export async function docLayoutById(
  db: Queryable,
  tenantId: number,
  id: number | null,
): Promise<DocLayoutRow | null> {
  if (id === null) return null;
  const [row] = await db.query<DocLayoutRow>(
    `${SELECT_DOC_LAYOUT} WHERE t.tenant_id = $1 AND t.id = $2`,
    [tenantId, id],
  );
  return row ?? null;
}

/** A workspace's template by its slug (policy-schedule, ...); null when there is none. */
export async function docTemplateBySlug(
  db: Queryable,
  tenantId: number,
  slug: string,
): Promise<DocTemplateRow | null> {
  const [row] = await db.query<DocTemplateRow>(
    `${SELECT_DOC_TEMPLATE} WHERE t.tenant_id = $1 AND t.slug = $2`,
    [tenantId, slug],
  );
  return row ?? null;
}
