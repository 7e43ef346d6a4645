import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, fetchJson, setSessionExpiredListener } from './fetch-json.ts';

function respond(status: number, body?: unknown, headers: Record<string, string> = {}) {
  return vi.fn(
    async () =>
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json', ...headers },
      }),
  );
}

describe('fetchJson', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { location: { pathname: '/u/0/home' } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionExpiredListener(undefined);
  });

  it('sends X-CSRF on every non-GET call, and not on GET', async () => {
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetchMock);
    await fetchJson('/bff/session');
    await fetchJson('/bff/login', { method: 'POST', body: { username: 'a' } });
    const [, get] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const [, post] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect((get.headers as Record<string, string>)['X-CSRF']).toBeUndefined();
    expect((post.headers as Record<string, string>)['X-CSRF']).toBe('1');
    expect(post.body).toBe('{"username":"a"}');
    expect(post.credentials).toBe('same-origin');
  });

  it('turns error bodies into ApiError with code and Retry-After', async () => {
    vi.stubGlobal(
      'fetch',
      respond(429, { error: 'rate_limited', message: 'slow down' }, { 'Retry-After': '42' }),
    );
    const error = await fetchJson('/bff/login', { method: 'POST', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 42 });
  });

  it('reports a 401 session_expired to the session and still rejects', async () => {
    const listener = vi.fn();
    setSessionExpiredListener(listener);
    vi.stubGlobal('fetch', respond(401, { error: 'session_expired', accountIndex: 1 }));
    await expect(fetchJson('/api/1/tenantservice/v1/general')).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledWith(1, undefined);
  });

  it("repeats an account's call once after the upstream refused its token", async () => {
    const listener = vi.fn();
    setSessionExpiredListener(listener);
    const answers = [
      new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401 }),
      new Response(JSON.stringify({ error: 'session_expired', accountIndex: 0 }), { status: 401 }),
    ];
    const fetchMock = vi.fn(async () => answers.shift()!);
    vi.stubGlobal('fetch', fetchMock);
    const error = await fetchJson('/api/0/tenantservice/v1/users', {
      method: 'POST',
      body: { a: 1 },
    }).catch((e) => e);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [, retry] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(retry.body).toBe('{"a":1}');
    expect(error).toMatchObject({ status: 401, code: 'session_expired' });
    expect(listener).toHaveBeenCalledWith(0, undefined);

    // A refreshed token makes the repeated call work.
    const ok = [
      new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401 }),
      new Response(JSON.stringify({ ok: true }), { status: 200 }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ok.shift()!),
    );
    await expect(fetchJson('/api/0/tenantservice/v1/general')).resolves.toEqual({ ok: true });
  });

  it('repeats no guest or session call, and an account call only once', async () => {
    for (const path of ['/api/guest/authservice/v1/verify-invite?token=x', '/bff/session']) {
      const fetchMock = respond(401, { error: 'unauthorized' });
      vi.stubGlobal('fetch', fetchMock);
      await expect(fetchJson(path)).rejects.toMatchObject({ status: 401 });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    }
    const fetchMock = respond(401, { error: 'unauthorized' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchJson('/api/3/tenantservice/v1/general')).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('passes on that the UI permission is gone (isNotUiPermission)', async () => {
    const listener = vi.fn();
    setSessionExpiredListener(listener);
    vi.stubGlobal(
      'fetch',
      respond(401, { error: 'session_expired', accountIndex: 0, reason: 'no_ui_permission' }),
    );
    await expect(fetchJson('/api/0/tenantservice/v1/general')).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledWith(0, 'no_ui_permission');
  });

  it('passes on that the user was disabled, and no reason it does not know', async () => {
    const listener = vi.fn();
    setSessionExpiredListener(listener);
    vi.stubGlobal(
      'fetch',
      respond(401, { error: 'session_expired', accountIndex: 0, reason: 'user_disabled' }),
    );
    await expect(fetchJson('/api/0/tenantservice/v1/general')).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenLastCalledWith(0, 'user_disabled');
    vi.stubGlobal(
      'fetch',
      respond(401, { error: 'session_expired', accountIndex: 0, reason: 'something_else' }),
    );
    await expect(fetchJson('/api/0/tenantservice/v1/general')).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenLastCalledWith(0, undefined);
  });

  it('does not redirect from the single-sign-on callback page', async () => {
    vi.stubGlobal('window', { location: { pathname: '/login/saml' } });
    const listener = vi.fn();
    setSessionExpiredListener(listener);
    vi.stubGlobal('fetch', respond(401, { error: 'session_expired', accountIndex: 0 }));
    await expect(fetchJson('/bff/session')).rejects.toBeInstanceOf(ApiError);
    expect(listener).not.toHaveBeenCalled();
  });

  it('answers undefined for 204', async () => {
    vi.stubGlobal('fetch', respond(204));
    await expect(fetchJson('/bff/accounts/0/logout', { method: 'POST' })).resolves.toBeUndefined();
  });
});
