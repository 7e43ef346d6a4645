import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  userWithPermissions,
  type ApiResponse,
  type Session,
} from '#server/sandbox/testing.ts';
import { makeJpeg, makePdf, makePng } from '#server/sandbox/services/document/demo-files.ts';
import {
  signPostPolicy,
  presignUrl,
  type StorageCredentials,
} from '#server/sandbox/platform/storage-signing.ts';
import { loadStorageCredentials, OWN_STORAGE_HOST } from '#server/sandbox/platform/object-store.ts';
import { MAX_DOCUMENT_BYTES } from '#common/claim-documents.ts';
import { within } from '#tests/support/hold.ts';
import { withSandbox } from '#tests/support/sandbox.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * Claim documents end to end against the real sandbox: the document service signs, the
 * sandbox's own storage enforces what it signed, the list shows only what arrived, downloads
 * come back byte for byte as attachments. Then the same through the BFF's /storage forwarding.
 */

const kit = withSandbox(
  'care@demo.test',
  'viewer@demo.test',
  'admin@demo.test',
  'admin@nordlicht.test',
);
const D = '/documentservice/v1/documents';
const BUCKET = 'documents';

interface Claim {
  id: number;
  code: string;
  claimNumber: string;
  policyCode: string;
  accountCode: string;
  version: number;
}
interface Doc {
  code: string;
  filename: string;
  s3Key: string;
  entityType: string;
  entityId: string;
  contentType: string;
  description: string;
  createdAt: string;
}
interface Presigned {
  url: string;
  fields: Record<string, string>;
}

const care = () => kit.sessions['care@demo.test'];
const viewer = () => kit.sessions['viewer@demo.test'];
const nord = () => kit.sessions['admin@nordlicht.test'];

const call = (session: Session, route: string, method = 'GET', body?: unknown) =>
  api(kit.base, route, {
    token: session.accessToken,
    method,
    ...(body !== undefined ? { body } : {}),
  });

async function claimsOf(session: Session, count: number): Promise<Claim[]> {
  const res = await call(session, `/claimservice/v1/claims?pageSize=${count}&order=createdAt:ASC`);
  expect(res.status).toBe(200);
  return res.body.items as Claim[];
}

async function listDocs(session: Session, claimId: number, extra = ''): Promise<ApiResponse> {
  const filter = encodeURIComponent(`entityType=ClaimDocument&entityId=${claimId}${extra}`);
  return call(session, `${D}?pageSize=100&filter=${filter}`);
}

const requestBody = (claim: Claim, overrides: Record<string, unknown> = {}) => ({
  accountCode: claim.accountCode,
  policyCode: claim.policyCode,
  description: 'Photo of the rear bumper',
  contentType: 'pdf',
  isoContentType: 'application/pdf',
  entityType: 'ClaimDocument',
  entityId: claim.id,
  requester: 'claimservice',
  templateSlug: 'ClaimDoc',
  filename: 'report.pdf',
  ...overrides,
});

const FILES = {
  pdf: {
    name: 'report.pdf',
    short: 'pdf',
    iso: 'application/pdf',
    bytes: makePdf('Report', ['x']),
  },
  png: { name: 'sketch.png', short: 'png', iso: 'image/png', bytes: makePng(16, [10, 20, 30]) },
  jpeg: { name: 'photo.jpeg', short: 'jpg', iso: 'image/jpeg', bytes: makeJpeg(90) },
} as const;

async function presign(session: Session, claim: Claim, overrides: Record<string, unknown> = {}) {
  return call(session, `${D}/pre-signed-post`, 'POST', requestBody(claim, overrides));
}

async function presignFile(session: Session, claim: Claim, file: keyof typeof FILES) {
  const f = FILES[file];
  const res = await presign(session, claim, {
    filename: f.name,
    contentType: f.short,
    isoContentType: f.iso,
  });
  expect(res.status).toBe(201);
  return res.body as Presigned;
}

/** The browser's multipart post: the signed fields, then the file (S3 reads nothing after it). */
async function postForm(
  base: string,
  url: string,
  fields: Record<string, string>,
  bytes: Uint8Array,
  name = 'upload.bin',
  type = 'application/octet-stream',
): Promise<{ status: number; text: string; headers: Headers }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(new URL(url, base), { method: 'POST', body: form });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
const upload = (p: Presigned, bytes: Uint8Array) => postForm(kit.base, p.url, p.fields, bytes);

/** An S3 error: XML with the code. */
function expectS3Error(
  res: { status: number; text: string; headers: Headers },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(res.text).toContain(`<Code>${code}</Code>`);
}

const ANNOUNCED = 20 * 1024 * 1024;
const BOUNDARY = '----stalled-upload-boundary';

/** The multipart form up to and including the first bytes of the file part. */
function formStart(fields: Record<string, string>, fileStart: Uint8Array): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="stalled.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  return Buffer.concat([Buffer.from(parts.join('')), fileStart]);
}

/**
 * Posts `start` under a Content-Length of 20 MB and then sends nothing more: the answer must come
 * while the client still owes almost all of the body. Resolves with the status and body.
 */
