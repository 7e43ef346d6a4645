import busboy from 'busboy';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Db } from './db.ts';
import { OWN_STORAGE_HOST, OWN_STORAGE_PATH, type OwnObjectStore } from './object-store.ts';
import { lowerCaseKeys, verifyPostPolicy, verifyPresignedUrl } from './storage-signing.ts';
import { hasMagicOf, isDocumentContentType, MAX_DOCUMENT_BYTES } from '#common/claim-documents.ts';
import { DOCX_CONTENT_TYPE, hasDocxMagic } from '#common/contracts/docx-template.ts';

/**
 * The types the store keeps: the documents' (PDF, PNG, JPEG) and Word files (docx templates,
 * issue 19), whose bytes are a zip; the document service checks a template's content itself.
 */
const isStoredType = (type: string) => isDocumentContentType(type) || type === DOCX_CONTENT_TYPE;
const hasMagicOfStored = (bytes: Uint8Array, type: string) =>
  type === DOCX_CONTENT_TYPE
    ? hasDocxMagic(bytes)
    : isDocumentContentType(type) && hasMagicOf(bytes, type);

/**
 * The sandbox's own object storage, S3's browser-upload and presigned-download protocol: nothing
 * but a valid signature gets in or out (no session, no token), and an upload must be exactly
 * what the document service signed: the key it generated, the content type it declared, a size
 * within the policy's range, and bytes that really are a PDF, PNG or JPEG. Errors are S3's XML.
 * Reached by the browser at the same path through the BFF.
 *
 * It is a store and nothing more: it never reads or writes the document service's rows (the
 * service asks it with a signed HEAD, as it asks S3), so a sandbox in S3 mode can use another
 * sandbox's storage as its S3, which is how the S3 code path is tested without a cloud.
 */

/** The signed fields before the file: the policy is the longest, a few KiB. Together they stay
 * within the 64 KiB the BFF lets through beyond the largest file. */
