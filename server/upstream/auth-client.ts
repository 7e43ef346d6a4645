import { decodeJwt } from 'jose';
import * as v from 'valibot';
import { WorkspaceSchema } from '#common/contracts/auth.ts';

/** What the auth service answers for login, refresh, SAML login, switch and forced change. */
const TokenAnswer = v.object({ accessToken: v.string(), permissions: v.optional(v.string(), '') });
const ChallengeAnswer = v.object({ newPasswordRequired: v.literal(true), challenge: v.string() });
// Read loosely (a field the BFF does not pass on is dropped), as the contract's workspace.
const Workspaces = v.object({ workspaces: v.array(v.object(WorkspaceSchema.entries)) });
export type Workspace = v.InferOutput<typeof Workspaces>['workspaces'][number];

export interface Tokens {
  accessToken: string;
  permissions: string;
  /** Refresh cookie pairs from Set-Cookie (`name=value; name2=value2`), if the call set any. */
  refreshCookie: string | undefined;
}
export type LoginResult =
  { kind: 'tokens'; tokens: Tokens } | { kind: 'challenge'; challenge: string };

/** The upstream answered, with an error status. */
export class UpstreamHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; message?: string } | null,
  ) {
    super(`upstream answered ${status}${body?.error ? ` (${body.error})` : ''}`);
  }
}
/** The upstream did not answer usefully: unreachable, timed out, or sent garbage. */
export class UpstreamUnavailable extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'bad_response',
    cause?: unknown,
  ) {
    super(`upstream ${reason}`, { cause });
  }
}

export interface TokenClaims {
  sub: string;
  email: string;
  given_name?: string;
  family_name?: string;
  /** The user's code in the upstream's records (`usr_...`); absent from tokens of older issuers. */
  user_code?: string;
  tenant_id: string | number;
  tenant_slug: string;
  tenant_name: string;
  iat?: number;
  exp: number;
}

export function claimsOf(accessToken: string): TokenClaims {
  // The token came straight from the upstream over our own connection; the upstream verifies it
  // on every call, so the BFF only reads it.
  return decodeJwt(accessToken) as unknown as TokenClaims;
}

/** A small client for the auth service calls the BFF makes itself (the browser never does). */
export class AuthClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  private async call(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; bearer?: string; cookie?: string | undefined } = {},
  ): Promise<{ status: number; json: unknown; setCookies: string[] }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/authservice/v1${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
    } catch (err) {
      const name = (err as Error).name;
      throw new UpstreamUnavailable(
        name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable',
        err,
      );
    }
    const text = await res.text().catch(() => '');
    let json: unknown = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        if (res.ok) throw new UpstreamUnavailable('bad_response');
      }
    }
    if (res.status >= 500) throw new UpstreamUnavailable('bad_response');
    if (!res.ok)
      throw new UpstreamHttpError(res.status, (json as UpstreamHttpError['body']) ?? null);
    return { status: res.status, json, setCookies: res.headers.getSetCookie() };
  }

  private tokens(r: { json: unknown; setCookies: string[] }, previousCookie?: string): Tokens {
    const parsed = v.safeParse(TokenAnswer, r.json);
    if (!parsed.success) throw new UpstreamUnavailable('bad_response');
    const pairs = r.setCookies.map((c) => c.split(';')[0]!.trim()).filter((p) => p.includes('='));
    return {
      accessToken: parsed.output.accessToken,
      permissions: parsed.output.permissions,
      refreshCookie: pairs.length ? pairs.join('; ') : previousCookie,
    };
  }

  async login(username: string, password: string): Promise<LoginResult> {
    const r = await this.call('POST', '/login', { body: { username, password } });
    const challenge = v.safeParse(ChallengeAnswer, r.json);
    if (challenge.success) return { kind: 'challenge', challenge: challenge.output.challenge };
    return { kind: 'tokens', tokens: this.tokens(r) };
  }

  async samlLogin(tenantSlug: string, code: string): Promise<Tokens> {
    return this.tokens(await this.call('POST', '/login/saml', { body: { tenantSlug, code } }));
  }

  async refresh(username: string, cookie: string | undefined): Promise<Tokens> {
    return this.tokens(
      await this.call('POST', '/refresh-token', { body: { username }, cookie }),
      cookie,
    );
  }

  async logout(username: string, cookie: string | undefined): Promise<void> {
    await this.call('POST', '/logout', { body: { username }, cookie });
  }

  async completePasswordChange(
    username: string,
    challenge: string,
    newPassword: string,
  ): Promise<Tokens> {
    return this.tokens(
      await this.call('POST', '/change-password', { body: { username, challenge, newPassword } }),
    );
  }

  async changePassword(
    bearer: string,
    username: string,
    oldPassword: string,
    newPassword: string,
  ): Promise<void> {
    await this.call('POST', '/change-password', {
      bearer,
      body: { username, oldPassword, newPassword },
    });
  }

  async workspaces(bearer: string): Promise<Workspace[]> {
    const r = await this.call('GET', '/workspaces', { bearer });
    const parsed = v.safeParse(Workspaces, r.json);
    if (!parsed.success) throw new UpstreamUnavailable('bad_response');
    return parsed.output.workspaces;
  }

  async switchWorkspace(
    bearer: string,
    cookie: string | undefined,
    username: string,
    targetWorkspace: string,
  ): Promise<Tokens> {
    return this.tokens(
      await this.call('POST', '/workspaces/switch', {
        bearer,
        cookie,
        body: { username, targetWorkspace },
      }),
      cookie,
    );
  }
}
