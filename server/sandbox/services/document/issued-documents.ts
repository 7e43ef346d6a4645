import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { DomainEvent, DomainEventType } from '#server/sandbox/platform/domain-events.ts';
import { S3ObjectStore, type ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  DEFAULT_LAYOUT,
  docLayoutById,
  docTemplateBySlug,
  type DocTemplateRow,
  type SystemTemplate,
} from './doc-template-store.ts';
import { commonValues, renderDocumentPdf, type DocumentSources } from './document-output.ts';
import type { PdfRenderer } from './pdf-renderer.ts';

/**
 * Documents the sandbox issues itself (issue 19): on a domain event, a document of the record
 * from the workspace's system template of that kind (issuers.ts says which event, template and
 * facts). The document keeps what it was made of, the workspace's template and layout then and
 * the record's facts (`documents.issued`); its PDF is printed on its first download and kept in
 * the object store, so it reads as issued whatever changes later.
 */

/** What a generated document is rendered from, kept with it. */
export interface IssuedDocument {
  title: string;
  language: string;
  sources: DocumentSources;
  values: Record<string, unknown>;
}

export type IssueEvent = Pick<DomainEvent, 'tenantId' | 'entityCode' | 'by'>;

/** What an issuer read of the record: whose document it is and what it prints. */
export interface IssueFacts {
  /** The owner as the documents list filters it (`entityType` and `entityId`). */
  entityType: string;
  entityId: string;
  policyCode: string | null;
  accountCode: string | null;
  /** A product document's version (an IPID is of one product version). */
  productVersionId?: number;
  /** The template kind's variables besides the common ones (`{ policy }`, `{ claim, policy }`). */
  values: Record<string, unknown>;
  /** The list's description and the download's name, after the template's name (its title). */
  description: (title: string) => string;
  filename: (title: string) => string;
}

/** One kind of document the sandbox issues: on which events, from which template, of what. */
export interface Issuer {
  on: readonly DomainEventType[];
  template: SystemTemplate;
  /**
   * The record's facts, read through its owning service's index (the document service reads no
   * other service's tables); null when there is nothing to issue (the record is gone).
   */
  read: (tx: Queryable, event: IssueEvent) => Promise<IssueFacts | null>;
  /**
   * One document per record (a claim's acknowledgement), or one per description (a policy's
   * schedule, whose description names the version): a second event issues nothing more.
   */
  onePer: 'record' | 'description';
}

/** A document just issued: its code and the record it belongs to. */
export interface IssuedRef {
  code: string;
  entityType: string;
  entityId: string;
  policyCode: string | null;
}

/**
 * Issues the issuer's document of the event's record, the sources and values kept with it; null
 * when the record is gone or has it already. With `chosen`, a person asked for it from that
 * template of the issuer's kind: it is issued whatever the record has already.
 */
export async function issueDocument(
  db: Db,
  issuer: Issuer,
  event: IssueEvent,
  now: Date,
  chosen?: DocTemplateRow,
): Promise<IssuedRef | null> {
  const { template: system } = issuer;
  const slug = chosen?.slug ?? system.slug;
  return db.transaction(async (tx) => {
    const facts = await issuer.read(tx, event);
    if (!facts) return null;
    // Two events of one record at once (a retry beside the first) issue one document.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `issued:${event.tenantId}:${slug}:${facts.entityType}:${facts.entityId}`,
    ]);
    // The workspace's template; the built-in one where it has none (a start without the seed)
    // or where the slug is one of its own of another kind, made before the seed gave it ours.
    const found = chosen ?? (await docTemplateBySlug(tx, event.tenantId, system.slug));
    const template = found?.kind === system.kind ? found : null;
    const layout = template
      ? await docLayoutById(tx, event.tenantId, template.layout_id)
      : { header_template: DEFAULT_LAYOUT.header, footer_template: DEFAULT_LAYOUT.footer };
    const title = template?.name ?? system.name;
    const issued: IssuedDocument = {
      title,
      language: 'de',
      sources: {
        body: template?.body_template ?? system.body,
        layout: layout && {
          header_template: layout.header_template,
          footer_template: layout.footer_template,
        },
      },
      values: { ...(await commonValues(tx, event.tenantId, title, now)), ...facts.values },
    };
    const code = newCode('doc');
    const description = facts.description(title);
    const [row] = await tx.query<{ code: string }>(
      `INSERT INTO documents (tenant_id, code, entity_type, entity_id, policy_code, account_code,
                              description, content_type, filename, s3_key, requester, status,
                              template_slug, issued, created_at, updated_at, created_by,
                              updated_by, product_version_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, 'application/pdf', $8, $9, 'documentservice', 'stored',
              $10, $11, $12, $12, $13, $13, $15::int
        WHERE $16 OR NOT EXISTS (SELECT 1 FROM documents d
                                  WHERE d.tenant_id = $1 AND d.entity_type = $3
                                    AND d.entity_id = $4 AND d.template_slug = $10
                                    AND ($14 OR d.description = $7))
       RETURNING code`,
      [
        event.tenantId,
        code,
        facts.entityType,
        facts.entityId,
        facts.policyCode,
        facts.accountCode,
        description,
        facts.filename(title),
        `generated/${event.tenantId}/${code}.pdf`,
        slug,
        JSON.stringify(issued),
        now,
        event.by,
        issuer.onePer === 'record',
        facts.productVersionId ?? null,
        chosen !== undefined,
      ],
    );
    return row
      ? {
          code: row.code,
          entityType: facts.entityType,
          entityId: facts.entityId,
          policyCode: facts.policyCode,
        }
      : null;
  });
}

/** Puts bytes in the store: an outside one by its API, the own one in its table. */
export async function putObject(db: Queryable, store: ObjectStore, key: string, bytes: Buffer) {
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

/**
 * The document service's listener: each issuer's document on each of its events, each one issued
 * told to `issued` (the workspace's open screens read their documents again when told, rather
 * than guessing when the document is there).
 */
export function issueDocumentsOn(
  db: Db,
  logger: Logger,
  issuers: readonly Issuer[],
  now: () => Date,
  issued: (tenantId: number, document: IssuedRef) => void = () => {},
): (event: DomainEvent) => Promise<void> {
  return async (event) => {
    for (const issuer of issuers.filter((i) => i.on.includes(event.type))) {
      try {
        const document = await issueDocument(db, issuer, event, now());
        if (document) issued(event.tenantId, document);
      } catch (err) {
        logger.error(
          { err, template: issuer.template.slug, entity: event.entityCode },
          'a document could not be issued',
        );
      }
    }
  };
}
