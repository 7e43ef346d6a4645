import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { DomainEvent } from '#server/sandbox/platform/domain-events.ts';
import { S3ObjectStore, type ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { policyScheduleFacts } from '#server/sandbox/services/insurance/index.ts';
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

const day = (at: Date | string | null) => (at ? new Date(at).toISOString().slice(0, 10) : null);

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
    const facts = await policyScheduleFacts(tx, event.tenantId, event.entityCode);
    if (!facts) return null;
    const policy = facts.values;
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
       SELECT $1, $2, 'policy', $3, $3, $11, $4, 'application/pdf', $5, $6,
              'documentservice', 'stored', $7, $8, $9, $9, $10, $10
        WHERE NOT EXISTS (SELECT 1 FROM documents d
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
        facts.accountCode,
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