const FIELD_BYTES = 16 * 1024;
const MAX_FIELDS = 30;
/** Enough of a file's start for every document type's magic bytes (PNG's are the longest). */
const MAGIC_BYTES = 8;

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

  router.post(`/${store.bucket}`, (req: Request, res: Response, next: NextFunction) => {
    receiveUpload(req, res, next, async (fields, bytes) => {
      const signed = lowerCaseKeys(fields);
      // A signed upload is used once: its key was generated for it, so an object already under
      // that key means a replay (S3 would overwrite; this store refuses, which is stricter).
      const stored = await db.query(
        `INSERT INTO storage_objects (bucket, key, content, content_type, size_bytes)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (bucket, key) DO NOTHING RETURNING key`,
        [store.bucket, signed.key ?? '', bytes, signed['content-type'] ?? '', bytes.length],
      );
      if (!stored.length) return s3Error(res, 403, 'AccessDenied', 'This upload was used already');
      res.status(204).end();
    });
  });

  /**
   * Reads a browser upload as it arrives: the fields, which precede the file, are checked
   * against the signed policy before a byte of the file is read, then the file is taken up to
   * the policy's size and must start with its type's magic bytes. Any refusal answers at once,
   * without waiting for the rest of the body; what is still coming is read and thrown away (so
   * the client, still sending, gets the answer) and never kept.
   */
  function receiveUpload(
    req: Request,
    res: Response,
    next: NextFunction,
    keep: (fields: Record<string, string>, bytes: Buffer) => Promise<void>,
  ): void {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        limits: { fieldNameSize: 200, fieldSize: FIELD_BYTES, fields: MAX_FIELDS },
      });
    } catch {
      // Not multipart, or no boundary: there is nothing to parse.
      req.resume();
      return s3Error(res, 400, 'MalformedPOSTRequest', 'Send a multipart/form-data form');
    }
    let settled = false;
    const settle = (answer: () => void | Promise<void>) => {
      if (settled) return;
      settled = true;
      req.unpipe(form);
      req.resume();
      // A failure to store goes to the sandbox's error handler, which logs it.
      Promise.resolve().then(answer).catch(next);
    };
    const refuse = (status: number, code: string, message: string) =>
      settle(() => s3Error(res, status, code, message));
    const malformed = (message: string) => refuse(400, 'MalformedPOSTRequest', message);

    const fields: Record<string, string> = {};
    form.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) malformed(`The field ${name} is too long`);
      else fields[name] = value;
    });
    form.on('fieldsLimit', () => malformed('The form has too many fields'));
    form.on('file', (name, file) => {
      if (settled) return void file.resume();
      if (name !== 'file') return malformed('The file must be the form field named file');
      // S3 reads the policy from the fields before the file and nothing after it.
      const verdict = verifyPostPolicy(store.bucket, fields, store.credentials, new Date());
      if (!verdict.ok) return refuse(verdict.status, verdict.code, verdict.message);
      const contentType = lowerCaseKeys(fields)['content-type'] ?? '';
      const notThatType = () =>
        refuse(400, 'InvalidContent', `The file is not a ${contentType || 'known type'}`);
      // The type was signed, so it is what the service allowed; the bytes must agree with it.
      if (!isStoredType(contentType)) return notThatType();
      const chunks: Buffer[] = [];
      let size = 0;
      let magicChecked = false;
      file.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > verdict.maxBytes) {
          return refuse(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum');
        }
        if (!magicChecked && size >= MAGIC_BYTES) {
          magicChecked = true;
          if (!hasMagicOfStored(Buffer.concat(chunks), contentType)) notThatType();
        }
      });
      file.on('end', () => {
        if (settled) return;
        const bytes = Buffer.concat(chunks);
        if (size < verdict.minBytes) {
          return refuse(400, 'EntityTooSmall', 'Your proposed upload is smaller than allowed');
        }
        if (!hasMagicOfStored(bytes, contentType)) return notThatType();
        settle(() => keep(fields, bytes));
      });
    });
    form.on('close', () => malformed('The form has no file'));
    form.on('error', () => malformed('The multipart form cannot be read'));
    // A client that goes away mid-body needs no answer; the parser must not wait for it.
    req.on('close', () => {
      if (!req.complete) settle(() => {});
    });
    req.pipe(form);
  }

  /**
   * The signed object address of a request, and its key. The document service signs for the
   * store's virtual host (the browser comes through the BFF by any name); an S3 client that
   * reaches the store directly signs for the host it calls, as S3 expects, so that one counts too.
   */
  function verifiedKey(req: Request, res: Response, method: string): string | null {
    const now = new Date();
    const attempt = (host: string) => {
      const url = new URL(req.originalUrl, `http://${host}`);
      return { url, verdict: verifyPresignedUrl(method, url, store.credentials, now) };
    };
    let { url, verdict } = attempt(OWN_STORAGE_HOST);
    const direct = req.headers.host;
    if (!verdict.ok && verdict.code === 'SignatureDoesNotMatch' && direct) {
      ({ url, verdict } = attempt(direct));
    }
    if (!verdict.ok) {
      // A HEAD answer has no body, S3's included.
      if (method === 'HEAD') res.status(verdict.status).end();
      else s3Error(res, verdict.status, verdict.code, verdict.message);
      return null;
    }
    return decodeURIComponent(url.pathname.slice(`${OWN_STORAGE_PATH}/${store.bucket}/`.length));
  }

  // Before GET: Express would answer a HEAD with the GET route, whose signature is for GET.
  router.head(`/${store.bucket}/*key`, async (req: Request, res: Response) => {
    const key = verifiedKey(req, res, 'HEAD');
    if (key === null) return;
    const [object] = await db.query<{ content_type: string; size_bytes: number }>(
      'SELECT content_type, size_bytes FROM storage_objects WHERE bucket = $1 AND key = $2',
      [store.bucket, key],
    );
    if (!object) return res.status(404).end();
    res
      .status(200)
      .set({ 'content-type': object.content_type, 'content-length': String(object.size_bytes) })
      .end();
  });

  router.get(`/${store.bucket}/*key`, async (req: Request, res: Response) => {
    const key = verifiedKey(req, res, 'GET');
    if (key === null) return;
    const [object] = await db.query<{ content: Uint8Array; content_type: string }>(
      'SELECT content, content_type FROM storage_objects WHERE bucket = $1 AND key = $2',
      [store.bucket, key],
    );
    if (!object) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    const disposition = new URL(req.originalUrl, 'http://any').searchParams.get(
      'response-content-disposition',
    );
    res
      .status(200)
      .set({
        'content-type': object.content_type,
        // Always a download: a stored file never renders in the product's origin.
        'content-disposition': disposition?.startsWith('attachment') ? disposition : 'attachment',
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
        'content-security-policy': "default-src 'none'; sandbox",
      })
      .send(Buffer.from(object.content));
  });

  // A direct write with a signed address: what an S3 client of this store (a sandbox in S3 mode
  // seeding its demo files) does. The same rules for the bytes as a browser upload.
  router.put(
    `/${store.bucket}/*key`,
    express.raw({ type: () => true, limit: MAX_DOCUMENT_BYTES }),
    async (req: Request, res: Response) => {
      const key = verifiedKey(req, res, 'PUT');
      if (key === null) return;
      const contentType = req.headers['content-type'] ?? '';
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!bytes.length) return s3Error(res, 400, 'EntityTooSmall', 'The object is empty');
      if (!isStoredType(contentType) || !hasMagicOfStored(bytes, contentType)) {
        return s3Error(
          res,
          400,
          'InvalidContent',
          `The object is not a ${contentType || 'known type'}`,
        );
      }
      await db.query(
        `INSERT INTO storage_objects (bucket, key, content, content_type, size_bytes)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (bucket, key) DO UPDATE
           SET content = $3, content_type = $4, size_bytes = $5, created_at = now()`,
        [store.bucket, key, bytes, contentType, bytes.length],
      );
      res.status(200).end();
    },
  );

  // S3 answers 204 whether or not the key was there.
  router.delete(`/${store.bucket}/*key`, async (req: Request, res: Response) => {
    const key = verifiedKey(req, res, 'DELETE');
    if (key === null) return;
    await db.query('DELETE FROM storage_objects WHERE bucket = $1 AND key = $2', [
      store.bucket,
      key,
    ]);
    res.status(204).end();
  });

  return router;
}
