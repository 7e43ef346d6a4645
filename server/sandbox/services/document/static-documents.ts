import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { S3ObjectStore, type ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { presignUrl } from '#server/sandbox/platform/storage-signing.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  checkTemplate,
  documentVariablesOf,
  refuseProblems,
  type DocumentKind,
} from '#server/sandbox/services/notification/index.ts';
import { docLayoutById, docTemplateBySlug, type DocTemplateRow } from './doc-template-store.ts';
import { commonValues, renderDocumentPdf } from './document-output.ts';
import { putObject, type IssuedDocument } from './issued-documents.ts';
import { STATIC_TEMPLATES } from './ipid-and-static-templates.ts';
import type { PdfRenderer } from './pdf-renderer.ts';

/**
 * Static documents (issue 19, decision 020): documents of no record (terms and conditions,
 * privacy notice, complaints rules), a document template of a record-less kind published under
 * its slug as the stable key. A publication prints the template as saved into a PDF once and
 * keeps it as the key's next version (migration 044); `download-static/{key}` serves the newest,
 * any older one by its number. Publications are never deleted, not even with their template.
 */

/** The spec's document kinds that belong to no record: they may name the workspace only. */
export const STATIC_KINDS = ['terms', 'static', 'rules', 'mediation'] as const;
export type StaticKind = (typeof STATIC_KINDS)[number];
export const isStaticKind = (kind: string): kind is StaticKind =>
  (STATIC_KINDS as readonly string[]).includes(kind);

