import express, { type Request } from 'express';
import { HttpError } from './errors.ts';

/**
 * Uploads (factor tables, translation files) come as multipart forms with one file. The body is
 * read raw, within the size limit, and parsed by the platform's own form-data reader. Mount it
 * after the token and permission checks (as every route using it does), so that nobody gets a
 * megabyte read without the right to send it.
 */

export const MAX_UPLOAD_BYTES = 1_000_000;

/** Reads a multipart body of at most MAX_UPLOAD_BYTES (larger: 413 payload_too_large). */
export const rawMultipart = express.raw({ type: 'multipart/form-data', limit: MAX_UPLOAD_BYTES });

export interface UploadForm {
  filename: string;
  text: string;
  fields: Map<string, string>;
}

const badForm = (message: string) => new HttpError(400, 'invalid_form', message);

export async function readUploadForm(req: Request): Promise<UploadForm> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data') || !Buffer.isBuffer(req.body)) {
    throw badForm('send a multipart/form-data form with a file');
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(req.body), {
      headers: { 'content-type': type },
    }).formData();
  } catch {
    throw badForm('the multipart form cannot be read');
  }
  const fields = new Map<string, string>();
  let file: File | null = null;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.set(name, value);
    else if (name === 'file') file = value;
  }
  if (!file) throw badForm('file: the form has no file');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw new HttpError(400, 'invalid_file', 'the file is not UTF-8 text');
  }
  return { filename: file.name.slice(0, 200), text, fields };
}
