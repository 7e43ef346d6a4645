import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Queryable } from './db.ts';
import { systemClock, type Clock } from '#common/clock.ts';

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      SCRYPT.keylen,
      { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, saltText, keyText] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(saltText, 'base64url'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;
/** Spends the same work as a real check so that an unknown user answers as slowly as a known one. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummyHash);
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Loads the HS256 secret, creating it on first start so that tokens survive restarts. */
export async function loadSigningKey(db: Queryable): Promise<Uint8Array> {
  await db.query(
    'INSERT INTO signing_keys (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
    [randomBytes(32).toString('base64url')],
  );
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM signing_keys WHERE id = 1');
  if (!row) throw new Error('signing key missing');
  return new Uint8Array(Buffer.from(row.secret, 'base64url'));
}

export interface AccessTokenClaims {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  /** The user's code (`usr_...`), the name records carry in createdBy/updatedBy. */
  user_code: string;
  tenant_id: number;
  tenant_slug: string;
  tenant_name: string;
  role: string;
  tier: string;
  /** The sign-in session (auth_sessions) the token belongs to; it dies when that session ends. */
  sid?: string;
  iat?: number;
  iat_ms?: number;
}

export class TokenSigner {
  constructor(
    private readonly key: Uint8Array,
    private readonly ttlSeconds: number,
    /** Issue time and expiry of every token, and the time a token is checked against. */
    private readonly clock: Clock = systemClock,
  ) {}

  async sign(claims: AccessTokenClaims): Promise<string> {
    const { sub, ...rest } = claims;
    const now = this.clock.now();
    const iat = Math.floor(now / 1000);
    // `iat` has whole seconds; a password reset must also kill tokens minted earlier in that second.
    return new SignJWT({ ...rest, iat_ms: now })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.key);
  }

  /** Returns the claims of a valid, unexpired token, or null for anything else. */
  async verify(token: string): Promise<AccessTokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      if (typeof payload.sub !== 'string' || typeof payload.tenant_id !== 'number') return null;
      return payload as unknown as AccessTokenClaims;
    } catch {
      return null;
    }
  }
}