export interface StaticVersionRow {
  id: number;
  key: string;
  version: number;
  template_code: string;
  template_version: number;
  kind: string;
  title: string;
  filename: string;
  s3_key: string;
  size_bytes: number | null;
  issued: IssuedDocument;
  published_at: Date;
  published_by: string;
  published_by_name: string;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

/** A file name of the title: letters and digits kept (umlauts too), the rest one dash. */
const fileNameOf = (title: string, version: number) =>
  `${title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'document'}-v${version}.pdf`;

/** The workspace's static document of the key (its template's slug); 404 for none or another kind. */
export async function staticTemplateOf(
  db: Queryable,
  tenantId: number,
  key: string,
): Promise<DocTemplateRow & { kind: StaticKind }> {
  const template = await docTemplateBySlug(db, tenantId, key);
  if (!template) throw new HttpError(404, 'not_found', 'static document not found');
  if (!isStaticKind(template.kind))
    throw new HttpError(
      409,
      'not_static',
      `a template of kind ${template.kind} belongs to a record: only terms, static, rules and mediation are published`,
    );
  return template as DocTemplateRow & { kind: StaticKind };
}

/**
 * What a publication prints: the template's saved sources (checked again against the kind's
 * variables, so a source saved before the kinds lost their record is refused with line and
 * column), the layout of today and the workspace's facts.
 */
export async function publicationOf(
  db: Queryable,
  tenantId: number,
  template: DocTemplateRow,
  now: Date,
): Promise<IssuedDocument> {
  refuseProblems([
    {
      path: 'bodyTemplate',
      problems: checkTemplate(
        template.body_template,
        documentVariablesOf(template.kind as DocumentKind),
      ),
    },
  ]);
  const layout = await docLayoutById(db, tenantId, template.layout_id);
  return {
    title: template.name,
    language: 'de',
    sources: {
      body: template.body_template,
      layout: layout && {
        header_template: layout.header_template,
        footer_template: layout.footer_template,
      },
    },
    values: await commonValues(db, tenantId, template.name, now),
  };
}

/**
 * Publishes the key's template as saved: printed first (outside the transaction: a print takes
 * a while, and the embedded database has one connection), then stored and numbered.
 */
export async function publishStaticDocument(
  deps: { db: Db; store: ObjectStore; renderer: PdfRenderer },
  who: { tenantId: number; userCode: string; userName: string },
  key: string,
  now: Date,
  /** The activity log's entry, in the transaction that numbers the publication. */
  record: (tx: Queryable, row: StaticVersionRow, template: DocTemplateRow) => Promise<void>,
): Promise<StaticVersionRow> {
  const { db, store } = deps;
  const template = await staticTemplateOf(db, who.tenantId, key);
  const issued = await publicationOf(db, who.tenantId, template, now);
  const bytes = await renderDocumentPdf(deps.renderer, issued.sources, issued.values, {
    title: issued.title,
    language: issued.language,
  });
  const s3Key = `static/${who.tenantId}/${key}/${newCode('sdv')}.pdf`;
  await putObject(db, store, s3Key, bytes);
  return db.transaction(async (tx) => {
    // Two publications of one key at once get consecutive numbers.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`static:${who.tenantId}:${key}`]);
    const [next] = await tx.query<{ version: number }>(
      `SELECT coalesce(max(version), 0) + 1 AS version FROM static_document_versions
        WHERE tenant_id = $1 AND key = $2`,
      [who.tenantId, key],
    );
    const version = next!.version;
    const [row] = await tx.query<StaticVersionRow>(
      `INSERT INTO static_document_versions (tenant_id, key, version, template_code,
              template_version, kind, title, filename, s3_key, size_bytes, issued, published_at,
              published_by, published_by_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
      [
        who.tenantId,
        key,
        version,
        template.code,
        template.version,
        template.kind,
        issued.title,
        fileNameOf(issued.title, version),
        s3Key,
        bytes.length,
        JSON.stringify(issued),
        now,
        who.userCode,
        who.userName,
      ],
    );
    await record(tx, row!, template);
    return row!;
  });
}

/**
 * Every workspace's seeded static documents get their first publication, once (the seed runs at
 * each start): what the template says then, printed on its first download like an issued
 * document, so a start costs no browser. One statement for all workspaces.
 */
export async function ensureStaticPublications(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO static_document_versions (tenant_id, key, version, template_code,
            template_version, kind, title, filename, s3_key, issued, published_at, published_by,
            published_by_name)
     SELECT t.tenant_id, t.slug, 1, t.code, t.version, t.kind, t.name,
            trim(both '-' from regexp_replace(t.name, '[^[:alnum:]]+', '-', 'g')) || '-v1.pdf',
            'static/' || t.tenant_id || '/' || t.slug || '/seed-v1.pdf',
            jsonb_build_object(
              'title', t.name, 'language', 'de',
              'sources', jsonb_build_object(
                'body', t.body_template,
                'layout', CASE WHEN l.id IS NULL THEN NULL ELSE jsonb_build_object(
                  'header_template', l.header_template,
                  'footer_template', l.footer_template) END),
              'values', jsonb_build_object(
                'tenant', jsonb_build_object('name', n.name),
                'issuedAt', $2::text, 'title', t.name)),
            $3, 'system', 'system'
       FROM doc_templates t
       JOIN tenants n ON n.id = t.tenant_id
       LEFT JOIN document_layouts l ON l.id = t.layout_id
      WHERE t.slug = ANY($1::text[]) AND t.kind IN ('terms', 'static', 'rules', 'mediation')
        AND NOT EXISTS (SELECT 1 FROM static_document_versions v
                         WHERE v.tenant_id = t.tenant_id AND v.key = t.slug)
     ON CONFLICT DO NOTHING`,
    [STATIC_TEMPLATES.map((t) => t.slug), day(now), now],
  );
}

/** The key's publication: the newest, or the one numbered `version`; 404 for none. */
export async function publishedVersion(
  db: Queryable,
  tenantId: number,
  key: string,
  version: number | null,
): Promise<StaticVersionRow> {
  const [row] = await db.query<StaticVersionRow>(
    `SELECT * FROM static_document_versions WHERE tenant_id = $1 AND key = $2
        AND ($3::int IS NULL OR version = $3)
      ORDER BY version DESC LIMIT 1`,
    [tenantId, key, version],
  );
  if (!row) throw new HttpError(404, 'not_found', 'no published static document of this key');
  return row;
}

/** Every publication of the key, newest first. */
export async function publishedVersions(
  db: Queryable,
  tenantId: number,
  key: string,
): Promise<StaticVersionRow[]> {
  return db.query<StaticVersionRow>(
    `SELECT * FROM static_document_versions WHERE tenant_id = $1 AND key = $2
      ORDER BY version DESC`,
    [tenantId, key],
  );
}

/** A stored object's bytes: the own store's from its table, an outside one's by a signed GET. */
async function readObject(db: Queryable, store: ObjectStore, key: string): Promise<Buffer | null> {
  if (store instanceof S3ObjectStore) {
    const url = presignUrl(
      { method: 'GET', url: store.objectUrl(key), expiresSeconds: 60, at: new Date() },
      store.credentials,
    );
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`object storage answered ${res.status} to GET`);
    return Buffer.from(await res.arrayBuffer());
  }
  const [row] = await db.query<{ content: Uint8Array }>(
    'SELECT content FROM storage_objects WHERE bucket = $1 AND key = $2',
    [store.bucket, key],
  );
  return row ? Buffer.from(row.content) : null;
}

/** A publication's PDF: printed first if the seed made it, then read from the store. */
export async function publishedPdf(
  deps: { db: Db; store: ObjectStore; renderer: PdfRenderer },
  row: StaticVersionRow,
): Promise<Buffer> {
  const { db, store } = deps;
  if (row.size_bytes === null) {
    const { sources, values, title, language } = row.issued;
    const bytes = await renderDocumentPdf(deps.renderer, sources, values, { title, language });
    await putObject(db, store, row.s3_key, bytes);
    await db.query('UPDATE static_document_versions SET size_bytes = $2 WHERE id = $1', [
      row.id,
      bytes.length,
    ]);
    return bytes;
  }
  const bytes = await readObject(db, store, row.s3_key);
  if (!bytes) throw new HttpError(404, 'not_found', 'the stored file is missing');
  return bytes;
}
