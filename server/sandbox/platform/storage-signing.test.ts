import { describe, expect, it } from 'vitest';
import {
  presignUrl,
  signPostPolicy,
  uriEncode,
  verifyPostPolicy,
  verifyPresignedUrl,
  type StorageCredentials,
} from './storage-signing.ts';

// AWS's published example (S3 API reference, "Authenticating Requests: Using Query Parameters").
const AWS_EXAMPLE: StorageCredentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
};
const MINE: StorageCredentials = {
  accessKeyId: 'sandbox',
  secretAccessKey: 's3cret',
  region: 'eu-central-1',
};
const T0 = new Date('2026-11-25T10:00:00Z');
const plus = (s: number) => new Date(T0.getTime() + s * 1000);

describe('presigned addresses', () => {
  it("matches AWS's published example signature", () => {
    const url = presignUrl(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        expiresSeconds: 86_400,
        at: new Date('2013-05-24T00:00:00Z'),
      },
      AWS_EXAMPLE,
    );
    expect(new URL(url).searchParams.get('X-Amz-Signature')).toBe(
      'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
    expect(url).toContain(
      'X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request',
    );
  });

  const signed = () =>
    new URL(
      presignUrl(
        {
          method: 'GET',
          url: new URL('http://127.0.0.1:3100/storage/docs/7/claims/clm_1/doc_1.pdf'),
          expiresSeconds: 300,
          at: T0,
          query: { 'response-content-disposition': 'attachment; filename="a b.pdf"' },
        },
        MINE,
      ),
    );

  it('verifies its own address until it expires', () => {
    expect(verifyPresignedUrl('GET', signed(), MINE, plus(299))).toEqual({ ok: true });
    expect(verifyPresignedUrl('GET', signed(), MINE, plus(301))).toMatchObject({
      ok: false,
      status: 403,
      message: 'Request has expired',
    });
  });

  it('refuses another key, method, host, secret or a changed parameter', () => {
    const other = signed();
    other.pathname = other.pathname.replace('doc_1', 'doc_2');
    expect(verifyPresignedUrl('GET', other, MINE, T0)).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(verifyPresignedUrl('HEAD', signed(), MINE, T0)).toMatchObject({ ok: false });
    const host = signed();
    host.host = 'evil.example';
    expect(verifyPresignedUrl('GET', host, MINE, T0)).toMatchObject({ ok: false });
    expect(
      verifyPresignedUrl('GET', signed(), { ...MINE, secretAccessKey: 'other' }, T0),
    ).toMatchObject({ code: 'SignatureDoesNotMatch' });
    const longer = signed();
    longer.searchParams.set('X-Amz-Expires', '604800');
    expect(verifyPresignedUrl('GET', longer, MINE, T0)).toMatchObject({ ok: false });
    const bare = signed();
    bare.searchParams.delete('X-Amz-Signature');
    expect(verifyPresignedUrl('GET', bare, MINE, T0)).toMatchObject({ status: 403 });
  });

  it('encodes as SigV4 wants: reserved characters too, slashes only when asked', () => {
    expect(uriEncode("a b/c!'()*~")).toBe('a%20b%2Fc%21%27%28%29%2A~');
    expect(uriEncode('7/claims/x y.pdf', true)).toBe('7/claims/x%20y.pdf');
  });
});

describe('browser POST policies', () => {
  const fields = {
    key: '7/claims/clm_1/doc_1.pdf',
    'Content-Type': 'application/pdf',
    code: 'doc_1',
  };
  const policy = () =>
    signPostPolicy(
      { bucket: 'docs', fields, minBytes: 1, maxBytes: 1024, expiresAt: plus(900), at: T0 },
      MINE,
    );

  it('verifies its own form and answers the size range', () => {
    expect(verifyPostPolicy('docs', policy(), MINE, plus(60))).toEqual({
      ok: true,
      minBytes: 1,
      maxBytes: 1024,
    });
  });

  it('matches field names without case, as S3 does', () => {
    const { 'Content-Type': type, ...rest } = policy();
    expect(verifyPostPolicy('docs', { ...rest, 'content-type': type! }, MINE, T0)).toMatchObject({
      ok: true,
    });
  });

  it('refuses an expired policy, a changed field, an extra field, another bucket or secret', () => {
    expect(verifyPostPolicy('docs', policy(), MINE, plus(901))).toMatchObject({
      status: 403,
      message: 'Invalid according to Policy: Policy expired',
    });
    expect(
      verifyPostPolicy('docs', { ...policy(), key: '8/claims/clm_9/doc_1.pdf' }, MINE, T0),
    ).toMatchObject({ status: 403, message: expect.stringContaining('$key') });
    expect(
      verifyPostPolicy('docs', { ...policy(), 'Content-Type': 'text/html' }, MINE, T0),
    ).toMatchObject({ status: 403 });
    expect(verifyPostPolicy('docs', { ...policy(), acl: 'public-read' }, MINE, T0)).toMatchObject({
      message: 'Invalid according to Policy: Extra input fields: acl',
    });
    expect(verifyPostPolicy('other', policy(), MINE, T0)).toMatchObject({ status: 403 });
    expect(verifyPostPolicy('docs', policy(), { ...MINE, secretAccessKey: 'x' }, T0)).toMatchObject(
      { code: 'SignatureDoesNotMatch' },
    );
  });

  it('refuses a policy rewritten by the client, even a well-formed one', () => {
    const form = policy();
    const decoded = JSON.parse(Buffer.from(form.Policy!, 'base64').toString());
    decoded.conditions = decoded.conditions.map((c: unknown) =>
      Array.isArray(c) ? ['content-length-range', 1, 1e9] : c,
    );
    const forged = Buffer.from(JSON.stringify(decoded)).toString('base64');
    expect(verifyPostPolicy('docs', { ...form, Policy: forged }, MINE, T0)).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
  });

  it('refuses a form without a policy or with garbage in it', () => {
    const { Policy: _drop, ...rest } = policy();
    expect(verifyPostPolicy('docs', rest, MINE, T0)).toMatchObject({ status: 403 });
    expect(
      verifyPostPolicy('docs', { ...policy(), 'X-Amz-Date': 'yesterday' }, MINE, T0),
    ).toMatchObject({
      status: 403,
    });
  });
});