async function stalledUpload(
  base: string,
  start: Buffer,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let received = Buffer.alloc(0);
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      resolve({
        status: Number(text.slice(9, 12)),
        body: text.slice(headEnd + 4, headEnd + 4 + length),
      });
    });
    socket.write(
      `POST /storage/documents HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${ANNOUNCED}\r\n\r\n`,
    );
    socket.write(start);
  });
  try {
    return await within(
      20_000,
      () => `an answer while the upload stalls (got: ${received.toString('latin1')})`,
      answer,
    );
  } finally {
    socket.destroy();
  }
}

const credentials = (): Promise<StorageCredentials> => loadStorageCredentials(kit.db());

const SIGNING_FIELDS = [
  'Policy',
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Signature',
];
const signedOnly = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).filter(([k]) => !SIGNING_FIELDS.includes(k)));

async function storedRow(key: string) {
  const [doc] = await kit
    .db()
    .query<{ status: string; size_bytes: number | null }>(
      'SELECT status, size_bytes FROM documents WHERE s3_key = $1',
      [key],
    );
  const objects = await kit
    .db()
    .query('SELECT 1 FROM storage_objects WHERE bucket = $1 AND key = $2', [BUCKET, key]);
  return { doc, hasObject: objects.length === 1 };
}

let claim: Claim;
let second: Claim;
let nordClaim: Claim;
beforeAll(async () => {
  [claim, second] = (await claimsOf(care(), 2)) as [Claim, Claim];
  [nordClaim] = (await claimsOf(nord(), 1)) as [Claim];
});

describe('pre-signed upload', () => {
  it.each(Object.keys(FILES) as (keyof typeof FILES)[])(
    'signs, stores and lists a %s, which downloads byte for byte as an attachment',
    async (kind) => {
      const file = FILES[kind];
      const signed = await presignFile(care(), claim, kind);
      expect(signed.url).toBe(`/storage/${BUCKET}`);
      const key = signed.fields.key!;
      expect(key).toMatch(
        new RegExp(`^demo/claims/${claim.code}/doc_[A-Za-z0-9_-]+\\.${file.short}$`),
      );
      expect(signed.fields).toMatchObject({
        'Content-Type': file.iso,
        filename: file.name,
        description: 'Photo of the rear bumper',
        entityId: String(claim.id),
        entityType: 'ClaimDocument',
        contentType: file.short,
        templateSlug: 'ClaimDoc',
        'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      });
      expect(signed.fields.code).toMatch(/^doc_/);
      for (const f of ['Policy', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Signature']) {
        expect(signed.fields[f]).toBeTruthy();
      }

      // Signed but not uploaded: not a document yet.
      const before = await listDocs(care(), claim.id);
      expect(before.body.items.map((d: Doc) => d.s3Key)).not.toContain(key);
      expect((await storedRow(key)).doc?.status).toBe('pending');
      expect((await call(care(), `${D}/${signed.fields.code}/download-url`)).status).toBe(404);

      const res = await upload(signed, file.bytes);
      expect(res.status).toBe(204);
      // The storage keeps the object and nothing else; the service finds it when asked.
      expect(await storedRow(key)).toEqual({
        doc: { status: 'pending', size_bytes: null },
        hasObject: true,
      });

      const after = await listDocs(care(), claim.id);
      expect(await storedRow(key)).toEqual({
        doc: { status: 'stored', size_bytes: file.bytes.length },
        hasObject: true,
      });
      const listed = (after.body.items as Doc[]).find((d) => d.s3Key === key);
      expect(listed).toMatchObject({
        code: signed.fields.code,
        filename: file.name,
        contentType: file.iso,
        entityType: 'ClaimDocument',
        entityId: String(claim.id),
        policyCode: claim.policyCode,
        accountCode: claim.accountCode,
        templateSlug: 'ClaimDoc',
        requester: 'claimservice',
        sizeBytes: file.bytes.length,
      });
      // Newest first.
      expect((after.body.items as Doc[])[0]!.s3Key).toBe(key);

      const address = await call(viewer(), `${D}/${signed.fields.code}/download-url`);
      expect(address.status).toBe(200);
      expect(address.body.url).toMatch(/^\/storage\/documents\/demo\/claims\//);
      const download = await fetch(new URL(address.body.url, kit.base));
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(file.bytes))).toBe(true);
      expect(download.headers.get('content-type')).toBe(file.iso);
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="${file.name}"; filename*=UTF-8''${file.name}`,
      );
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');

      // The same object by its key (the /download page's call).
      const byKey = await call(viewer(), `${D}/signed-s3-url?s3Key=${encodeURIComponent(key)}`);
      expect(byKey.status).toBe(200);
      const again = await fetch(new URL(byKey.body.url, kit.base));
      expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(file.bytes))).toBe(true);
    },
  );

  it('keeps a name with spaces and umlauts in the download header', async () => {
    const signed = (
      await presign(care(), claim, { filename: 'Schaden Fotos März.pdf', description: '' })
    ).body as Presigned;
    expect((await upload(signed, FILES.pdf.bytes)).status).toBe(204);
    const { body } = await call(care(), `${D}/${signed.fields.code}/download-url`);
    const res = await fetch(new URL(body.url, kit.base));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Schaden Fotos M_rz.pdf"; filename*=UTF-8''Schaden%20Fotos%20M%C3%A4rz.pdf`,
    );
  });

  it('lists the seeded documents of a claim and filters them by creation time', async () => {
    const all = (await listDocs(care(), second.id)).body.items as Doc[];
    expect(all.length).toBeGreaterThan(0);
    const times = all.map((d) => Date.parse(d.createdAt));
    const newest = Math.max(...times);
    const from = await listDocs(
      care(),
      second.id,
      `&createdAtFrom=${new Date(newest).toISOString()}`,
    );
    expect(from.status).toBe(200);
    expect(from.body.items.map((d: Doc) => Date.parse(d.createdAt))).toEqual(
      times.filter((t) => t >= newest),
    );
    const to = await listDocs(
      care(),
      second.id,
      `&createdAtTo=${new Date(newest - 1).toISOString()}`,
    );
    expect(to.body.items.length).toBe(all.length - 1);
    const bad = await listDocs(care(), second.id, '&createdAtFrom=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: 'invalid_query',
      message: expect.stringContaining('createdAtFrom'),
    });
  });

  it('refuses a list without an owner', async () => {
    const res = await call(care(), `${D}?filter=entityType=ClaimDocument`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/entityId/);
  });
});

