import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';
import { DEMO_PASSWORD } from '#server/sandbox/services/tenant/seed.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

describe('sign-in and accounts', () => {
  it('signs in, keeps the tokens on the server and lists the account', async () => {
    const a = new Agent(stack.url);
    const login = await a.login('admin@demo.test');
    expect(login.status).toBe(200);
    expect(login.body.accountIndex).toBe(0);
    expect(login.body.account).toMatchObject({
      userName: 'admin@demo.test',
      tenantSlug: 'demo',
      tenantName: 'Demo Versicherung AG',
      isRequiredToChangePassword: false,
    });
    expect(login.body.account.permissions.length).toBeGreaterThan(0);
    const raw = JSON.stringify(login.body);
    expect(raw).not.toMatch(JWT);
    expect(raw).not.toMatch(/accessToken|refreshCookie/);
    const setCookie = login.res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Domain=/i);

    const session = await a.json('/bff/session');
    expect(session.body.accounts).toHaveLength(1);
    expect(JSON.stringify(session.body)).not.toMatch(JWT);
    expect(session.res.headers.get('cache-control')).toBe('no-store');
  });

  it("says who each account is in the upstream's terms: the user code and the display name", async () => {
    const a = new Agent(stack.url);
    await a.login('care@demo.test');
    const own = await a.json('/api/0/accountservice/v1/accounts', {
      json: {
        type: 'person',
        firstName: 'Wer',
        lastName: 'Bin-Ich',
        email: 'wer.bin.ich@example.test',
        gender: 'female',
        street: 'Weg',
        houseNumber: '1',
        zipCode: '50667',
        city: 'Köln',
      },
    });
    expect(own.status).toBe(201);
    const session = await a.json('/bff/session');
    const [account] = session.body.accounts;
    // The code the service stamps on the records this user saves.
    expect(account.userCode).toMatch(/^usr_/);
    expect(account.userCode).toBe(own.body.account.createdBy);
    expect(account.userFullName).not.toBe('care@demo.test');
    expect(account.userFullName.length).toBeGreaterThan(0);
  });

  it('answers the same for an unknown user and a wrong password', async () => {
    const a = new Agent(stack.url);
    const unknown = await a.login('nobody@demo.test');
    const wrong = await a.login('care@demo.test', 'Wrong1234!');
    expect(unknown.status).toBe(400);
    expect(wrong.status).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.error).toBe('invalid_credentials');
  });

  it('tells a disabled user with the right password that the account is disabled', async () => {
    const a = new Agent(stack.url);
    // Seeded disabled (server/sandbox/services/tenant/seed-administration.ts, every ninth user).
    const right = await a.login('eva.fuchs4@demo.test');
    expect(right.status).toBe(403);
    expect(right.body.error).toBe('user_disabled');
    // A wrong password learns nothing about the account's state.
    const wrong = await a.login('eva.fuchs4@demo.test', 'Wrong1234!');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_credentials');
    expect((await a.json('/bff/session')).body.accounts).toEqual([]);
  });

  it('refuses a user without a UI permission and keeps no account', async () => {
    const a = new Agent(stack.url);
    const r = await a.login('noui@demo.test');
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('no_ui_permission');
    expect((await a.json('/bff/session')).body.accounts).toEqual([]);
  });

  it('adds a second account at index 1, reuses the index for the same user, keeps indexes stable', async () => {
    const a = new Agent(stack.url);
    expect((await a.login('admin@demo.test')).body.accountIndex).toBe(0);
    expect((await a.login('viewer@demo.test')).body.accountIndex).toBe(1);
    expect((await a.login('admin@demo.test')).body.accountIndex).toBe(0);
    expect((await a.json('/api/1/tenantservice/v1/general')).status).toBe(200);

    expect((await a.fetch('/bff/accounts/0/logout', { method: 'POST' })).status).toBe(204);
    const left = (await a.json('/bff/session')).body.accounts;
    expect(left.map((x: { accountIndex: number }) => x.accountIndex)).toEqual([1]);
    expect((await a.json('/api/0/tenantservice/v1/general')).status).toBe(401);
    expect((await a.login('care@demo.test')).body.accountIndex).toBe(0);
  });

  it('gives a new session id at every sign-in and none survives sign-out', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const first = a.cookie;
    await a.login('viewer@demo.test');
    expect(a.cookie).not.toBe(first);
    const old = new Agent(stack.url);
    old.cookie = first;
    expect((await old.json('/bff/session')).body.accounts).toEqual([]);

    const beforeLogout = a.cookie;
    await a.fetch('/bff/accounts/0/logout', { method: 'POST' });
    await a.fetch('/bff/accounts/1/logout', { method: 'POST' });
    expect(a.cookie).toBe('');
    const replay = new Agent(stack.url);
    replay.cookie = beforeLogout;
    expect((await replay.json('/bff/session')).body.accounts).toEqual([]);
    expect((await replay.json('/api/0/tenantservice/v1/general')).status).toBe(401);
  });
});

