import type { Queryable } from '#server/sandbox/platform/db.ts';
import { updatedByNameSql, userNameSql, type Audit } from '#server/sandbox/platform/records.ts';
import type { DocumentKind } from '#server/sandbox/services/notification/index.ts';
import { IPID_TEMPLATE, STATIC_TEMPLATES } from './ipid-and-static-templates.ts';

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

/** A template every workspace has and the sandbox issues documents by (not deletable). */
export interface SystemTemplate {
  slug: string;
  name: string;
  kind: DocumentKind;
  body: string;
}

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

/** The acknowledgement of a claim reported (German), issued when the claim is created. */
export const CLAIM_ACKNOWLEDGEMENT = {
  slug: 'claim-acknowledgement',
  name: 'Schadenbestätigung',
  kind: 'claim' as const,
  body: `<h1>Schadenbestätigung</h1>
<p class="address">{{ claim.claimant.name }}<br>{{ claim.claimant.street }}<br>{{ claim.claimant.zipCode }} {{ claim.claimant.city }}</p>
<p>Guten Tag{% if claim.claimant.name != "" %} {{ claim.claimant.name }}{% endif %},</p>
<p>vielen Dank für Ihre Schadenmeldung. Wir bestätigen ihren Eingang und haben den Schaden unter der Schadennummer {{ claim.number }} aufgenommen.</p>
<table>
  <tr><th>Schadennummer</th><td>{{ claim.number }}</td></tr>
  <tr><th>Versicherungsnummer</th><td>{{ policy.number }}</td></tr>
  {% if policy.productName != "" %}<tr><th>Produkt</th><td>{{ policy.productName }}</td></tr>{% endif %}
  <tr><th>Schaden</th><td>{{ claim.title }}</td></tr>
  <tr><th>Schadentag</th><td>{{ claim.dateOfLoss | day }}</td></tr>
  <tr><th>Gemeldet am</th><td>{{ claim.reportedAt | day }}</td></tr>
</table>
{% if claim.description != "" %}<h2>Ihre Schilderung</h2>
<p>{{ claim.description }}</p>
{% endif %}<h2>Wie es weitergeht</h2>
<ol>
  <li>Wir prüfen Ihre Meldung und melden uns in den nächsten Arbeitstagen bei Ihnen.</li>
  <li>Bitte bewahren Sie Belege, Rechnungen und Fotos des Schadens auf; wir sagen Ihnen, welche wir benötigen.</li>
  <li>Geben Sie bei Rückfragen bitte immer die Schadennummer {{ claim.number }} an.</li>
</ol>
<p>Mit freundlichen Grüßen<br>{{ tenant.name }}</p>`,
};