describe('bad input to pre-signed-post', () => {
  it.each([
    [
      'a pdf name with png types',
      { filename: 'a.pdf', contentType: 'png', isoContentType: 'image/png' },
    ],
    [
      'a png name with pdf types',
      { filename: 'a.png', contentType: 'pdf', isoContentType: 'application/pdf' },
    ],
    [
      'short and ISO types apart',
      { filename: 'a.png', contentType: 'png', isoContentType: 'image/jpeg' },
    ],
    [
      'an .exe name',
      { filename: 'tool.exe', contentType: 'pdf', isoContentType: 'application/pdf' },
    ],
    [
      'a name without extension',
      { filename: 'report', contentType: 'pdf', isoContentType: 'application/pdf' },
    ],
  ])('refuses %s', async (_label, overrides) => {
    const res = await presign(care(), claim, overrides);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'validation_error',
      message: expect.stringMatching(/^filename: /),
    });
  });

  it.each([
    [
      'jpeg instead of jpg (the spec shortens it)',
      { filename: 'a.jpeg', contentType: 'jpeg', isoContentType: 'image/jpeg' },
      /^contentType: invalid_type/,
    ],
    [
      'another ISO type',
      { isoContentType: 'application/x-msdownload' },
      /^isoContentType: invalid_type/,
    ],
    [
      'a description over 500 characters',
      { description: 'x'.repeat(501) },
      /^description: too_long/,
    ],
    ['a path in the name', { filename: '../etc/passwd.pdf' }, /^filename: invalid_filename/],
    ['another entity type', { entityType: 'lead' }, /^entityType: unsupported_entity/],
    ['another requester', { requester: 'insuranceservice' }, /^requester: invalid_requester/],
    ['another template', { templateSlug: 'Invoice' }, /^templateSlug: invalid_template/],
    ['a claim id that is text', { entityId: 'clm_1' }, /^entityId: /],
    ['an empty account', { accountCode: '' }, /^accountCode: required/],
  ])('refuses %s', async (_label, overrides, message) => {
    const res = await presign(care(), claim, overrides);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.message).toMatch(message);
  });

  it.each(['accountCode', 'policyCode', 'filename', 'entityId', 'contentType', 'isoContentType'])(
    'names the missing field %s',
    async (field) => {
      const body: Record<string, unknown> = requestBody(claim);
      delete body[field];
      const res = await call(care(), `${D}/pre-signed-post`, 'POST', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    },
  );

  it("refuses a policy or account that is not the claim's", async () => {
    const res = await presign(care(), claim, {
      policyCode: second.policyCode === claim.policyCode ? 'pol_x' : second.policyCode,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^policyCode: /);
    expect((await presign(care(), claim, { accountCode: 'acc_nobody' })).status).toBe(400);
  });

  it('answers 404 for an unknown claim', async () => {
    const res = await presign(care(), claim, { entityId: 999_999_999 });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Claim does not exist');
  });

  it('refuses malformed JSON with a JSON 400', async () => {
    const res = await api(kit.base, `${D}/pre-signed-post`, {
      token: care().accessToken,
      rawBody: '{"filename":',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_json');
  });
});

describe('tenant isolation', () => {
  let demoDoc: Doc;
  beforeAll(async () => {
    demoDoc = ((await listDocs(care(), second.id)).body.items as Doc[])[0]!;
  });

  it("answers 404 for another tenant's claim", async () => {
    const res = await presign(care(), nordClaim);
    expect(res.status).toBe(404);
    const theirs = await presign(nord(), claim);
    expect(theirs.status).toBe(404);
  });

  it("never signs another tenant's key or code, never deletes it", async () => {
    const byKey = await call(
      nord(),
      `${D}/signed-s3-url?s3Key=${encodeURIComponent(demoDoc.s3Key)}`,
    );
    expect(byKey.status).toBe(404);
    expect(byKey.body.error).toBe('not_found');
    expect((await call(nord(), `${D}/${demoDoc.code}/download-url`)).status).toBe(404);
    expect((await call(nord(), `${D}/${demoDoc.code}`, 'DELETE')).status).toBe(404);
    expect((await listDocs(nord(), second.id)).body.items).toEqual([]);
    // Still there for its own tenant.
    expect((await call(care(), `${D}/${demoDoc.code}/download-url`)).status).toBe(200);
  });

  it('asks for the key', async () => {
    const res = await call(care(), `${D}/signed-s3-url`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('s3Key is required');
  });
});

describe('permissions', () => {
  it('lets a show-only user read and download but not upload or delete', async () => {
    expect((await presign(viewer(), claim)).status).toBe(403);
    const doc = ((await listDocs(viewer(), second.id)).body.items as Doc[])[0]!;
    const del = await call(viewer(), `${D}/${doc.code}`, 'DELETE');
    expect(del.status).toBe(403);
    expect(del.body.error).toBe('forbidden');
    expect((await call(viewer(), `${D}/${doc.code}/download-url`)).status).toBe(200);
  });

  it('lets a user with nothing but eis_claims_delete delete a claim document', async () => {
    const deleter = await userWithPermissions(
      kit.base,
      kit.sessions['admin@demo.test'],
      'anna.albrecht0@demo.test',
      'claim-doc-deleter',
      ['eis_claims_delete'],
    );
    const signed = await presignFile(care(), claim, 'png');
    expect((await upload(signed, FILES.png.bytes)).status).toBe(204);
    expect((await presign(deleter, claim)).status).toBe(403);
    expect((await call(deleter, `${D}/${signed.fields.code}`, 'DELETE')).status).toBe(204);
    expect(await storedRow(signed.fields.key!)).toEqual({ doc: undefined, hasObject: false });
  });

  it('lets a user with only document_management_documents_create upload', async () => {
    const uploader = await userWithPermissions(
      kit.base,
      kit.sessions['admin@demo.test'],
      'carla.otto2@demo.test',
      'claim-doc-uploader',
      ['document_management_documents_create'],
    );
    expect((await presign(uploader, claim)).status).toBe(201);
  });

  it('refuses a call without a token', async () => {
    expect((await api(kit.base, `${D}/pre-signed-post`, { body: requestBody(claim) })).status).toBe(
      401,
    );
  });
});

describe('the storage enforces the policy it signed', () => {
  it('refuses an expired policy', async () => {
    const signed = await presignFile(care(), claim, 'pdf');
    const expired = signPostPolicy(
      {
        bucket: BUCKET,
        fields: signedOnly(signed.fields),
        minBytes: 1,
        maxBytes: MAX_DOCUMENT_BYTES,
        expiresAt: new Date(Date.now() - 1000),
        at: new Date(Date.now() - 16 * 60_000),
      },
      await credentials(),
    );
    const res = await postForm(kit.base, signed.url, expired, FILES.pdf.bytes);
    expectS3Error(res, 403, 'AccessDenied');
    expect(res.text).toContain('Policy expired');
    expect((await storedRow(signed.fields.key!)).doc?.status).toBe('pending');
  });

  it('refuses a tampered signature, a changed key, a changed Content-Type or an extra field', async () => {
    const signed = await presignFile(care(), claim, 'pdf');
    const sig = signed.fields['X-Amz-Signature']!;
    const tampered = {
      ...signed.fields,
      'X-Amz-Signature': sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'),
    };
    expectS3Error(
      await postForm(kit.base, signed.url, tampered, FILES.pdf.bytes),
      403,
      'SignatureDoesNotMatch',
    );

    const otherKey = { ...signed.fields, key: signed.fields.key!.replace(/doc_/, 'doc_x') };
    expectS3Error(
      await postForm(kit.base, signed.url, otherKey, FILES.pdf.bytes),
      403,
      'AccessDenied',
    );

    const otherType = { ...signed.fields, 'Content-Type': 'image/png' };
    const typeRes = await postForm(kit.base, signed.url, otherType, FILES.png.bytes);
    expectS3Error(typeRes, 403, 'AccessDenied');
    expect(typeRes.text).toContain('Content-Type');

    const extra = { ...signed.fields, 'x-amz-meta-owner': 'me' };
    expectS3Error(
      await postForm(kit.base, signed.url, extra, FILES.pdf.bytes),
      403,
      'AccessDenied',
    );

    // A policy the client rewrote (a longer expiry) no longer matches its signature.
    const policy = JSON.parse(Buffer.from(signed.fields.Policy!, 'base64').toString());
    policy.expiration = new Date(Date.now() + 86_400_000).toISOString();
    const rewritten = {
      ...signed.fields,
      Policy: Buffer.from(JSON.stringify(policy)).toString('base64'),
    };
    expectS3Error(
      await postForm(kit.base, signed.url, rewritten, FILES.pdf.bytes),
      403,
      'SignatureDoesNotMatch',
    );

    // None of these stored anything; the genuine form still works.
    expect((await storedRow(signed.fields.key!)).doc?.status).toBe('pending');
    expect((await upload(signed, FILES.pdf.bytes)).status).toBe(204);
  });

  it('refuses an .exe renamed .pdf by its bytes', async () => {
    const signed = await presignFile(care(), claim, 'pdf');
    const exe = Buffer.concat([
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
      Buffer.alloc(200, 1),
    ]);
    const res = await postForm(
      kit.base,
      signed.url,
      signed.fields,
      exe,
      'tool.pdf',
      'application/pdf',
    );
    expectS3Error(res, 400, 'InvalidContent');
    expect(await storedRow(signed.fields.key!)).toEqual({
      doc: { status: 'pending', size_bytes: null },
      hasObject: false,
    });
    // A PNG sent under a signed PDF type is refused just the same.
    expectS3Error(await upload(signed, FILES.png.bytes), 400, 'InvalidContent');
    expect((await listDocs(care(), claim.id)).body.items.map((d: Doc) => d.s3Key)).not.toContain(
      signed.fields.key,
    );
  });

  it('refuses an empty file and one over 10 MiB', async () => {
    const signed = await presignFile(care(), claim, 'pdf');
    expectS3Error(await upload(signed, new Uint8Array(0)), 400, 'EntityTooSmall');
    const justOver = Buffer.concat([
      FILES.pdf.bytes,
      Buffer.alloc(MAX_DOCUMENT_BYTES + 1 - FILES.pdf.bytes.length),
    ]);
    expectS3Error(await upload(signed, justOver), 400, 'EntityTooLarge');
    const farOver = Buffer.concat([FILES.pdf.bytes, Buffer.alloc(12 * 1024 * 1024)]);
    expectS3Error(await upload(signed, farOver), 400, 'EntityTooLarge');
    // Exactly the limit is fine.
    const atLimit = Buffer.concat([
      FILES.pdf.bytes,
      Buffer.alloc(MAX_DOCUMENT_BYTES - FILES.pdf.bytes.length),
    ]);
    expect((await upload(signed, atLimit)).status).toBe(204);
    await listDocs(care(), claim.id);
    expect((await storedRow(signed.fields.key!)).doc?.size_bytes).toBe(MAX_DOCUMENT_BYTES);
  });

  it('refuses a replay of a used policy', async () => {
    const signed = await presignFile(care(), claim, 'jpeg');
    expect((await upload(signed, FILES.jpeg.bytes)).status).toBe(204);
    const replay = await upload(signed, makeJpeg(10));
    expectS3Error(replay, 403, 'AccessDenied');
    const { body } = await call(care(), `${D}/${signed.fields.code}/download-url`);
    const res = await fetch(new URL(body.url, kit.base));
    expect(Buffer.from(await res.arrayBuffer()).equals(FILES.jpeg.bytes)).toBe(true);
  });

  it('refuses a form that is no multipart form or has no file', async () => {
    const json = await fetch(new URL(`/storage/${BUCKET}`, kit.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expectS3Error(
      { status: json.status, text: await json.text(), headers: json.headers },
      400,
      'MalformedPOSTRequest',
    );
    const signed = await presignFile(care(), claim, 'pdf');
    const form = new FormData();
    for (const [k, v] of Object.entries(signed.fields)) form.append(k, v);
    const noFile = await fetch(new URL(signed.url, kit.base), { method: 'POST', body: form });
    expectS3Error(
      { status: noFile.status, text: await noFile.text(), headers: noFile.headers },
      400,
      'MalformedPOSTRequest',
    );
  });

  it('drops an expired upload that never arrived when the next one is signed, keeps one that did', async () => {
    const abandoned = await presignFile(care(), claim, 'pdf');
    const arrived = await presignFile(care(), claim, 'png');
    expect((await upload(arrived, FILES.png.bytes)).status).toBe(204);
    const expire = (key: string) =>
      kit
        .db()
        .query(
          `UPDATE documents SET upload_expires_at = now() - interval '1 minute' WHERE s3_key = $1`,
          [key],
        );
    await expire(abandoned.fields.key!);
    await expire(arrived.fields.key!);
    // A list only reads: nothing is dropped by looking.
    await call(care(), `${D}?filter=${encodeURIComponent(`code=${abandoned.fields.code}`)}`);
    expect((await storedRow(abandoned.fields.key!)).doc?.status).toBe('pending');

    await presignFile(care(), second, 'jpeg');
    expect((await storedRow(abandoned.fields.key!)).doc).toBeUndefined();
    expect(await storedRow(arrived.fields.key!)).toEqual({
      doc: { status: 'stored', size_bytes: FILES.png.bytes.length },
      hasObject: true,
    });
  });
});

describe('signed downloads', () => {
  let doc: Doc;
  let url: URL;
  beforeAll(async () => {
    doc = ((await listDocs(care(), second.id)).body.items as Doc[])[0]!;
    url = new URL((await call(care(), `${D}/${doc.code}/download-url`)).body.url, kit.base);
  });

  it('refuses a changed signature, key, disposition or no signature at all', async () => {
    const tampered = new URL(url);
    const sig = tampered.searchParams.get('X-Amz-Signature')!;
    tampered.searchParams.set(
      'X-Amz-Signature',
      sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'),
    );
    const res = await fetch(tampered);
    expectS3Error(
      { status: res.status, text: await res.text(), headers: res.headers },
      403,
      'SignatureDoesNotMatch',
    );

    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace(/doc_[^.]+/, 'doc_other');
    expect((await fetch(otherKey)).status).toBe(403);

    const inline = new URL(url);
    inline.searchParams.set('response-content-disposition', 'inline');
    expect((await fetch(inline)).status).toBe(403);

    const bare = new URL(url.pathname, kit.base);
    expect((await fetch(bare)).status).toBe(403);
  });

  it('refuses an expired address', async () => {
    const old = presignUrl(
      {
        method: 'GET',
        url: new URL(`http://${OWN_STORAGE_HOST}${url.pathname}`),
        expiresSeconds: 300,
        at: new Date(Date.now() - 301_000),
      },
      await credentials(),
    );
    const res = await fetch(new URL(new URL(old).pathname + new URL(old).search, kit.base));
    const text = await res.text();
    expect(res.status).toBe(403);
    expect(text).toContain('Request has expired');
  });
});

describe('deleting', () => {
  it('removes the row and the object; the old address finds nothing', async () => {
    const signed = await presignFile(care(), claim, 'pdf');
    expect((await upload(signed, FILES.pdf.bytes)).status).toBe(204);
    const { body } = await call(care(), `${D}/${signed.fields.code}/download-url`);
    expect((await call(care(), `${D}/${signed.fields.code}`, 'DELETE')).status).toBe(204);
    expect(await storedRow(signed.fields.key!)).toEqual({ doc: undefined, hasObject: false });
    const gone = await fetch(new URL(body.url, kit.base));
    expectS3Error(
      { status: gone.status, text: await gone.text(), headers: gone.headers },
      404,
      'NoSuchKey',
    );
    expect((await call(care(), `${D}/${signed.fields.code}`, 'DELETE')).status).toBe(404);
  });

  it("takes a deleted claim's documents and their stored files along", async () => {
    // A seeded claim with seeded documents, and one uploaded now.
    const [seeded] = await kit.db().query<{ entity_id: string }>(
      `SELECT d.entity_id FROM documents d JOIN tenants t ON t.id = d.tenant_id
        WHERE t.slug = 'demo' AND d.entity_type = 'ClaimDocument' AND d.entity_id NOT IN ($1, $2)
        GROUP BY d.entity_id HAVING count(*) >= 2 ORDER BY d.entity_id LIMIT 1`,
      [String(claim.id), String(second.id)],
    );
    const found = await call(care(), `/claimservice/v1/claims/${seeded!.entity_id}`);
    expect(found.status).toBe(200);
    const withDocs = found.body.claim as Claim;
    const signed = await presignFile(care(), withDocs, 'png');
    expect((await upload(signed, FILES.png.bytes)).status).toBe(204);
    const keys = ((await listDocs(care(), withDocs.id)).body.items as Doc[]).map((d) => d.s3Key);
    expect(keys.length).toBeGreaterThan(2);
    const del = await call(
      care(),
      `/claimservice/v1/claims/${withDocs.code}?version=${withDocs.version}`,
      'DELETE',
    );
    expect(del.status).toBe(204);
    for (const key of keys)
      expect(await storedRow(key)).toEqual({ doc: undefined, hasObject: false });
  });
});

describe('document search', () => {
  const S = '/documentservice/v1';
  let slug: string;
  let nordSlug: string;
  const productSlugOf = async (session: Session, c: Claim) => {
    const policy = await call(session, `/insuranceservice/v1/policies/${c.policyCode}`);
    expect(policy.status).toBe(200);
    const productId = (policy.body.policy ?? policy.body).productId;
    const product = await call(session, `/insuranceservice/v1/products/${productId}`);
    expect(product.status).toBe(200);
    return (product.body.product ?? product.body).slug as string;
  };
  const search = (session: Session, query: Record<string, string>) =>
    call(session, `${S}/searchable-documents?${new URLSearchParams(query)}`);
  beforeAll(async () => {
    slug = await productSlugOf(care(), second);
    nordSlug = await productSlugOf(nord(), nordClaim);
  });

  it("lists the customers whose documents belong to the product, the claim's among them", async () => {
    const res = await call(viewer(), `${S}/searchable-document-owners?product=${slug}`);
    expect(res.status).toBe(200);
    const owners = res.body.items as { code: string; accountNumber: string; type: string }[];
    expect(owners.map((o) => o.code)).toContain(second.accountCode);
    expect(new Set(owners.map((o) => o.code)).size).toBe(owners.length);
    expect(owners[0]).toMatchObject({
      code: expect.stringMatching(/^acc_/),
      accountNumber: expect.any(String),
      type: expect.stringMatching(/^(person|org)$/),
    });
    // Every owner listed has a document of that product.
    for (const owner of owners.slice(0, 3)) {
      const found = await search(viewer(), { product: slug, ownerIds: owner.code, pageSize: '1' });
      expect(found.body.items).toHaveLength(1);
    }
  });

  it('finds the documents of the chosen owners and product, by words of name or description', async () => {
    const mine = await search(viewer(), { product: slug, ownerIds: second.accountCode });
    expect(mine.status).toBe(200);
    const items = mine.body.items as (Doc & { owner: { code: string }; productSlug: string })[];
    const claimDocs = ((await listDocs(care(), second.id)).body.items as Doc[]).map((d) => d.code);
    for (const code of claimDocs) expect(items.map((d) => d.code)).toContain(code);
    expect(items.every((d) => d.owner.code === second.accountCode && d.productSlug === slug)).toBe(
      true,
    );
    // Newest first.
    const times = items.map((d) => Date.parse(d.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const reports = await search(viewer(), {
      product: slug,
      ownerIds: '*',
      searchText: 'damage REPORT',
      pageSize: '100',
    });
    expect(reports.body.items.length).toBeGreaterThan(0);
    for (const d of reports.body.items as Doc[]) {
      const text = `${d.filename} ${d.description}`.toLowerCase();
      expect(text).toContain('damage');
      expect(text).toContain('report');
    }
    const everyone = await search(viewer(), { product: slug, ownerIds: '*', pageSize: '100' });
    const two = await search(viewer(), {
      product: slug,
      ownerIds: `${second.accountCode}|acc_nobody`,
      pageSize: '100',
    });
    expect(two.body.items.length).toBe(items.length);
    expect(everyone.body.items.length).toBeGreaterThan(items.length);
    expect(everyone.body.nextPageToken).not.toBeNull();
  });

  it('pages and orders by file name', async () => {
    const first = await search(viewer(), {
      product: slug,
      ownerIds: '*',
      pageSize: '5',
      order: 'filename:ASC',
    });
    const next = await search(viewer(), {
      product: slug,
      ownerIds: '*',
      pageSize: '5',
      order: 'filename:ASC',
      pageToken: first.body.nextPageToken,
    });
    const names = [...first.body.items, ...next.body.items].map((d: Doc) =>
      d.filename.toLowerCase(),
    );
    expect(names).toHaveLength(10);
    expect(names).toEqual([...names].sort());
  });

  it('suggests words of document names and descriptions', async () => {
    const res = await call(
      viewer(),
      `${S}/search-keywords?searchText=${encodeURIComponent('photo of dam')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.items).toContain('damage');
    expect((res.body.items as string[]).every((w) => w.startsWith('dam'))).toBe(true);
    expect(res.body.items.length).toBeLessThanOrEqual(10);
    const none = await call(viewer(), `${S}/search-keywords?searchText=zzqx`);
    expect(none.body.items).toEqual([]);
  });

  it('refuses a search without product or owners, or with a product of another tenant', async () => {
    for (const route of [
      `${S}/searchable-document-owners`,
      `${S}/searchable-documents?ownerIds=*`,
      `${S}/searchable-document-owners?product=`,
    ]) {
      const res = await call(viewer(), route);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_query', message: 'product is required' });
    }
    const noOwners = await search(viewer(), { product: slug });
    expect(noOwners.status).toBe(400);
    expect(noOwners.body.message).toMatch(/^ownerIds is required/);
    const emptyOwner = await search(viewer(), { product: slug, ownerIds: 'a||b' });
    expect(emptyOwner.status).toBe(400);
    const noText = await call(viewer(), `${S}/search-keywords?searchText=%20`);
    expect(noText.status).toBe(400);
    expect(noText.body.message).toBe('searchText is required');
    const long = await search(viewer(), {
      product: slug,
      ownerIds: '*',
      searchText: 'x'.repeat(201),
    });
    expect(long.status).toBe(400);
    expect((await search(viewer(), { product: 'no-such-product', ownerIds: '*' })).status).toBe(
      404,
    );
    // Each workspace has its own products: a slug of the other one is unknown here.
    expect(nordSlug).not.toBe(slug);
    expect((await search(viewer(), { product: nordSlug, ownerIds: '*' })).status).toBe(404);
    expect((await search(nord(), { product: slug, ownerIds: '*' })).status).toBe(404);
  });

  it("never shows another tenant's documents, owners or words", async () => {
    const theirs = await search(nord(), { product: nordSlug, ownerIds: '*', pageSize: '100' });
    expect(theirs.status).toBe(200);
    const demoCodes = new Set(
      (
        (await search(care(), { product: slug, ownerIds: '*', pageSize: '100' })).body
          .items as Doc[]
      ).map((d) => d.code),
    );
    expect((theirs.body.items as Doc[]).some((d) => demoCodes.has(d.code))).toBe(false);
    expect(
      (await search(nord(), { product: nordSlug, ownerIds: second.accountCode })).body.items,
    ).toEqual([]);
    // A word only the demo tenant's documents have.
    const unique = await presign(care(), claim, { filename: 'Quokkaflight.pdf' });
    expect((await upload(unique.body as Presigned, FILES.pdf.bytes)).status).toBe(204);
    expect((await call(care(), `${S}/search-keywords?searchText=quokka`)).body.items).toEqual([
      'quokkaflight',
    ]);
    expect((await call(nord(), `${S}/search-keywords?searchText=quokka`)).body.items).toEqual([]);
  });

  it('needs the documents permission', async () => {
    const claimsOnly = await userWithPermissions(
      kit.base,
      kit.sessions['admin@demo.test'],
      'mia.schneider@demo.test',
      'claims-reader',
      ['claim-management.claims.view'],
    );
    for (const route of [
      `${S}/searchable-document-owners?product=${slug}`,
      `${S}/searchable-documents?product=${slug}&ownerIds=*`,
      `${S}/search-keywords?searchText=damage`,
    ]) {
      expect((await call(claimsOnly, route)).status).toBe(403);
    }
    // Claim documents themselves it may read (claims permission).
    expect((await listDocs(claimsOnly, second.id)).status).toBe(200);
  });
});

describe('through the BFF', () => {
  let stack: Stack;
  let agent: Agent;
  beforeAll(async () => {
    stack = await startStack();
    agent = new Agent(stack.url);
    expect((await agent.login('care@demo.test')).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('tells the client that signed addresses are its own /storage/', async () => {
    const config = await agent.json('/bff/config');
    expect(config.status).toBe(200);
    expect(config.body.storageOrigin).toBeNull();
  });

  it('forwards the signed upload and download without a session', async () => {
    const claims = await agent.json('/api/0/claimservice/v1/claims?pageSize=1&order=createdAt:ASC');
    const c = claims.body.items[0] as Claim;
    const presigned = await agent.json(`/api/0${D}/pre-signed-post`, {
      json: requestBody(c, {
        filename: 'via-bff.png',
        contentType: 'png',
        isoContentType: 'image/png',
      }),
    });
    expect(presigned.status).toBe(201);
    const p = presigned.body as Presigned;
    expect(p.url).toBe('/storage/documents');
    // The browser posts to the BFF's origin; no cookie, no CSRF header: the signature is all.
    const res = await postForm(stack.url, p.url, p.fields, FILES.png.bytes);
    expect(res.status).toBe(204);

    const address = await agent.json(`/api/0${D}/${p.fields.code}/download-url`);
    const download = await fetch(new URL(address.body.url, stack.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(FILES.png.bytes)).toBe(true);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="via-bff\.png"/,
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');

    // The same address reached as localhost instead of 127.0.0.1 still holds (virtual host).
    const other = new URL(address.body.url, stack.url.replace('127.0.0.1', 'localhost'));
    expect((await fetch(other)).status).toBe(200);

    // A tampered one through the BFF is the storage's 403 XML.
    const bad = new URL(address.body.url, stack.url);
    bad.searchParams.set('X-Amz-Expires', '600');
    const refused = await fetch(bad);
    expectS3Error(
      { status: refused.status, text: await refused.text(), headers: refused.headers },
      403,
      'SignatureDoesNotMatch',
    );
  });

  it('passes the storage refusals of the upload through', async () => {
    const claims = await agent.json('/api/0/claimservice/v1/claims?pageSize=1&order=createdAt:ASC');
    const c = claims.body.items[0] as Claim;
    const presigned = await agent.json(`/api/0${D}/pre-signed-post`, { json: requestBody(c) });
    const p = presigned.body as Presigned;
    const farOver = Buffer.concat([FILES.pdf.bytes, Buffer.alloc(12 * 1024 * 1024)]);
    expectS3Error(await postForm(stack.url, p.url, p.fields, farOver), 400, 'EntityTooLarge');
    expectS3Error(
      await postForm(stack.url, p.url, p.fields, FILES.png.bytes),
      400,
      'InvalidContent',
    );
  });

  /**
   * The signed fields precede the file, so a forged or tampered form is refused before any of the
   * file is read, and a file that is not what was signed from its first bytes. A client that
   * announces 20 MB, sends the fields and a little of the file and then waits gets its answer
   * without sending the rest, straight from the sandbox and through the BFF.
   */
  // Generous: these run beside the load test in CI, and each waits on two stalled uploads.
  describe('an upload judged from what comes first', { timeout: 90_000 }, () => {
    const PDF = FILES.pdf.bytes;
    const places = () => [
      ['the sandbox', stack.upstreamUrl],
      ['the BFF', stack.url],
    ];
    async function presignPdf(): Promise<Record<string, string>> {
      const claims = await agent.json(
        '/api/0/claimservice/v1/claims?pageSize=1&order=createdAt:ASC',
      );
      const res = await agent.json(`/api/0${D}/pre-signed-post`, {
        json: requestBody(claims.body.items[0] as Claim),
      });
      expect(res.status).toBe(201);
      return (res.body as Presigned).fields;
    }
    it('refuses a tampered signature without waiting for the file', async () => {
      const fields = await presignPdf();
      const sig = fields['X-Amz-Signature']!;
      const tampered = {
        ...fields,
        'X-Amz-Signature': sig.replace(/.$/, sig.endsWith('0') ? '1' : '0'),
      };
      for (const [where, base] of places()) {
        const res = await stalledUpload(base!, formStart(tampered, PDF.subarray(0, 64)));
        expect(res.status, where).toBe(403);
        expect(res.body).toContain('<Code>SignatureDoesNotMatch</Code>');
      }
    });

    it('refuses a form without a policy without waiting for the file', async () => {
      const unsigned = { key: 'demo/claims/x/doc_forged.pdf', 'Content-Type': 'application/pdf' };
      for (const [where, base] of places()) {
        const res = await stalledUpload(base!, formStart(unsigned, PDF.subarray(0, 64)));
        expect(res.status, where).toBe(403);
        expect(res.body).toContain('<Code>AccessDenied</Code>');
      }
    });

    it('refuses a file whose first bytes are not the signed type', async () => {
      const exe = Buffer.concat([
        Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
        Buffer.alloc(64),
      ]);
      for (const [where, base] of places()) {
        const fields = await presignPdf();
        const res = await stalledUpload(base!, formStart(fields, exe));
        expect(res.status, where).toBe(400);
        expect(res.body).toContain('<Code>InvalidContent</Code>');
      }
    });

    it('refuses a file that passes the signed size as soon as it does', async () => {
      const fields = await presignPdf();
      const over = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES + 1 - PDF.length)]);
      const res = await stalledUpload(stack.upstreamUrl, formStart(fields, over));
      expect(res.status).toBe(400);
      expect(res.body).toContain('<Code>EntityTooLarge</Code>');
    });

    it('still takes a genuine upload afterwards', async () => {
      const fields = await presignPdf();
      expect((await postForm(stack.url, '/storage/documents', fields, PDF)).status).toBe(204);
      expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    });
  });
});
