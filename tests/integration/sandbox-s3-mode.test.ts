import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  api,
  login,
  makeTempDir,
  startTestSandbox,
  type Session,
} from '#server/sandbox/testing.ts';
import { makePdf } from '#server/sandbox/services/document/demo-files.ts';
import { presignUrl, type StorageCredentials } from '#server/sandbox/platform/storage-signing.ts';
import { loadStorageCredentials } from '#server/sandbox/platform/object-store.ts';

/**
 * The S3 code path without a cloud: one sandbox ("the store") serves only as S3, another ("the
 * service") runs with S3_* pointed at the store's /storage. The service seeds its demo files by
 * signed PUT, signs browser uploads for the store's address, finds arrivals with signed HEADs,
 * hands out downloads signed for the store and removes objects with signed DELETEs. The store
 * knows nothing of the service's documents; only the signatures connect them.
 */

const D = '/documentservice/v1/documents';
const BUCKET = 'documents';
const PDF = makePdf('S3 mode', ['uploaded through the S3 path']);

let storeSandbox: RunningSandbox;
let service: RunningSandbox;
let credentials: StorageCredentials;
let care: Session;
const removers: (() => Promise<void>)[] = [];

const call = (route: string, method = 'GET', body?: unknown) =>
  api(service.url, route, {
    token: care.accessToken,
    method,
    ...(body !== undefined ? { body } : {}),
  });

async function storedObject(key: string) {
  const [row] = await storeSandbox.db.query<{ size_bytes: number; content_type: string }>(
    'SELECT size_bytes, content_type FROM storage_objects WHERE bucket = $1 AND key = $2',
    [BUCKET, key],
  );
  return row;
}

interface Claim {
  id: number;
  code: string;
  policyCode: string;
  accountCode: string;
}
interface Doc {
  code: string;
  s3Key: string;
  filename: string;
  sizeBytes: number | null;
}

async function documentsOf(claim: Claim): Promise<Doc[]> {
  const filter = encodeURIComponent(`entityType=ClaimDocument&entityId=${claim.id}`);
  const res = await call(`${D}?pageSize=100&filter=${filter}`);
  expect(res.status).toBe(200);
  return res.body.items as Doc[];
}

beforeAll(async () => {
  const storeDir = await makeTempDir();
  removers.push(storeDir.remove);
  // The store's own demo world is not needed: it is only an object store here.
  storeSandbox = await startTestSandbox(storeDir.dir, { seed: false });
  // The store's keys as it made them (loading them again changes nothing).
  credentials = await loadStorageCredentials(storeSandbox.db);
  const serviceDir = await makeTempDir();
  removers.push(serviceDir.remove);
  service = await startTestSandbox(serviceDir.dir, {
    s3: { endpoint: `${storeSandbox.url}/storage`, bucket: BUCKET, ...credentials },
  });
  care = await login(service.url, 'care@demo.test');
}, 120_000);

afterAll(async () => {
  await service?.close();
  await storeSandbox?.close();
  for (const remove of removers) await remove();
});

