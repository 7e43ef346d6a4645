import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { DomainEvent } from '#server/sandbox/platform/domain-events.ts';
import { S3ObjectStore, type ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  DEFAULT_LAYOUT,
  POLICY_SCHEDULE,
  docLayoutById,
  docTemplateBySlug,
} from './doc-template-store.ts';
import { renderDocumentPdf, type DocumentSources } from './document-output.ts';
import type { PdfRenderer } from './pdf-renderer.ts';

/**
 * The policy schedule (issue 19): issued as a document of the policy when it is created and on
 * each new version in force (the insurance service's `policy.created` and
 * `policy.version_created`). The document keeps what it was made of, the workspace's template
 * and layout then and the policy's facts (`documents.issued`); its PDF is printed on its first
 * download and kept in the object store, so it reads as issued whatever changes later.
 */

/** What a generated document is rendered from, kept with it. */
export interface IssuedDocument {
  title: string;
  language: string;
  sources: DocumentSources;
  values: Record<string, unknown>;
}

const DAY_MS = 86_400_000;
const day = (at: Date | string | null) => (at ? new Date(at).toISOString().slice(0, 10) : null);

interface PolicyFacts {
  code: string;
  policy_number: string;
  status: string;
  account_code: string | null;
  holder: Record<string, string | null> | null;
  policy_start_date: Date | null;
  created_at: Date;
  product_name: string;
  version_number: number;
  version_id: number;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  email: string | null;
  street: string | null;
  house_number: string | null;
  zip_code: string | null;
  city: string | null;
}

/** The policy's current version as the `policy` kind's variables (document-variables.ts). */
async function policyValues(
  db: Queryable,
  tenantId: number,
  code: string,
): Promise<Record<string, unknown> | null> {
  const [p] = await db.query<PolicyFacts>(
    `SELECT p.code, p.policy_number, p.status, p.account_code, p.holder, p.policy_start_date,
            p.created_at, pr.name AS product_name, v.version_number, v.id AS version_id,
            a.first_name, a.last_name, a.company_name, a.email, a.street, a.house_number,
            a.zip_code, a.city
       FROM policies p
       JOIN products pr ON pr.id = p.product_id
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       LEFT JOIN accounts a ON a.tenant_id = p.tenant_id AND a.code = p.account_code
      WHERE p.tenant_id = $1 AND p.code = $2`,
    [tenantId, code],
  );
  if (!p) return null;
  const [slice] = await db.query<{
    id: number;
    from: Date;
    to: Date | null;
    premium: {
      premiumItems?: { premiumFormulaId: number; total: number }[];
      grandTotal?: number;
    };
  }>(
    `SELECT id, "from", "to", premium FROM timeslices WHERE policy_version_id = $1
      ORDER BY "from" DESC LIMIT 1`,
    [p.version_id],
  );
  const objects = slice
    ? await db.query<{
        name: string;
        label: string;
        summary: string;
        data: Record<string, unknown>;
      }>(
        `SELECT insured_object_name AS name, insured_object_label AS label, summary, data
           FROM policy_objects WHERE timeslice_id = $1 ORDER BY "order"`,
        [slice.id],
      )
    : [];
  const items = slice?.premium.premiumItems ?? [];
  const formulas = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM premium_formulas WHERE id = ANY($1::int[])',
    [items.map((i) => i.premiumFormulaId)],
  );
  const formulaName = new Map(formulas.map((f) => [f.id, f.name]));
  const byValue = p.holder ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const person = (first: unknown, last: unknown, company: unknown) =>
    text(company) || [text(first), text(last)].filter(Boolean).join(' ');
  const street = (s: unknown, n: unknown) => [text(s), text(n)].filter(Boolean).join(' ');
  const holder = p.account_code
    ? {
        name: person(p.first_name, p.last_name, p.company_name),
        email: text(p.email),
        street: street(p.street, p.house_number),
        zipCode: text(p.zip_code),
        city: text(p.city),
      }
    : {
        name: person(byValue.firstName, byValue.lastName, byValue.companyName),
        email: text(byValue.email),
        street: street(byValue.street, byValue.houseNumber),
        zipCode: text(byValue.zipCode),
        city: text(byValue.city),
      };
  const defaults = objects.find((o) => o.name === 'default')?.data ?? {};
  const cents = (euros: number | undefined) => Math.round((euros ?? 0) * 100);
  return {
    number: p.policy_number,
    productName: p.product_name,
    status: p.status,
    version: p.version_number,
    startDate: day(p.policy_start_date ?? p.created_at),
    // A term's end is exclusive (the next term's start): the schedule names its last day.
    endDate: slice?.to ? day(new Date(new Date(slice.to).getTime() - DAY_MS)) : null,
    holder,
    premiumCents: cents(slice?.premium.grandTotal),
    premiumFrequency: text(defaults.billingFrequencyUnit) || 'yearly',
    premiumItems: items.map((i) => ({
      name: formulaName.get(i.premiumFormulaId) ?? '',
      amountCents: cents(i.total),
    })),
    insuredObjects: objects
      .filter((o) => o.name !== 'default')
      .map((o) => ({ name: o.name, label: o.label, summary: o.summary })),
  };
}

