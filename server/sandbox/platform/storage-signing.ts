import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * AWS Signature Version 4 for object storage, both halves: the document service signs browser
 * POST policies (uploads) and query-string GET addresses (downloads); the sandbox's own storage
 * verifies them. Speaking the S3 protocol means the same signer works against a real
 * S3-compatible store (S3_ENDPOINT) and the sandbox's stand-in proves nothing S3 would refuse.
 * Written here rather than pulling in the AWS SDK: two small, stable algorithms, checked against
 * AWS's published example (storage-signing.test.ts), and the verifier is needed anyway.
 */

export interface StorageCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';

const hmac = (key: Buffer | string, data: string) =>
  createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');

/** 20130524T000000Z and 20130524 of a time. */
export function amzDate(at: Date): { stamp: string; day: string } {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return { stamp, day: stamp.slice(0, 8) };
}

function signingKey(secret: string, day: string, region: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), SERVICE), 'aws4_request');
}

const scopeOf = (day: string, region: string) => `${day}/${region}/${SERVICE}/aws4_request`;

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ (slashes optional). */
export function uriEncode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

/** Constant-time comparison of two hex signatures (a mismatch must not leak how far it got). */
function sameSignature(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

// --- Presigned addresses (query-string authentication) -----------------------------------------

export interface PresignInput {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  /** Where the object lives: origin plus path, e.g. https://s3.example/bucket/key or /storage/b/k. */
  url: URL;
  expiresSeconds: number;
  at: Date;
  /** Extra query parameters that become part of the signature (response-content-disposition). */
  query?: Record<string, string>;
}

function canonicalQuery(params: [string, string][]): string {
  return params
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function querySignature(
  method: string,
  url: URL,
  params: [string, string][],
  credentials: StorageCredentials,
  stamp: string,
): string {
  const canonicalRequest = [
    method,
    // The path as it goes on the wire (already encoded by URL), not encoded twice (S3's rule).
    url.pathname,
    canonicalQuery(params),
    `host:${url.host}\n`,
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const day = stamp.slice(0, 8);
  const toSign = [ALGORITHM, stamp, scopeOf(day, credentials.region), sha256Hex(canonicalRequest)];
  return createHmac('sha256', signingKey(credentials.secretAccessKey, day, credentials.region))
    .update(toSign.join('\n'))
    .digest('hex');
}

/** A query-signed address for one object, valid for `expiresSeconds` from `at`. */
export function presignUrl(input: PresignInput, credentials: StorageCredentials): string {
  const { stamp, day } = amzDate(input.at);
  const params: [string, string][] = [
    ['X-Amz-Algorithm', ALGORITHM],
    ['X-Amz-Credential', `${credentials.accessKeyId}/${scopeOf(day, credentials.region)}`],
    ['X-Amz-Date', stamp],
    ['X-Amz-Expires', String(input.expiresSeconds)],
    ['X-Amz-SignedHeaders', 'host'],
    ...Object.entries(input.query ?? {}),
  ];
  const signature = querySignature(input.method, input.url, params, credentials, stamp);
  const url = new URL(input.url);
  url.search = `${canonicalQuery(params)}&X-Amz-Signature=${signature}`;
  return url.toString();
}

export type VerifyFailure = { ok: false; status: 400 | 403; code: string; message: string };
const refuse = (status: 400 | 403, code: string, message: string): VerifyFailure => ({
  ok: false,
  status,
  code,
  message,
});

/**
 * Checks a query-signed address as the storage received it: `url` is the address the client
 * used, rebuilt on the storage's public origin (a proxy in between changes the Host header).
 */
export function verifyPresignedUrl(
  method: string,
  url: URL,
  credentials: StorageCredentials,
  now: Date,
): { ok: true } | VerifyFailure {
  const q = url.searchParams;
  const signature = q.get('X-Amz-Signature');
  const stamp = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const credential = q.get('X-Amz-Credential') ?? '';
  if (!signature || q.get('X-Amz-Algorithm') !== ALGORITHM || !/^\d{8}T\d{6}Z$/.test(stamp)) {
    return refuse(403, 'AccessDenied', 'Query-string authentication requires a signature');
  }
  if (
    credential !== `${credentials.accessKeyId}/${scopeOf(stamp.slice(0, 8), credentials.region)}`
  ) {
    return refuse(403, 'InvalidAccessKeyId', 'The credential does not belong to this storage');
  }
  if (q.get('X-Amz-SignedHeaders') !== 'host') {
    return refuse(403, 'AccessDenied', 'Only the host header may be signed');
  }
  const params = [...q.entries()].filter(([k]) => k !== 'X-Amz-Signature');
  const expected = querySignature(method, url, params, credentials, stamp);
  if (!sameSignature(signature, expected)) {
    return refuse(403, 'SignatureDoesNotMatch', 'The signature does not match');
  }
  const signedAt = Date.parse(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) {
    return refuse(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be 1..604800');
  }
  if (now.getTime() > signedAt + expires * 1000) {
    return refuse(403, 'AccessDenied', 'Request has expired');
  }
  return { ok: true };
}

// --- Browser POST policies (uploads) -----------------------------------------------------------

export type PolicyCondition =
  | Record<string, string>
  | ['eq' | 'starts-with', `$${string}`, string]
  | ['content-length-range', number, number];

export interface PostPolicyInput {
  bucket: string;
  /** Fields the form must carry exactly as given (key, Content-Type, the metadata of the spec). */
  fields: Record<string, string>;
  minBytes: number;
  maxBytes: number;
  expiresAt: Date;
  at: Date;
}

/** The form fields of a signed browser upload: the given ones plus the policy and signature. */
export function signPostPolicy(
  input: PostPolicyInput,
  credentials: StorageCredentials,
): Record<string, string> {
  const { stamp, day } = amzDate(input.at);
  const signing = {
    'X-Amz-Algorithm': ALGORITHM,
    'X-Amz-Credential': `${credentials.accessKeyId}/${scopeOf(day, credentials.region)}`,
    'X-Amz-Date': stamp,
  };
  const conditions: PolicyCondition[] = [
    { bucket: input.bucket },
    ...Object.entries({ ...input.fields, ...signing }).map(([k, v]) => ({ [k]: v })),
    ['content-length-range', input.minBytes, input.maxBytes],
  ];
  const policy = Buffer.from(
    JSON.stringify({ expiration: input.expiresAt.toISOString(), conditions }),
  ).toString('base64');
  const signature = createHmac(
    'sha256',
    signingKey(credentials.secretAccessKey, day, credentials.region),
  )
    .update(policy)
    .digest('hex');
  return { ...input.fields, ...signing, Policy: policy, 'X-Amz-Signature': signature };
}

/**
 * Field names compare without case in S3's POST conditions (`Content-Type` = `content-type`);
 * the storage reads the form's key and type the same way.
 */
export const lowerCaseKeys = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * Checks a browser upload's form fields against the policy it carries: signature, expiry, that
 * every condition holds and that no field goes unsigned. Answers the byte range the policy
 * allows, which the caller checks against the file it reads.
 */
export function verifyPostPolicy(
  bucket: string,
  fields: Record<string, string>,
  credentials: StorageCredentials,
  now: Date,
): { ok: true; minBytes: number; maxBytes: number } | VerifyFailure {
  const form = lowerCaseKeys(fields);
  const policy = form.policy;
  const signature = form['x-amz-signature'];
  const stamp = form['x-amz-date'] ?? '';
  if (!policy || !signature || form['x-amz-algorithm'] !== ALGORITHM) {
    return refuse(403, 'AccessDenied', 'The upload needs a signed policy');
  }
  if (!/^\d{8}T\d{6}Z$/.test(stamp)) return refuse(403, 'AccessDenied', 'Bad X-Amz-Date');
  const day = stamp.slice(0, 8);
  if (
    form['x-amz-credential'] !== `${credentials.accessKeyId}/${scopeOf(day, credentials.region)}`
  ) {
    return refuse(403, 'InvalidAccessKeyId', 'The credential does not belong to this storage');
  }
  const expected = createHmac(
    'sha256',
    signingKey(credentials.secretAccessKey, day, credentials.region),
  )
    .update(policy)
    .digest('hex');
  if (!sameSignature(signature, expected)) {
    return refuse(403, 'SignatureDoesNotMatch', 'The policy signature does not match');
  }
  let parsed: { expiration?: unknown; conditions?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(policy, 'base64').toString('utf8'));
  } catch {
    return refuse(400, 'MalformedPOSTRequest', 'The policy is not JSON');
  }
  const expiration = typeof parsed.expiration === 'string' ? Date.parse(parsed.expiration) : NaN;
  if (!Number.isFinite(expiration) || now.getTime() > expiration) {
    return refuse(403, 'AccessDenied', 'Invalid according to Policy: Policy expired');
  }
  if (!Array.isArray(parsed.conditions)) {
    return refuse(400, 'MalformedPOSTRequest', 'The policy has no conditions');
  }
  const covered = new Set(['policy', 'x-amz-signature', 'file']);
  let range: [number, number] | null = null;
  const failed = (what: string) =>
    refuse(403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ${what}`);
  for (const condition of parsed.conditions as unknown[]) {
    if (Array.isArray(condition) && condition[0] === 'content-length-range') {
      range = [Number(condition[1]), Number(condition[2])];
    } else if (Array.isArray(condition) && typeof condition[1] === 'string') {
      const [op, name, value] = condition as [string, string, string];
      const field = name.replace(/^\$/, '').toLowerCase();
      covered.add(field);
      const actual = field === 'bucket' ? bucket : form[field];
      if (actual === undefined) return failed(`["${op}", "${name}", "${value}"]`);
      if (op === 'eq' && actual !== value) return failed(`["eq", "${name}", "${value}"]`);
      if (op === 'starts-with' && !actual.startsWith(value)) {
        return failed(`["starts-with", "${name}", "${value}"]`);
      }
    } else if (condition && typeof condition === 'object') {
      for (const [name, value] of Object.entries(condition)) {
        const field = name.toLowerCase();
        covered.add(field);
        const actual = field === 'bucket' ? bucket : form[field];
        if (actual !== value) return failed(`["eq", "$${name}", "${String(value)}"]`);
      }
    } else {
      return refuse(400, 'MalformedPOSTRequest', 'A policy condition is malformed');
    }
  }
  const unsigned = Object.keys(form).find((k) => !covered.has(k) && !k.startsWith('x-ignore-'));
  if (unsigned) {
    return refuse(
      403,
      'AccessDenied',
      `Invalid according to Policy: Extra input fields: ${unsigned}`,
    );
  }
  if (!range) return refuse(400, 'MalformedPOSTRequest', 'The policy sets no size range');
  return { ok: true, minBytes: range[0], maxBytes: range[1] };
}