describe('a sandbox in S3 mode against another sandbox as its S3', () => {
  it('seeded the demo files into the store, and downloads them from there', async () => {
    const [count] = await storeSandbox.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM storage_objects WHERE bucket = $1',
      [BUCKET],
    );
    expect(count!.n).toBeGreaterThan(500);
    const [seeded] = await service.db.query<{ code: string; s3_key: string; size_bytes: number }>(
      `SELECT code, s3_key, size_bytes FROM documents
        WHERE entity_type = 'ClaimDocument' AND content_type = 'application/pdf' LIMIT 1`,
    );
    expect(seeded!.size_bytes).toBe((await storedObject(seeded!.s3_key))!.size_bytes);

    const address = await call(`${D}/${seeded!.code}/download-url`);
    expect(address.status).toBe(200);
    // Absolute, signed for the store (an outside S3 is not behind the BFF).
    expect(address.body.url.startsWith(`${storeSandbox.url}/storage/${BUCKET}/`)).toBe(true);
    const file = await fetch(address.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('uploads through a signed form to the store; the service lists it once it is there', async () => {
    const claimsRes = await call('/claimservice/v1/claims?pageSize=1&order=createdAt:ASC');
    const claim = claimsRes.body.items[0] as Claim;
    const signed = await call(`${D}/pre-signed-post`, 'POST', {
      accountCode: claim.accountCode,
      policyCode: claim.policyCode,
      contentType: 'pdf',
      isoContentType: 'application/pdf',
      entityType: 'ClaimDocument',
      entityId: claim.id,
      filename: 'through-s3.pdf',
    });
    expect(signed.status).toBe(201);
    expect(signed.body.url).toBe(`${storeSandbox.url}/storage/${BUCKET}`);
    const key = signed.body.fields.key as string;
    expect((await documentsOf(claim)).map((d) => d.s3Key)).not.toContain(key);

    const form = new FormData();
    for (const [k, v] of Object.entries(signed.body.fields as Record<string, string>)) {
      form.append(k, v);
    }
    form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'x.pdf');
    const posted = await fetch(signed.body.url, { method: 'POST', body: form });
    expect(posted.status).toBe(204);
    expect(await storedObject(key)).toEqual({
      size_bytes: PDF.length,
      content_type: 'application/pdf',
    });

    const listed = (await documentsOf(claim)).find((d) => d.s3Key === key);
    expect(listed).toMatchObject({ filename: 'through-s3.pdf', sizeBytes: PDF.length });

    const address = await call(`${D}/${listed!.code}/download-url`);
    const file = await fetch(address.body.url);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(PDF))).toBe(true);

    // Deleting the document removes the object from the store with a signed DELETE.
    expect((await call(`${D}/${listed!.code}`, 'DELETE')).status).toBe(204);
    expect(await storedObject(key)).toBeUndefined();
    expect((await fetch(address.body.url)).status).toBe(404);
  });

  it('refuses HEAD, PUT and DELETE that are unsigned, tampered or expired', async () => {
    const [row] = await storeSandbox.db.query<{ key: string }>(
      'SELECT key FROM storage_objects WHERE bucket = $1 LIMIT 1',
      [BUCKET],
    );
    const url = new URL(`${storeSandbox.url}/storage/${BUCKET}/${row!.key}`);
    const sign = (method: 'HEAD' | 'PUT' | 'DELETE', at = new Date(), secret?: string) =>
      presignUrl(
        { method, url, expiresSeconds: 60, at },
        secret ? { ...credentials, secretAccessKey: secret } : credentials,
      );

    expect((await fetch(url, { method: 'HEAD' })).status).toBe(403);
    expect(
      (await fetch(sign('HEAD', new Date(), 'not-the-secret'), { method: 'HEAD' })).status,
    ).toBe(403);
    const head = await fetch(sign('HEAD'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    // A HEAD signature does not open a DELETE.
    expect((await fetch(sign('HEAD'), { method: 'DELETE' })).status).toBe(403);
    const old = new Date(Date.now() - 120_000);
    expect((await fetch(sign('DELETE', old), { method: 'DELETE' })).status).toBe(403);
    const exe = Buffer.from('MZ\x90\x00 not a pdf');
    const put = await fetch(sign('PUT'), {
      method: 'PUT',
      body: new Uint8Array(exe),
      headers: { 'content-type': 'application/pdf' },
    });
    expect(put.status).toBe(400);
    expect(await put.text()).toContain('<Code>InvalidContent</Code>');
    expect(await storedObject(row!.key)).toBeDefined();

    expect((await fetch(sign('DELETE'), { method: 'DELETE' })).status).toBe(204);
    expect(await storedObject(row!.key)).toBeUndefined();
    expect((await fetch(sign('HEAD'), { method: 'HEAD' })).status).toBe(404);
  });
});
