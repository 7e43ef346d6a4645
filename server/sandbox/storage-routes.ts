import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Db } from './db.ts';
import { OWN_STORAGE_HOST, type OwnObjectStore } from './object-store.ts';
import { verifyPostPolicy, verifyPresignedUrl } from './storage-signing.ts';
import { hasMagicOf, isDocumentContentType, MAX_DOCUMENT_BYTES } from '#common/claim-documents.ts';

/**
 * The sandbox's own object storage, S3's browser-upload and presigned-download protocol: nothing
 * but a valid signature gets in or out (no session, no token), and an upload must be exactly
 * what the document service signed: the key it generated, the content type it declared, a size
 * within the policy's range, and bytes that really are a PDF, PNG or JPEG. Errors are S3's XML.
 * Reached by the browser at the same path through the BFF.
 */

/** The form's fields ride along with the file; a little room beyond the largest file. */
const BODY_LIMIT = MAX_DOCUMENT_BYTES + 64 * 1024;

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function s3Error(res: Response, status: number, code: string, message: string): void {
  res
    .status(status)
    .type('application/xml')
    .send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(code)}</Code>` +
        `<Message>${xmlEscape(message)}</Message></Error>`,
    );
}

export function storageRouter(db: Db, store: OwnObjectStore): Router {
  const router = Router();
  const raw = express.raw({ type: 'multipart/form-data', limit: BODY_LIMIT });

  router.post(
    `/${store.bucket}`,
    (req: Request, res: Response, next: NextFunction) => {
      raw(req, res, (err?: unknown) => {
        if (!err) return next();
        const tooLarge = (err as { type?: string }).type === 'entity.too.large';
        s3Error(
          res,
          400,
          tooLarge ? 'EntityTooLarge' : 'MalformedPOSTRequest',
          tooLarge ? 'Your proposed upload exceeds the maximum allowed size' : 'Unreadable body',
        );
      });
    },
    async (req: Request, res: Response) => {
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('multipart/form-data') || !Buffer.isBuffer(req.body)) {
        return s3Error(res, 400, 'MalformedPOSTRequest', 'Send a multipart/form-data form');
      }
      let form: FormData;
      try {
        form = await new Response(new Uint8Array(req.body), {
          headers: { 'content-type': type },
        }).formData();
      } catch {
        return s3Error(res, 400, 'MalformedPOSTRequest', 'The multipart form cannot be read');
      }
      const fields: Record<string, string> = {};
      let file: File | null = null;
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') fields[name] = value;
        else if (name === 'file') file = value;
      }
      if (!file) return s3Error(res, 400, 'MalformedPOSTRequest', 'The form has no file');

      const verdict = verifyPostPolicy(store.bucket, fields, store.credentials, new Date());
      if (!verdict.ok) return s3Error(res, verdict.status, verdict.code, verdict.message);
      if (file.size < verdict.minBytes) {
        return s3Error(res, 400, 'EntityTooSmall', 'Your proposed upload is smaller than allowed');
      }
      if (file.size > verdict.maxBytes) {
        return s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum');
      }
      const key = Object.entries(fields).find(([k]) => k.toLowerCase() === 'key')?.[1] ?? '';
      const contentType =
        Object.entries(fields).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
      const bytes = new Uint8Array(await file.arrayBuffer());
      // The type was signed, so it is what the service allowed; the bytes must agree with it.
      if (!isDocumentContentType(contentType) || !hasMagicOf(bytes, contentType)) {
        return s3Error(
          res,
          400,
          'InvalidContent',
          `The file is not a ${contentType || 'known type'}`,
        );
      }

      // One transaction: the object and its document row appear together, or neither does; a
      // policy used once cannot store a second file under the same key.
      const stored = await db.transaction(async (tx) => {
        const [doc] = await tx.query<{ id: number }>(
          `UPDATE documents SET status = 'stored', size_bytes = $2, updated_at = now()
            WHERE s3_key = $1 AND status = 'pending' RETURNING id`,
          [key, bytes.length],
        );
        if (!doc) return false;
        await tx.query(
          `INSERT INTO storage_objects (bucket, key, content, content_type, size_bytes)
           VALUES ($1, $2, $3, $4, $5)`,
          [store.bucket, key, bytes, contentType, bytes.length],
        );
        return true;
      });
      if (!stored) {
        return s3Error(res, 403, 'AccessDenied', 'This upload was used already or withdrawn');
      }
      res.status(204).end();
    },
  );

  router.get(`/${store.bucket}/*key`, async (req: Request, res: Response) => {
    // The address as signed: on the storage's virtual host, whatever Host the proxies sent.
    const url = new URL(req.originalUrl, `http://${OWN_STORAGE_HOST}`);
    const verdict = verifyPresignedUrl('GET', url, store.credentials, new Date());
    if (!verdict.ok) return s3Error(res, verdict.status, verdict.code, verdict.message);
    const key = decodeURIComponent(url.pathname.slice(`/storage/${store.bucket}/`.length));
    const [object] = await db.query<{ content: Uint8Array; content_type: string }>(
      'SELECT content, content_type FROM storage_objects WHERE bucket = $1 AND key = $2',
      [store.bucket, key],
    );
    if (!object) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    const disposition = url.searchParams.get('response-content-disposition') ?? 'attachment';
    res
      .status(200)
      .set({
        'content-type': object.content_type,
        // Always a download: a stored file never renders in the product's origin.
        'content-disposition': disposition.startsWith('attachment') ? disposition : 'attachment',
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
        'content-security-policy': "default-src 'none'; sandbox",
      })
      .send(Buffer.from(object.content));
  });

  return router;
}