describe('forced password change', () => {
  it('holds the account until a valid new password is set', async () => {
    const a = new Agent(stack.url);
    const r = await a.login('newpass@demo.test');
    expect(r.status).toBe(200);
    expect(r.body.account.isRequiredToChangePassword).toBe(true);
    expect(r.body.account.permissions).toEqual([]);
    expect((await a.json('/api/0/tenantservice/v1/general')).body.error).toBe(
      'password_change_required',
    );

    const weak = await a.json('/bff/accounts/0/change-password', {
      json: { newPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('invalid_password');

    // The password it has now is no change; the challenge survives the refusal.
    const same = await a.json('/bff/accounts/0/change-password', {
      json: { newPassword: DEMO_PASSWORD },
    });
    expect(same.status).toBe(400);
    expect(same.body.error).toBe('password_unchanged');

    const ok = await a.json('/bff/accounts/0/change-password', {
      json: { newPassword: 'Changed1234' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.account.isRequiredToChangePassword).toBe(false);
    expect(ok.body.account.tenantSlug).toBe('demo');
    expect((await a.json('/api/0/tenantservice/v1/general')).status).toBe(200);

    // The new password is the one that works now, without another forced change.
    const again = await new Agent(stack.url).login('newpass@demo.test', 'Changed1234');
    expect(again.body.account.isRequiredToChangePassword).toBe(false);
  });

  it('lets a signed-in user change the password with the old one', async () => {
    const a = new Agent(stack.url);
    await a.login('care@demo.test');
    const wrongOld = await a.json('/bff/accounts/0/change-password', {
      json: { oldPassword: 'Nope12345', newPassword: 'Another1234' },
    });
    expect(wrongOld.status).toBe(400);
    const missingOld = await a.json('/bff/accounts/0/change-password', {
      json: { newPassword: 'Another1234' },
    });
    expect(missingOld.status).toBe(400);
    const same = await a.json('/bff/accounts/0/change-password', {
      json: { oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD },
    });
    expect(same.status).toBe(400);
    expect(same.body.error).toBe('password_unchanged');
  });
});

describe('workspaces', () => {
  it('lists the group workspaces and switches, refusing a disabled one', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const list = await a.json('/bff/accounts/0/workspaces');
    expect(list.status).toBe(200);
    const slugs = list.body.workspaces.map((w: { slug: string }) => w.slug);
    expect(slugs).toEqual(expect.arrayContaining(['demo', 'demo-sandbox']));
    expect(slugs).not.toContain('nordlicht');
    const disabled = list.body.workspaces.find((w: { isDisabled: boolean }) => w.isDisabled);
    expect(disabled).toBeTruthy();

    const sw = await a.json('/bff/accounts/0/workspaces/switch', {
      json: { targetWorkspace: 'demo-sandbox' },
    });
    expect(sw.status).toBe(200);
    expect(sw.body.account.tenantSlug).toBe('demo-sandbox');
    expect(JSON.stringify(sw.body)).not.toMatch(JWT);
    expect((await a.json('/bff/session')).body.accounts[0].workspace).toBe('demo-sandbox');

    const no = await a.json('/bff/accounts/0/workspaces/switch', {
      json: { targetWorkspace: disabled.slug },
    });
    expect(no.status).toBe(403);
    const foreign = await a.json('/bff/accounts/0/workspaces/switch', {
      json: { targetWorkspace: 'nordlicht' },
    });
    expect([403, 404]).toContain(foreign.status);
  });
});

describe('proxy', () => {
  it('adds the bearer server-side and returns upstream data', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const g = await a.json('/api/0/tenantservice/v1/general');
    expect(g.status).toBe(200);
    expect(g.body.general).toMatchObject({
      time_zone: 'Europe/Berlin',
      language: 'de',
      currency: 'EUR',
    });
    expect(g.res.headers.get('set-cookie')).toBeNull();
  });

  it('keeps tenants apart through the proxy', async () => {
    const nord = new Agent(stack.url);
    await nord.login('admin@nordlicht.test');
    const demo = new Agent(stack.url);
    const demoTenantId = (await demo.login('admin@demo.test')).body.account.tenantId;
    const r = await nord.json(`/api/0/tenantservice/v1/tenants/${demoTenantId}`);
    expect(r.status).toBe(404);
    const users = await nord.json('/api/0/tenantservice/v1/users?pageSize=50');
    expect(JSON.stringify(users.body)).not.toContain('@demo.test');
  });
});