/**
 * Issues the policy schedule of the policy's current version as a document of the policy, the
 * sources and values kept with it; nothing when the policy is gone or has it already.
 */
export async function issuePolicySchedule(
  db: Db,
  event: Pick<DomainEvent, 'tenantId' | 'entityCode' | 'by'>,
  now: Date,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const policy = await policyValues(tx, event.tenantId, event.entityCode);
    if (!policy) return null;
    const [tenant] = await tx.query<{ name: string }>('SELECT name FROM tenants WHERE id = $1', [
      event.tenantId,
    ]);
    // The workspace's template; the built-in one where it has none (a start without the seed).
    const template = await docTemplateBySlug(tx, event.tenantId, POLICY_SCHEDULE.slug);
    const layout = template
      ? await docLayoutById(tx, event.tenantId, template.layout_id)
      : { header_template: DEFAULT_LAYOUT.header, footer_template: DEFAULT_LAYOUT.footer };
    const title = template?.name ?? POLICY_SCHEDULE.name;
    const issued: IssuedDocument = {
      title,
      language: 'de',
      sources: {
        body: template?.body_template ?? POLICY_SCHEDULE.body,
        layout: layout && {
          header_template: layout.header_template,
          footer_template: layout.footer_template,
        },
      },
      values: {
        tenant: { name: tenant?.name ?? '' },
        issuedAt: day(now),
        title,
        policy,
      },
    };
    const code = newCode('doc');
    const number = String(policy.number);
    const [row] = await tx.query<{ code: string }>(
      `INSERT INTO documents (tenant_id, code, entity_type, entity_id, policy_code, account_code,
                              description, content_type, filename, s3_key, requester, status,
                              template_slug, issued, created_at, updated_at, created_by,
                              updated_by)
       SELECT $1, $2, 'policy', $3, $3, p.account_code, $4, 'application/pdf', $5, $6,
              'documentservice', 'stored', $7, $8, $9, $9, $10, $10
         FROM policies p
        WHERE p.tenant_id = $1 AND p.code = $3
          AND NOT EXISTS (SELECT 1 FROM documents d
                           WHERE d.tenant_id = $1 AND d.policy_code = $3
                             AND d.template_slug = $7 AND d.description = $4)
       RETURNING code`,
      [
        event.tenantId,
        code,
        event.entityCode,
        `${title} ${number}, Version ${policy.version}`,
        `${title}-${number}-v${policy.version}.pdf`,
        `generated/${event.tenantId}/${code}.pdf`,
        POLICY_SCHEDULE.slug,
        JSON.stringify(issued),
        now,
        event.by,
      ],
    );
    return row?.code ?? null;
  });
}

/** Puts bytes in the store: an outside one by its API, the own one in its table. */
async function putObject(db: Queryable, store: ObjectStore, key: string, bytes: Buffer) {
  if (store instanceof S3ObjectStore) return store.put(key, bytes, 'application/pdf');
  await db.query(
    `INSERT INTO storage_objects (bucket, key, content, content_type, size_bytes)
     VALUES ($1, $2, $3, 'application/pdf', $4) ON CONFLICT (bucket, key) DO NOTHING`,
    [store.bucket, key, bytes, bytes.length],
  );
}

/**
 * A generated document's PDF in the store before its first download: printed from what was
 * kept when it was issued, then kept (the size marks it done). Uploaded files pass unchanged.
 */
export async function ensurePrinted(
  db: Queryable,
  store: ObjectStore,
  renderer: PdfRenderer,
  row: { id: number; s3_key: string; size_bytes: number | null; issued?: IssuedDocument | null },
): Promise<void> {
  if (!row.issued || row.size_bytes !== null) return;
  const { sources, values, title, language } = row.issued;
  const bytes = await renderDocumentPdf(renderer, sources, values, { title, language });
  await putObject(db, store, row.s3_key, bytes);
  await db.query('UPDATE documents SET size_bytes = $2 WHERE id = $1', [row.id, bytes.length]);
}

/** The document service's listener: a schedule per policy created and per new version. */
export function issueSchedulesOn(
  db: Db,
  logger: Logger,
  now: () => Date,
): (event: DomainEvent) => Promise<void> {
  return async (event) => {
    if (event.type !== 'policy.created' && event.type !== 'policy.version_created') return;
    try {
      await issuePolicySchedule(db, event, now());
    } catch (err) {
      logger.error({ err, policy: event.entityCode }, 'the policy schedule could not be issued');
    }
  };
}
