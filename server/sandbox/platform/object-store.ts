import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.ts';
import { presignUrl, uriEncode, type StorageCredentials } from './storage-signing.ts';

/**
 * Where document bytes live. The document service only signs (uploads go from the browser
 * straight to the store, downloads come straight from it); it asks the store for the addresses
 * to sign, and whether an object arrived (a store never writes the service's rows, so the
 * service asks: S3 tells nobody of a browser upload). Two stores speak the same S3 protocol: the sandbox's
 * own (`/storage/{bucket}` on the sandbox, reached through the BFF at the same path, bytes in
 * PostgreSQL) and any S3-compatible service (`S3_ENDPOINT`), addressed path-style.
 */
export interface ObjectStore {
  readonly kind: 'own' | 's3';
  readonly bucket: string;
  readonly credentials: StorageCredentials;
  /** The form action of a browser upload; relative for the own store (the BFF's origin). */
  uploadUrl(): string;
  /** The object's address to sign (for the own store on its virtual host, see below). */
  objectUrl(key: string): URL;
  /** Turns a signed object address into the one handed out (relative for the own store). */
  publicAddress(signed: string): string;
  /** The object's size if it is there, else null (S3: a signed HEAD). */
  stat(key: string): Promise<{ sizeBytes: number } | null>;
  /** The object's bytes, null when it is not there (docx templates are read to be checked and filled). */
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

/**
 * The own store signs for this virtual host and hands out relative addresses, so one signature
 * holds whatever origin the browser reaches the BFF by (127.0.0.1, localhost, a proxy's name);
 * it verifies against the same host, whatever Host header the proxies in between send.
 */
export const OWN_STORAGE_HOST = 'storage.sandbox.internal';
export const OWN_STORAGE_PATH = '/storage';

export async function loadStorageCredentials(db: Queryable): Promise<StorageCredentials> {
  await db.query(
    `INSERT INTO storage_credentials (id, access_key_id, secret) VALUES (1, $1, $2)
     ON CONFLICT (id) DO NOTHING`,
    [
      `SANDBOX${randomBytes(6).toString('hex').toUpperCase()}`,
      randomBytes(30).toString('base64url'),
    ],
  );
  const [row] = await db.query<{ access_key_id: string; secret: string }>(
    'SELECT access_key_id, secret FROM storage_credentials WHERE id = 1',
  );
  if (!row) throw new Error('storage credentials missing');
  return { accessKeyId: row.access_key_id, secretAccessKey: row.secret, region: 'eu-central-1' };
}

const objectPath = (prefix: string, bucket: string, key: string) =>
  `${prefix}/${uriEncode(bucket)}/${uriEncode(key, true)}`;

export class OwnObjectStore implements ObjectStore {
  readonly kind = 'own';
  readonly bucket = 'documents';
  constructor(
    private readonly db: Queryable,
    readonly credentials: StorageCredentials,
  ) {}

  uploadUrl(): string {
    return `${OWN_STORAGE_PATH}/${this.bucket}`;
  }

  objectUrl(key: string): URL {
    return new URL(`http://${OWN_STORAGE_HOST}${objectPath(OWN_STORAGE_PATH, this.bucket, key)}`);
  }

  publicAddress(signed: string): string {
    const url = new URL(signed);
    return `${url.pathname}${url.search}`;
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    const [row] = await this.db.query<{ size_bytes: number }>(
      'SELECT size_bytes FROM storage_objects WHERE bucket = $1 AND key = $2',
      [this.bucket, key],
    );
    return row ? { sizeBytes: row.size_bytes } : null;
  }

  async read(key: string): Promise<Buffer | null> {
    const [row] = await this.db.query<{ content: Uint8Array }>(
      'SELECT content FROM storage_objects WHERE bucket = $1 AND key = $2',
      [this.bucket, key],
    );
    return row ? Buffer.from(row.content) : null;
  }

  async remove(key: string): Promise<void> {
    await this.db.query('DELETE FROM storage_objects WHERE bucket = $1 AND key = $2', [
      this.bucket,
      key,
    ]);
  }
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** An S3-compatible service, path-style (`{endpoint}/{bucket}/{key}`), as MinIO and others want. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  readonly bucket: string;
  readonly credentials: StorageCredentials;
  private readonly endpoint: string;
  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.endpoint = settings.endpoint.replace(/\/+$/, '');
    this.credentials = {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
    };
  }

  uploadUrl(): string {
    return `${this.endpoint}/${uriEncode(this.bucket)}`;
  }

  objectUrl(key: string): URL {
    const base = new URL(this.endpoint);
    return new URL(objectPath(base.pathname.replace(/\/+$/, ''), this.bucket, key), base);
  }

  publicAddress(signed: string): string {
    return signed;
  }

  private signed(method: 'HEAD' | 'GET' | 'PUT' | 'DELETE', key: string): string {
    return presignUrl(
      { method, url: this.objectUrl(key), expiresSeconds: 60, at: new Date() },
      this.credentials,
    );
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    const res = await fetch(this.signed('HEAD', key), {
      method: 'HEAD',
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`object storage answered ${res.status} to HEAD`);
    return { sizeBytes: Number(res.headers.get('content-length') ?? 0) };
  }

  async read(key: string): Promise<Buffer | null> {
    const res = await fetch(this.signed('GET', key), { signal: AbortSignal.timeout(10_000) });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`object storage answered ${res.status} to GET`);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Writes an object directly (the seed's demo files; users upload from the browser). */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const res = await fetch(this.signed('PUT', key), {
      method: 'PUT',
      // A copy the fetch typings accept (a Buffer may view a shared pool).
      body: new Uint8Array(bytes),
      headers: { 'content-type': contentType },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`object storage answered ${res.status} to PUT`);
  }

  async remove(key: string): Promise<void> {
    const res = await fetch(this.signed('DELETE', key), {
      method: 'DELETE',
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok && res.status !== 404) throw new Error(`object storage answered ${res.status}`);
  }
}
