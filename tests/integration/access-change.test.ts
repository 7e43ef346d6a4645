import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { FORCED_REFRESH_MIN_AGE_MS } from '#server/session/token-service.ts';
import { openNotificationSocket } from '#tests/support/sockets.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

// Seeded product managers (server/sandbox/seed-administration.ts) that no other test touches.
const TARGET = 'carla.otto2@demo.test';
const BYSTANDER = 'anna.albrecht0@demo.test';
const STRIPPED = 'tara.sommer19@demo.test';
const USERS_VIEW = 'tenant-management.users.view';

let stack: Stack;
const sockets: WebSocket[] = [];
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await stack?.stop();
});

const openSocket = (agent: Agent) => openNotificationSocket(stack.url, agent.cookie, sockets);

const accessChanges = (frames: Record<string, unknown>[]) =>
  frames.filter((f) => f.type === 'notification' && f.kind === 'access.changed');

async function userId(admin: Agent, email: string): Promise<number> {
  const { body } = await admin.json(
    `/api/0/tenantservice/v1/users?search=${encodeURIComponent(email)}`,
  );
  return (body.items as { id: number; email: string }[]).find((u) => u.email === email)!.id;
}

async function roleIds(admin: Agent): Promise<Record<string, number>> {
  const { body } = await admin.json('/api/0/tenantservice/v1/roles?pageSize=50');
  return Object.fromEntries(
    (body.items as { id: number; code: string }[]).map((r) => [r.code, r.id]),
  );
}

describe("an administrator changes a signed-in user's access", () => {
  it('tells only that user, whose forced refresh brings the new permissions', async () => {
    const admin = new Agent(stack.url);
    const target = new Agent(stack.url);
    const bystander = new Agent(stack.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
    const signedIn = await target.login(TARGET);
    expect(signedIn.body.account.permissions).not.toContain(USERS_VIEW);
    expect((await bystander.login(BYSTANDER)).status).toBe(200);
    const targetFrames = await openSocket(target);
    const bystanderFrames = await openSocket(bystander);

    const roles = await roleIds(admin);
    const id = await userId(admin, TARGET);
    const assigned = await admin.json(`/api/0/tenantservice/v1/users/${id}/assign-roles`, {
      json: { roleIds: [roles['product-manager'], roles['show-only']] },
    });
    expect(assigned.status).toBe(200);
    await expect.poll(() => accessChanges(targetFrames).length).toBe(1);

    // Right after the frame: a token younger than the minimum age is refreshed once it is that
    // old, never skipped, so the change is not lost.
    const started = Date.now();
    const refreshed = await target.json('/bff/accounts/0/refresh', { method: 'POST' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.account.permissions).toContain(USERS_VIEW);
    expect(Date.now() - started).toBeLessThan(FORCED_REFRESH_MIN_AGE_MS + 2_000);
    expect(JSON.stringify(refreshed.body)).not.toMatch(/eyJ[\w-]+\.eyJ|accessToken|refreshCookie/);
    // The session holds the new permissions too, and the proxy uses the new token.
    const session = await target.json('/bff/session');
    expect(session.body.accounts[0].permissions).toContain(USERS_VIEW);
    expect((await target.json('/api/0/tenantservice/v1/users?pageSize=1')).status).toBe(200);

    expect(accessChanges(bystanderFrames)).toEqual([]);
  });

  it('needs the CSRF header', async () => {
    const user = new Agent(stack.url);
    await user.login(BYSTANDER);
    const r = await user.json('/bff/accounts/0/refresh', { method: 'POST', csrf: false });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('csrf');
  });

  it('ends the account of a disabled user at the forced refresh, saying so', async () => {
    const admin = new Agent(stack.url);
    const user = new Agent(stack.url);
    await admin.login('admin@demo.test');
    expect((await user.login(BYSTANDER)).status).toBe(200);
    const frames = await openSocket(user);
    const id = await userId(admin, BYSTANDER);
    const disabled = await admin.json('/api/0/tenantservice/v1/users/disable-batch', {
      json: { ids: [id] },
    });
    expect(disabled.body.results).toEqual([{ id, ok: true }]);
    await expect.poll(() => accessChanges(frames).length).toBe(1);

    // Not a time-out: the reason goes with the 401, and the sign-in page says the account is
    // disabled (login-form.tsx, isUserDisabled).
    const r = await user.json('/bff/accounts/0/refresh', { method: 'POST' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({
      error: 'session_expired',
      accountIndex: 0,
      reason: 'user_disabled',
    });
    expect((await user.json('/bff/session')).body.accounts).toEqual([]);

    // Re-enabled for a rerun on the same data directory.
    await admin.json('/api/0/tenantservice/v1/users/enable-batch', { json: { ids: [id] } });
  });

  it('ends the account of a user whose roles were all taken away, saying so', async () => {
    const admin = new Agent(stack.url);
    const user = new Agent(stack.url);
    await admin.login('admin@demo.test');
    expect((await user.login(STRIPPED)).status).toBe(200);
    const frames = await openSocket(user);
    const id = await userId(admin, STRIPPED);
    const roles = await roleIds(admin);
    const stripped = await admin.json(`/api/0/tenantservice/v1/users/${id}/assign-roles`, {
      json: { roleIds: [] },
    });
    expect(stripped.status).toBe(200);
    await expect.poll(() => accessChanges(frames).length).toBe(1);

    // Not a time-out: the reason goes with the 401, and the sign-in page says access was removed.
    const r = await user.json('/bff/accounts/0/refresh', { method: 'POST' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'session_expired', reason: 'no_ui_permission' });
    expect((await user.json('/bff/session')).body.accounts).toEqual([]);
    const again = await user.login(STRIPPED);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('no_ui_permission');

    await admin.json(`/api/0/tenantservice/v1/users/${id}/assign-roles`, {
      json: { roleIds: [roles['customer-care']] },
    });
  });

  it('answers 401 for an account index the session does not hold', async () => {
    const user = new Agent(stack.url);
    await user.login(BYSTANDER);
    const r = await user.json('/bff/accounts/7/refresh', { method: 'POST' });
    expect(r.status).toBe(401);
  });
});
