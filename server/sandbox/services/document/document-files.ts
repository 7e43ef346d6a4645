import type { Logger } from 'pino';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { presignUrl, signPostPolicy } from '#server/sandbox/platform/storage-signing.ts';
import { DOWNLOAD_URL_SECONDS, MAX_DOCUMENT_BYTES } from '#common/claim-documents.ts';

/**
 * The files behind the documents table, for every kind of document (claim and product
 * documents): a browser upload goes straight to the store, which tells nobody (S3 sends no word
 * without event wiring), so a pending row becomes a document once the store has its object; and
 * the signed addresses of uploads and downloads. One place, so each kind uploads the same way.
 */

/** How many uploads in flight one call asks the store about (abandoned ones cost no more). */
const MAX_PENDING_CHECKS = 20;

/** The RFC 6266 header of a download, the name kept in UTF-8 and a plain fallback. */
export function attachmentHeader(filename: string): string {
  const plain = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export interface DocumentFiles {
  /** A pending row becomes stored once the store has its object; false while it has not. */
  confirm(row: { id: number; s3_key: string }): Promise<boolean>;
  /** Before a list answers: the tenant's newest uploads in flight, a bounded number of asks. */
  confirmArrivals(tenantId: number): Promise<void>;
  /** Before a new upload is signed: signatures that expired are settled. */
  settleExpired(tenantId: number): Promise<void>;
  /** A signed address that downloads the file as an attachment under its name. */
  downloadAddress(row: { s3_key: string; filename: string }): string;
  /** The form fields of a browser upload of one object, the given fields signed with it. */
  signUpload(
    fields: Record<string, string>,
    at: Date,
    expiresAt: Date,
  ): { url: string; fields: Record<string, string> };
}

export function documentFiles(ctx: { db: Db; store: ObjectStore; logger: Logger }): DocumentFiles {
  const { db, store } = ctx;

  async function confirm(row: { id: number; s3_key: string }): Promise<boolean> {
    let object: { sizeBytes: number } | null;
    try {
      object = await store.stat(row.s3_key);
    } catch (err) {
      ctx.logger.warn({ err, key: row.s3_key }, 'object storage not reachable');
      return false;
    }
    if (!object) return false;
    await db.query(
      `UPDATE documents SET status = 'stored', size_bytes = $2, updated_at = now()
        WHERE id = $1 AND status = 'pending'`,
      [row.id, object.sizeBytes],
    );
    return true;
  }

  return {
    confirm,
    async confirmArrivals(tenantId) {
      const pending = await db.query<{ id: number; s3_key: string }>(
        `SELECT id, s3_key FROM documents WHERE tenant_id = $1 AND status = 'pending'
          ORDER BY id DESC LIMIT ${MAX_PENDING_CHECKS}`,
        [tenantId],
      );
      for (const row of pending) await confirm(row);
    },
    // An object can only arrive before its policy expires, so one asked for now either is there
    // (the row is confirmed) or never will be (the row goes).
    async settleExpired(tenantId) {
      const expired = await db.query<{ id: number; s3_key: string }>(
        `SELECT id, s3_key FROM documents
          WHERE tenant_id = $1 AND status = 'pending' AND upload_expires_at < now()
          ORDER BY id LIMIT ${MAX_PENDING_CHECKS}`,
        [tenantId],
      );
      for (const row of expired) {
        if (!(await confirm(row))) {
          await db.query(`DELETE FROM documents WHERE id = $1 AND status = 'pending'`, [row.id]);
        }
      }
    },
    downloadAddress(row) {
      const signed = presignUrl(
        {
          method: 'GET',
          url: store.objectUrl(row.s3_key),
          expiresSeconds: DOWNLOAD_URL_SECONDS,
          at: new Date(),
          query: { 'response-content-disposition': attachmentHeader(row.filename) },
        },
        store.credentials,
      );
      return store.publicAddress(signed);
    },
    signUpload(fields, at, expiresAt) {
      const signed = signPostPolicy(
        {
          bucket: store.bucket,
          fields,
          minBytes: 1,
          maxBytes: MAX_DOCUMENT_BYTES,
          expiresAt,
          at,
        },
        store.credentials,
      );
      return { url: store.uploadUrl(), fields: signed };
    },
  };
}
