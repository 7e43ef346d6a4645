import { describe, expect, it } from 'vitest';
import { api, latestMail, linkParam, login, type Session } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

/** The user page of issue 16: edit, create, reset, sessions, required actions, and who may. */
const kit = withSandbox({
  admin: 'admin@demo.test',
  viewer: 'viewer@demo.test',
  care: 'care@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, viewer, care, nord } = kit.sessions;

const T = '/tenantservice/v1';
const A = '/authservice/v1';

async function userByEmail(email: string): Promise<{ id: number; version: number }> {
  const res = await api(kit.base, `${T}/users?filter=${encodeURIComponent(`email=${email}`)}`, {
    token: admin.accessToken,
  });
  const user = res.body.items?.[0];
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

/** Any call that needs a live access token: the user's own workspace settings. */
const whoAmI = (session: Session) => api(kit.base, `${T}/general`, { token: session.accessToken });

const refresh = (session: Session, username: string) =>
  api(kit.base, `${A}/refresh-token`, { body: { username }, cookie: session.cookie });

describe('editing name and e-mail', () => {
  it('saves on top of the version shown, refuses a stale version with the current user, and a taken address at the field', async () => {
    const { id, version } = await userByEmail('hannah.koch@demo.test');
    const saved = await api(kit.base, `${T}/users/${id}`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { firstName: 'Johanna', lastName: 'Koch', email: 'hannah.koch@demo.test', version },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.user).toMatchObject({ firstName: 'Johanna', version: version + 1 });

    const stale = await api(kit.base, `${T}/users/${id}`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { firstName: 'Hanna', lastName: 'Koch', email: 'hannah.koch@demo.test', version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.user).toMatchObject({ firstName: 'Johanna', version: version + 1 });

    const taken = await api(kit.base, `${T}/users/${id}`, {
      method: 'PUT',
      token: admin.accessToken,
      body: {
        firstName: 'Johanna',
        lastName: 'Koch',
        email: 'CARE@demo.test',
        version: version + 1,
      },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.issues).toEqual([{ path: 'email', code: 'email_taken' }]);

    const empty = await api(kit.base, `${T}/users/${id}`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { firstName: ' ', lastName: 'Koch', email: 'hannah.koch@demo.test', version: 2 },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual([{ path: 'firstName', code: 'required' }]);
  });
});

describe('creating a user directly', () => {
  it('creates an active user with the roles chosen, e-mails a link to set the password, and the user signs in with it', async () => {
    const roles = await api(kit.base, `${T}/roles?filter=code=show-only`, {
      token: admin.accessToken,
    });
    const roleId = roles.body.items[0].id;
    const email = 'direct.user@demo.test';
    const created = await api(kit.base, `${T}/users`, {
      token: admin.accessToken,
      body: { firstName: 'Dora', lastName: 'Direkt', email, roleIds: [roleId] },
    });
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({
      email,
      firstName: 'Dora',
      status: 'active',
      version: 1,
      mustChangePassword: false,
    });
    expect(created.body.user.roles.map((r: { code: string }) => r.code)).toEqual(['show-only']);

    // No password yet: nothing signs in until the link is used.
    const before = await api(kit.base, `${A}/login`, { body: { username: email, password: '' } });
    expect(before.status).not.toBe(200);
    const mail = await latestMail(kit.base, email);
    // In the tenant's language (German): a new user has chosen none; the link is absolute.
    expect(mail?.subject).toBe('Ihr Konto ist eingerichtet');
    expect(mail?.link).toMatch(/^http:\/\/localhost:\d+\/account\/resetpassword\?resetToken=/);
    const set = await api(kit.base, `${A}/reset-password`, {
      body: { resetToken: linkParam(mail?.link, 'resetToken'), newPassword: 'Direkt1234!' },
    });
    expect(set.status).toBe(204);
    const session = await login(kit.base, email, 'Direkt1234!');
    expect(session.permissions).toContain('tenant-management.users.view');

    const again = await api(kit.base, `${T}/users`, {
      token: admin.accessToken,
      body: { firstName: 'Dora', lastName: 'Doppelt', email: email.toUpperCase() },
    });
    expect(again.status).toBe(409);
    expect(again.body.issues).toEqual([{ path: 'email', code: 'email_taken' }]);
  });
});

describe('a password reset sent by the administrator', () => {
  it('e-mails a reset link that sets a new password', async () => {
    const email = 'emma.weber@demo.test';
    const { id } = await userByEmail(email);
    const sent = await api(kit.base, `${T}/users/${id}/reset-password`, {
      token: admin.accessToken,
      body: {},
    });
    expect(sent.status).toBe(204);
    const mail = await latestMail(kit.base, email);
    expect(mail?.subject).toBe('Passwort zurücksetzen');
    expect(mail?.text).toContain('Administrator');
    const reset = await api(kit.base, `${A}/reset-password`, {
      body: { resetToken: linkParam(mail?.link, 'resetToken'), newPassword: 'Neues1234!' },
    });
    expect(reset.status).toBe(204);
    await expect(login(kit.base, email)).rejects.toThrow(/failed/);
    await login(kit.base, email, 'Neues1234!');
  });
});

describe('sessions', () => {
  it('lists each sign-in once (refreshes continue it) and signing one out ends it at once, the other staying', async () => {
    const email = 'sophie.klein@demo.test';
    const { id } = await userByEmail(email);
    const first = await login(kit.base, email);
    const second = await login(kit.base, email);
    // A refresh continues its session rather than starting another.
    const refreshed = await refresh(second, email);
    expect(refreshed.status).toBe(200);
    const secondNow: Session = {
      accessToken: refreshed.body.accessToken,
      permissions: refreshed.body.permissions,
      cookie: refreshed.cookie!,
    };

    const list = await api(kit.base, `${T}/users/${id}/sessions`, { token: admin.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items[0]).toMatchObject({ workspace: expect.any(String) });

    // Which one is the first sign-in: the one its token names.
    const sidOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    const firstId = sidOf(first.accessToken);
    expect(list.body.items.map((s: { id: string }) => s.id).sort()).toEqual(
      [firstId, sidOf(secondNow.accessToken)].sort(),
    );

    expect((await whoAmI(first)).status).toBe(200);
    const out = await api(kit.base, `${T}/users/${id}/sessions/${firstId}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(out.status).toBe(204);
    // Its access token stops at once, its refresh token too; the other session works on.
    expect((await whoAmI(first)).status).toBe(401);
    expect((await refresh(first, email)).status).toBe(401);
    expect((await whoAmI(secondNow)).status).toBe(200);
    expect((await refresh(secondNow, email)).status).toBe(200);

    const after = await api(kit.base, `${T}/users/${id}/sessions`, { token: admin.accessToken });
    expect(after.body.items.map((s: { id: string }) => s.id)).toEqual([
      sidOf(secondNow.accessToken),
    ]);
    const twice = await api(kit.base, `${T}/users/${id}/sessions/${firstId}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(twice.status).toBe(404);
  });
});

describe('required actions', () => {
  it('"change password at the next sign-in" makes the sign-in ask for a new password first', async () => {
    const email = 'noah.wolf@demo.test';
    const { id } = await userByEmail(email);
    const set = await api(kit.base, `${T}/users/${id}/required-actions`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { changePassword: true },
    });
    expect(set.status).toBe(200);
    expect(set.body.user.mustChangePassword).toBe(true);

    const first = await api(kit.base, `${A}/login`, {
      body: { username: email, password: 'Demo1234!' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ newPasswordRequired: true, challenge: expect.any(String) });
    const changed = await api(kit.base, `${A}/change-password`, {
      body: { username: email, challenge: first.body.challenge, newPassword: 'Gewechselt1234!' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.accessToken).toEqual(expect.any(String));
    const user = await api(kit.base, `${T}/users/${id}`, { token: admin.accessToken });
    expect(user.body.user.mustChangePassword).toBe(false);
  });
});

describe('who may', () => {
  const routes = (id: number): [string, string, unknown][] => [
    ['PUT', `/users/${id}`, { firstName: 'X', lastName: 'Y', email: 'x.y@demo.test', version: 1 }],
    ['POST', '/users', { firstName: 'X', lastName: 'Y', email: 'x.y@demo.test' }],
    ['POST', `/users/${id}/reset-password`, {}],
    ['PUT', `/users/${id}/required-actions`, { changePassword: true }],
    ['GET', `/users/${id}/sessions`, undefined],
    ['DELETE', `/users/${id}/sessions/00000000-0000-4000-8000-000000000000`, undefined],
  ];

  it('refuses a user without the user-management permissions (403); seeing is not changing', async () => {
    const { id } = await userByEmail('mia.schneider@demo.test');
    for (const [method, route, body] of routes(id)) {
      const res = await api(kit.base, T + route, { method, token: care.accessToken, body });
      expect(res.status, `care: ${method} ${route}`).toBe(403);
      // The show-only role may look (tenant-management.users.view), never change.
      const byViewer = await api(kit.base, T + route, { method, token: viewer.accessToken, body });
      expect(byViewer.status, `viewer: ${method} ${route}`).toBe(method === 'GET' ? 200 : 403);
    }
  });

  it('answers 404 for a user of another workspace, whatever the route, and changes nothing', async () => {
    const { id, version } = await userByEmail('mia.schneider@demo.test');
    for (const [method, route, body] of routes(id)) {
      if (route === '/users') continue;
      const res = await api(kit.base, T + route, { method, token: nord.accessToken, body });
      expect(res.status, `${method} ${route}`).toBe(404);
    }
    const user = await api(kit.base, `${T}/users/${id}`, { token: admin.accessToken });
    expect(user.body.user).toMatchObject({ version, mustChangePassword: false });
  });
});

describe("the user page's writes in the user's history", () => {
  it('records creating, renaming and the required action with the administrator by name and the changed fields, newest first', async () => {
    const adminUser = await api(
      kit.base,
      `${T}/users?filter=${encodeURIComponent('email=admin@demo.test')}`,
      {
        token: admin.accessToken,
      },
    );
    const { firstName, lastName } = adminUser.body.items[0];
    const created = await api(kit.base, `${T}/users`, {
      token: admin.accessToken,
      body: { firstName: 'Greta', lastName: 'Gestern', email: 'greta.gestern@demo.test' },
    });
    expect(created.status).toBe(201);
    const { id, version } = created.body.user;
    const renamed = await api(kit.base, `${T}/users/${id}`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { firstName: 'Greta', lastName: 'Heute', email: 'greta.gestern@demo.test', version },
    });
    expect(renamed.status).toBe(200);
    // A refused (stale) save and a save of what is saved record nothing.
    for (const v of [version, version + 1]) {
      await api(kit.base, `${T}/users/${id}`, {
        method: 'PUT',
        token: admin.accessToken,
        body: {
          firstName: 'Greta',
          lastName: 'Heute',
          email: 'greta.gestern@demo.test',
          version: v,
        },
      });
    }
    const required = await api(kit.base, `${T}/users/${id}/required-actions`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { changePassword: true },
    });
    expect(required.status).toBe(200);

    const history = await api(kit.base, `${T}/users/${id}/history`, { token: admin.accessToken });
    expect(history.status).toBe(200);
    const actor = `${firstName} ${lastName}`;
    expect(history.body.items).toMatchObject([
      {
        action: 'required_actions_changed',
        actorName: actor,
        changes: [{ field: 'mustChangePassword', before: false, after: true }],
      },
      {
        action: 'updated',
        actorName: actor,
        changes: [{ field: 'lastName', before: 'Gestern', after: 'Heute' }],
      },
      { action: 'created', actorName: actor },
    ]);
    expect(history.body.items).toHaveLength(3);
    expect(history.body.items[2].changes).toContainEqual({
      field: 'email',
      before: null,
      after: 'greta.gestern@demo.test',
    });
    // Only names: no user id or code of the actor.
    const adminCode = adminUser.body.items[0].code as string;
    expect(adminCode).toMatch(/^usr_/);
    expect(JSON.stringify(history.body)).not.toContain(adminCode);
  });
});
