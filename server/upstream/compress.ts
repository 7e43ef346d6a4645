import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { createGzip, gzip, type Gzip } from 'node:zlib';

/** Answers shorter than this go as they are: the gzip frame and the CPU would buy nothing. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * gzip at level 1 for JSON answers of the API. Measured on real list pages
 * (bench/json-compression.ts): 30 policies 21 KB → 2.9 KB in ~50 µs of CPU; level 6 saves
 * another 10 % for three times the CPU, brotli 4 another 17 % for twice the CPU. The proxy pays
 * it on every list page, so the cheap end wins.
 */
const GZIP_OPTIONS = { level: 1 };

/**
 * A gzip stream for this answer when the browser takes gzip and the upstream sent JSON of some
 * size uncompressed, else null. Adjusts `headers` (the ones about to be sent) to match: no
 * length (it changes), `content-encoding: gzip`, and `vary` so no cache mixes the two forms.
 */
export function jsonCompressor(
  req: { headers: IncomingHttpHeaders },
  proxyRes: IncomingMessage,
  headers: OutgoingHttpHeaders,
): Gzip | null {
  if (proxyRes.headers['content-encoding']) return null;
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(proxyRes.headers['content-type'] ?? ''))
    return null;
  const length = proxyRes.headers['content-length'];
  if (length !== undefined && Number(length) < COMPRESS_MIN_BYTES) return null;
  if (!acceptsGzip(req.headers['accept-encoding'])) return null;
  delete headers['content-length'];
  headers['content-encoding'] = 'gzip';
  varyOnEncoding(headers);
  return createGzip(GZIP_OPTIONS);
}

/** Says that the answer depends on Accept-Encoding, so that no cache mixes its two forms. */
export function varyOnEncoding(headers: OutgoingHttpHeaders): void {
  headers.vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : 'Accept-Encoding';
}

/** A JSON answer the BFF wrote itself, compressed as `jsonCompressor` would (off the main thread). */
export const gzipJson = (body: Buffer): Promise<Buffer> => gzipAsync(body, GZIP_OPTIONS);
const gzipAsync = promisify(gzip);

/** Whether an Accept-Encoding list takes gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const list = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of list.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