/** The invoice (German), issued when a user creates one (not the billing run's, see issuers.ts). */
export const INVOICE_DOCUMENT = {
  slug: 'invoice',
  name: 'Rechnung',
  kind: 'invoice' as const,
  body: `<h1>Rechnung</h1>
<p class="address">{{ policy.holder.name }}<br>{{ policy.holder.street }}<br>{{ policy.holder.zipCode }} {{ policy.holder.city }}</p>
<table>
  <tr><th>Rechnungsnummer</th><td>{{ invoice.number }}</td></tr>
  <tr><th>Rechnungsdatum</th><td>{{ invoice.createdAt | day }}</td></tr>
  {% if policy.number != "" %}<tr><th>Versicherungsnummer</th><td>{{ policy.number }}{% if policy.productName != "" %} ({{ policy.productName }}){% endif %}</td></tr>{% endif %}
  {% if invoice.periodFrom %}<tr><th>Leistungszeitraum</th><td>{{ invoice.periodFrom | day }} bis {{ invoice.periodTo | day }}</td></tr>{% endif %}
  <tr><th>Fällig am</th><td>{{ invoice.dueDate | day }}</td></tr>
</table>
<h2>Positionen</h2>
<table>
  <tr><th>Bezeichnung</th><th>Menge</th><th class="amount">Einzelpreis</th><th class="amount">Steuersatz</th><th class="amount">Netto</th><th class="amount">Brutto</th></tr>
{% for item in invoice.positions %}  <tr><td>{{ item.name }}</td><td>{{ item.quantity }}</td><td class="amount">{{ item.unitPriceCents | money: invoice.currency }}</td><td class="amount">{{ item.taxRate }} %</td><td class="amount">{{ item.netCents | money: invoice.currency }}</td><td class="amount">{{ item.amountCents | money: invoice.currency }}</td></tr>
{% endfor %}  <tr><th colspan="5">Nettobetrag</th><td class="amount">{{ invoice.netCents | money: invoice.currency }}</td></tr>
  <tr><th colspan="5">Steuer</th><td class="amount">{{ invoice.taxCents | money: invoice.currency }}</td></tr>
  <tr class="total"><th colspan="5">Rechnungsbetrag</th><th class="amount">{{ invoice.totalCents | money: invoice.currency }}</th></tr>
</table>
{% case invoice.paymentMethod %}{% when "sepa" %}<p>Wir buchen den Betrag zum Fälligkeitstag per SEPA-Lastschrift ab{% if invoice.mandateReference != "" %} (Mandatsreferenz {{ invoice.mandateReference }}){% endif %}.</p>
{% when "card" %}<p>Wir belasten den Betrag zum Fälligkeitstag Ihrer hinterlegten Karte.</p>
{% else %}<p>Bitte überweisen Sie den Betrag bis zum {{ invoice.dueDate | day }} unter Angabe der Rechnungsnummer {{ invoice.number }}.</p>
{% endcase %}<p>Vielen Dank für Ihr Vertrauen.<br>{{ tenant.name }}</p>`,
};

/**
 * Every workspace's system templates, which the sandbox issues documents by (issuers.ts), and
 * its static documents, which it serves by key (decision 020).
 */
export const SYSTEM_TEMPLATES: readonly SystemTemplate[] = [
  POLICY_SCHEDULE,
  CLAIM_ACKNOWLEDGEMENT,
  INVOICE_DOCUMENT,
  IPID_TEMPLATE,
  ...STATIC_TEMPLATES,
];

/** Who wrote the workspace's starting layout and template: nobody of its staff. */
const SYSTEM = 'system';

/** A fresh record code in SQL, of newCode's form (`dly_` and 16 hex digits), one per row. */
const sqlCode = (prefix: string) => `'${prefix}_' || substr(md5(gen_random_uuid()::text), 1, 16)`;

/**
 * Gives every workspace the standard layout and the system templates it lacks. Idempotent: the
 * document service's seed calls it on each start, so older data directories get them too, and a
 * workspace's own changes to them stay. One statement for all workspaces and templates (a start
 * costs one round trip however many there are): the layouts it adds, then the templates (on the
 * layout just added or the one there), then each added template's first version.
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
       SELECT t.id, ${sqlCode('dtp')}, s.slug, s.name, s.kind,
              -- A layout added by this statement is not yet visible to its other parts.
              coalesce((SELECT n.id FROM layouts n WHERE n.tenant_id = t.id),
                       (SELECT l.id FROM document_layouts l
                         WHERE l.tenant_id = t.id AND l.is_default)),
              s.body, true, $4, $4, $5, $5
         FROM tenants t
        CROSS JOIN unnest($6::text[], $7::text[], $8::text[], $9::text[])
                   WITH ORDINALITY AS s(slug, name, kind, body, n)
        WHERE NOT EXISTS (SELECT 1 FROM doc_templates d
                           WHERE d.tenant_id = t.id AND d.slug = s.slug)
        -- Numbered in the list's order, which the templates list shows (created at once).
        ORDER BY t.id, s.n
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
      SYSTEM_TEMPLATES.map((t) => t.slug),
      SYSTEM_TEMPLATES.map((t) => t.name),
      SYSTEM_TEMPLATES.map((t) => t.kind),
      SYSTEM_TEMPLATES.map((t) => t.body),
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
