import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '#server/sandbox/platform/crypto.ts';
import { api, latestMail, linkParam, login, type Session } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox({
  admin: 'admin@demo.test',
  viewer: 'viewer@demo.test',
  care: 'care@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, viewer, care, nord } = kit.sessions;
let base: string;

const T = '/tenantservice/v1';
const A = '/authservice/v1';
const UI_BASE = [
  'ui.eis.view',
  'tenant-management.tenants.view',
  'tenant-management.settings.view',
];

beforeAll(() => {
  base = kit.base;
});

async function userByEmail(
  email: string,
  session = admin,
): Promise<{ id: number; status: string }> {
  const res = await api(base, `${T}/users?filter=${encodeURIComponent(`email=${email}`)}`, {
    token: session.accessToken,
  });
  const user = res.body.items?.[0];
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

async function roleByCode(code: string): Promise<{ id: number; permissions: { code: string }[] }> {
  const res = await api(base, `${T}/roles?filter=${encodeURIComponent(`code=${code}`)}`, {
    token: admin.accessToken,
  });
  const role = res.body.items?.[0];
  if (!role) throw new Error(`no role ${code}`);
  return role;
}

/** A seeded, active user that no other test touches, signed in. */
async function freshUser(email: string): Promise<{ id: number; session: Session }> {
  const { id } = await userByEmail(email);
  return { id, session: await login(base, email) };
}

describe('authentication and permissions on the new user routes', () => {
  it.each([
    ['DELETE', '/users/5'],
    ['POST', '/users/5/assign-roles'],
    ['POST', '/users/delete-batch'],
    ['POST', '/users/disable-batch'],
    ['POST', '/users/enable-batch'],
    ['GET', '/users/5/effective-permissions'],
    ['GET', '/users/invites'],
    ['POST', '/users/invites/batch'],
    ['DELETE', '/users/invites/1'],
    ['POST', '/users/invites/delete-batch'],
    ['GET', '/roles/1'],
    ['POST', '/roles'],
    ['PUT', '/roles/1'],
    ['DELETE', '/roles/1'],
  ])('%s %s answers 401 without a token', async (method, route) => {
    const res = await api(base, T + route, { method, body: method === 'GET' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it.each([
    ['DELETE', '/users/5', undefined],
    ['POST', '/users/5/assign-roles', { roleIds: [] }],
    ['POST', '/users/delete-batch', { ids: [5] }],
    ['POST', '/users/disable-batch', { ids: [5] }],
    ['POST', '/users/enable-batch', { ids: [5] }],
    ['POST', '/users/invites/batch', { emails: ['x@example.test'] }],
    ['DELETE', '/users/invites/1', undefined],
    ['POST', '/users/invites/delete-batch', { ids: [1] }],
    ['POST', '/roles', { code: 'x', label: 'x', permissions: [] }],
    ['PUT', '/roles/1', { label: 'x', permissions: [] }],
    ['DELETE', '/roles/1', undefined],
  ])('%s %s answers 403 to a read-only user', async (method, route, body) => {
    const res = await api(base, T + route, { method, body, token: viewer.accessToken });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
  });

  it.each([['/users/5/effective-permissions'], ['/users/invites'], ['/roles/1']])(
    'GET %s answers 403 without the view permission',
    async (route) => {
      const res = await api(base, T + route, { token: care.accessToken });
      expect(res.status).toBe(403);
    },
  );
});

describe('GET /users filters and expands', () => {
  it('filters by status, role, role id and organisation, and expands organisations', async () => {
    const disabled = await api(base, `${T}/users?filter=status=disabled&pageSize=50`, {
      token: viewer.accessToken,
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.items.length).toBeGreaterThanOrEqual(4);
    expect(disabled.body.items.every((u: { status: string }) => u.status === 'disabled')).toBe(
      true,
    );
    const invited = await api(base, `${T}/users?filter=status=invited`, {
      token: viewer.accessToken,
    });
    expect(invited.body.items.length).toBeGreaterThanOrEqual(3);

    const byRole = await api(base, `${T}/users?filter=role=show-only&expand=roles&pageSize=50`, {
      token: viewer.accessToken,
    });
    expect(byRole.body.items.length).toBeGreaterThan(5);
    for (const user of byRole.body.items) {
      expect(user.roles.map((r: { code: string }) => r.code)).toContain('show-only');
    }
    const showOnly = await roleByCode('show-only');
    const byRoleId = await api(base, `${T}/users?filter=roleId=${showOnly.id}&pageSize=50`, {
      token: viewer.accessToken,
    });
    expect(byRoleId.body.items.map((u: { id: number }) => u.id)).toEqual(
      byRole.body.items.map((u: { id: number }) => u.id),
    );

    const orgs = await api(base, `${T}/organizations`, { token: admin.accessToken });
    const org = orgs.body.items[1];
    const byOrg = await api(
      base,
      `${T}/users?filter=organizationId=${org.id}&expand=organizations,roles&pageSize=50`,
      { token: viewer.accessToken },
    );
    expect(byOrg.body.items.length).toBeGreaterThan(3);
    for (const user of byOrg.body.items) {
      expect(user.organizationId).toBe(org.id);
      expect(user.organization).toEqual({ id: org.id, code: org.code, name: org.name });
    }
  });

  it('searches over first name, last name and e-mail', async () => {
    const byName = await api(base, `${T}/users?search=albrecht`, { token: viewer.accessToken });
    expect(byName.body.items.length).toBeGreaterThan(0);
    for (const u of byName.body.items) {
      expect(`${u.firstName} ${u.lastName} ${u.email}`.toLowerCase()).toContain('albrecht');
    }
    const byMail = await api(base, `${T}/users?search=viewer%40demo`, {
      token: viewer.accessToken,
    });
    expect(byMail.body.items.map((u: { email: string }) => u.email)).toEqual(['viewer@demo.test']);
  });

  it('rejects bad filters and expands with 400', async () => {
    for (const query of [
      'filter=organizationId=abc',
      'filter=roleId=x',
      'filter=status=sleeping',
      'expand=subscriptions',
    ]) {
      const res = await api(base, `${T}/users?${query}`, { token: viewer.accessToken });
      expect(res.status, query).toBe(400);
    }
  });

  it('lets the demo world scroll: at least 60 users', async () => {
    const second = await api(base, `${T}/users?pageSize=30&pageToken=2`, {
      token: viewer.accessToken,
    });
    expect(second.body.items).toHaveLength(30);
  });
});

describe('assign roles', () => {
  it('replaces the roles of a user and returns the user', async () => {
    const { id } = await userByEmail('anna.albrecht0@demo.test');
    const showOnly = await roleByCode('show-only');
    const res = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { userId: id, roleIds: [showOnly.id] },
      token: admin.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.user.roles.map((r: { code: string }) => r.code)).toEqual(['show-only']);
    const byCode = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleCodes: ['customer-care', 'show-only'] },
      token: admin.accessToken,
    });
    expect(byCode.body.user.roles.map((r: { code: string }) => r.code).sort()).toEqual([
      'customer-care',
      'show-only',
    ]);
  });

  it('changes the permissions of a signed-in user at once', async () => {
    const { id, session } = await freshUser('ben.horn1@demo.test');
    const before = await api(base, `${T}/users`, { token: session.accessToken });
    expect(before.status).toBe(200);
    await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleCodes: ['customer-care'] },
      token: admin.accessToken,
    });
    const after = await api(base, `${T}/users`, { token: session.accessToken });
    expect(after.status).toBe(403);
  });

  it('rejects bad input with 400', async () => {
    const { id } = await userByEmail('anna.albrecht0@demo.test');
    for (const body of [
      {},
      { roleIds: ['1'] },
      { roleIds: [999999] },
      { roleCodes: ['no-such-role'] },
      { userId: id + 1, roleIds: [] },
    ]) {
      const res = await api(base, `${T}/users/${id}/assign-roles`, {
        body,
        token: admin.accessToken,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 404 for a user of another tenant and for a role of another tenant', async () => {
    const { id } = await userByEmail('anna.albrecht0@demo.test');
    const res = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleCodes: ['admin'] },
      token: nord.accessToken,
    });
    expect(res.status).toBe(404);
    const nordAdminRole = await api(base, `${T}/roles?filter=code=admin`, {
      token: nord.accessToken,
    });
    const foreignRole = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [nordAdminRole.body.items[0].id] },
      token: admin.accessToken,
    });
    expect(foreignRole.status).toBe(400);
    expect(foreignRole.body.error).toBe('unknown_role');
  });
});

// Before the escalation tests, which make a second administrator: here admin@demo.test is the
// only one.
describe('a workspace always keeps an administrator, whoever acts', () => {
  const rolesOf = async (id: number) =>
    (await api(base, `${T}/users/${id}?expand=roles`, { token: admin.accessToken })).body.user.roles
      .map((r: { code: string }) => r.code)
      .sort();

  it('refuses a user manager disabling or deleting the last other administrator', async () => {
    // A role that manages users but not roles: its holder is no administrator.
    const keeper = await api(base, `${T}/roles`, {
      body: {
        code: 'user-keeper',
        label: 'User keeper',
        permissions: [...UI_BASE, 'tenant-management.users.*'],
      },
      token: admin.accessToken,
    });
    expect(keeper.status).toBe(201);
    const { id } = await freshUser('hannah.koch@demo.test');
    const assigned = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [keeper.body.role.id] },
      token: admin.accessToken,
    });
    expect(assigned.status).toBe(200);
    const manager = await login(base, 'hannah.koch@demo.test');
    const theAdmin = await userByEmail('admin@demo.test');

    const disabled = await api(base, `${T}/users/disable-batch`, {
      body: { ids: [theAdmin.id] },
      token: manager.accessToken,
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.results).toEqual([
      { id: theAdmin.id, ok: false, error: 'last_administrator' },
    ]);
    const deleted = await api(base, `${T}/users/${theAdmin.id}`, {
      method: 'DELETE',
      token: manager.accessToken,
    });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toBe('last_administrator');
    const batchDeleted = await api(base, `${T}/users/delete-batch`, {
      body: { ids: [theAdmin.id] },
      token: manager.accessToken,
    });
    expect(batchDeleted.body.results).toEqual([
      { id: theAdmin.id, ok: false, error: 'last_administrator' },
    ]);
    expect((await userByEmail('admin@demo.test')).status).toBe('active');
    expect(await rolesOf(theAdmin.id)).toEqual(['admin']);
  });

  it('lets exactly one of two administrators who strip each other at once succeed', async () => {
    const { id } = await freshUser('elias.richter@demo.test');
    const adminRole = await roleByCode('admin');
    const showOnly = await roleByCode('show-only');
    const theAdmin = await userByEmail('admin@demo.test');
    const promoted = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [adminRole.id] },
      token: admin.accessToken,
    });
    expect(promoted.status).toBe(200);
    const second = await login(base, 'elias.richter@demo.test');

    const [stripSecond, stripFirst] = await Promise.all([
      api(base, `${T}/users/${id}/assign-roles`, {
        body: { roleIds: [showOnly.id] },
        token: admin.accessToken,
      }),
      api(base, `${T}/users/${theAdmin.id}/assign-roles`, {
        body: { roleIds: [showOnly.id] },
        token: second.accessToken,
      }),
    ]);
    // The second to run is refused: 409 when it got past the permission check while the first
    // ran (it then waits on the administrators' lock and finds itself the last), 403 when the
    // first had already taken its rights.
    expect([stripSecond.status, stripFirst.status].filter((s) => s === 200)).toHaveLength(1);
    const refused = stripSecond.status === 200 ? stripFirst : stripSecond;
    expect([409, 403]).toContain(refused.status);
    expect(refused.body.error).toBe(refused.status === 409 ? 'last_administrator' : 'forbidden');
    // One administrator is left, whichever call won.
    const left = [await rolesOf(theAdmin.id), await rolesOf(id)].filter((r) => r.includes('admin'));
    expect(left).toHaveLength(1);

    // Back as it was: the one left gives the seeded administrator the role again, who then takes
    // it from the other.
    if (stripFirst.status === 200) {
      const back = await api(base, `${T}/users/${theAdmin.id}/assign-roles`, {
        body: { roleIds: [adminRole.id] },
        token: second.accessToken,
      });
      expect(back.status).toBe(200);
      const down = await api(base, `${T}/users/${id}/assign-roles`, {
        body: { roleIds: [showOnly.id] },
        token: (await login(base, 'admin@demo.test')).accessToken,
      });
      expect(down.status).toBe(200);
    }
    expect(await rolesOf(theAdmin.id)).toEqual(['admin']);
  });
});

describe('escalation: nobody grants what they do not hold', () => {
  let manager: Session;
  let managerRoleId: number;

  beforeAll(async () => {
    const role = await api(base, `${T}/roles`, {
      body: {
        code: 'user-manager',
        label: 'User manager',
        permissions: [...UI_BASE, 'tenant-management.users.*', 'identity-management.roles.*'],
      },
      token: admin.accessToken,
    });
    expect(role.status).toBe(201);
    managerRoleId = role.body.role.id;
    const { id } = await userByEmail('carla.otto2@demo.test');
    const assigned = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [managerRoleId] },
      token: admin.accessToken,
    });
    expect(assigned.status).toBe(200);
    manager = await login(base, 'carla.otto2@demo.test');
  });

  it('refuses to assign a role with permissions the caller lacks', async () => {
    const { id } = await userByEmail('david.vogel3@demo.test');
    for (const roleCodes of [['admin'], ['show-only'], ['customer-care', 'show-only']]) {
      const res = await api(base, `${T}/users/${id}/assign-roles`, {
        body: { roleCodes },
        token: manager.accessToken,
      });
      expect(res.status, roleCodes.join()).toBe(403);
      expect(res.body.error).toBe('escalation');
    }
    const roles = await api(base, `${T}/users/${id}?expand=roles`, { token: admin.accessToken });
    expect(roles.body.user.roles.map((r: { code: string }) => r.code)).toEqual(['customer-care']);
  });

  it('refuses to take away a role the caller could not grant', async () => {
    const { id } = await userByEmail('admin@demo.test');
    const res = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [managerRoleId] },
      token: manager.accessToken,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('escalation');
  });

  it('allows assigning a role within the caller’s own permissions', async () => {
    const { id } = await userByEmail('finn.meyer5@demo.test');
    const res = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [managerRoleId] },
      token: manager.accessToken,
    });
    // finn had show-only, which the manager does not hold: removing it is escalation too.
    expect(res.status).toBe(403);
    const bare = await userByEmail('greta.thiel6@demo.test');
    const narrow = await api(base, `${T}/roles`, {
      body: {
        code: 'user-reader',
        label: 'User reader',
        permissions: ['tenant-management.users.view'],
      },
      token: manager.accessToken,
    });
    expect(narrow.status).toBe(201);
    await api(base, `${T}/users/${bare.id}/assign-roles`, {
      body: { roleIds: [narrow.body.role.id] },
      token: admin.accessToken,
    });
    const ok = await api(base, `${T}/users/${bare.id}/assign-roles`, {
      body: { roleIds: [narrow.body.role.id, managerRoleId] },
      token: manager.accessToken,
    });
    expect(ok.status).toBe(200);
  });

  it('refuses to create or edit a role with permissions the caller lacks', async () => {
    for (const permissions of [
      ['*.*.*'],
      ['admin'],
      ['claim-management.claims.view'],
      ['tenant-management.*'],
    ]) {
      const res = await api(base, `${T}/roles`, {
        body: { code: 'sneaky', label: 'Sneaky', permissions },
        token: manager.accessToken,
      });
      expect(res.status, permissions.join()).toBe(403);
      expect(res.body.error).toBe('escalation');
    }
    const admin_ = await roleByCode('admin');
    const strip = await api(base, `${T}/roles/${admin_.id}`, {
      method: 'PUT',
      body: { label: 'Administrator', permissions: ['tenant-management.users.view'] },
      token: manager.accessToken,
    });
    expect(strip.status).toBe(403);
    const grow = await api(base, `${T}/roles/${managerRoleId}`, {
      method: 'PUT',
      body: { label: 'User manager', permissions: [...UI_BASE, '*.*.*'] },
      token: manager.accessToken,
    });
    expect(grow.status).toBe(403);
    expect(grow.body.error).toBe('escalation');
    const del = await api(base, `${T}/roles/${admin_.id}`, {
      method: 'DELETE',
      token: manager.accessToken,
    });
    expect(del.status).toBe(403);
  });

  it('refuses to invite with roles the caller lacks', async () => {
    const res = await api(base, `${T}/users/invites/batch`, {
      body: { emails: ['escalate@example.test'], roleCodes: ['admin'] },
      token: manager.accessToken,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('escalation');
    expect(await latestMail(base, 'escalate@example.test')).toBeUndefined();
  });
});

describe('a workspace always keeps an administrator', () => {
  async function nordAdminRole(): Promise<{ id: number; label: string; permissions: string[] }> {
    const res = await api(base, `${T}/roles?filter=${encodeURIComponent('code=admin')}`, {
      token: nord.accessToken,
    });
    const role = res.body.items[0];
    return {
      id: role.id,
      label: role.label,
      permissions: role.permissions.map((p: { code: string }) => p.code),
    };
  }

  it('refuses the last administrator taking their own administrator role away', async () => {
    const me = await userByEmail('admin@nordlicht.test', nord);
    const showOnly = await api(base, `${T}/roles?filter=${encodeURIComponent('code=show-only')}`, {
      token: nord.accessToken,
    });
    const res = await api(base, `${T}/users/${me.id}/assign-roles`, {
      body: { roleIds: [showOnly.body.items[0].id] },
      token: nord.accessToken,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('last_administrator');
    const roles = await api(base, `${T}/users/${me.id}?expand=roles`, { token: nord.accessToken });
    expect(roles.body.user.roles.map((r: { code: string }) => r.code)).toEqual(['admin']);
  });

  it('refuses editing the last administrator role down to less than the rights', async () => {
    const role = await nordAdminRole();
    const res = await api(base, `${T}/roles/${role.id}`, {
      method: 'PUT',
      body: { label: role.label, permissions: ['ui.eis.view', 'tenant-management.users.*'] },
      token: nord.accessToken,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('last_administrator');
    expect((await nordAdminRole()).permissions).toEqual(role.permissions);
  });

  it('lets an administrator step down while another one remains', async () => {
    const { id, session } = await freshUser('lea.fischer@demo.test');
    const adminRole = await roleByCode('admin');
    const careRole = await roleByCode('customer-care');
    const promoted = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [adminRole.id] },
      token: admin.accessToken,
    });
    expect(promoted.status).toBe(200);
    const again = await login(base, 'lea.fischer@demo.test');
    expect(again.accessToken).not.toBe(session.accessToken);
    const stepDown = await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [careRole.id] },
      token: again.accessToken,
    });
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.user.roles.map((r: { code: string }) => r.code)).toEqual([
      'customer-care',
    ]);
  });
});

describe('disable, enable and delete, one by one and in batches', () => {
  it('reports per id and ends the sessions of disabled users at once', async () => {
    const a = await freshUser('ida.kowalska8@demo.test');
    const nordAdmin = await userByEmail('admin@nordlicht.test', nord);
    const res = await api(base, `${T}/users/disable-batch`, {
      body: { ids: [a.id, 999999, nordAdmin.id] },
      token: admin.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: a.id, ok: true },
      { id: 999999, ok: false, error: 'not_found' },
      { id: nordAdmin.id, ok: false, error: 'not_found' },
    ]);
    expect((await userByEmail('admin@nordlicht.test', nord)).status).toBe('active');
    const access = await api(base, `${T}/users`, { token: a.session.accessToken });
    expect(access.status).toBe(401);
    const refresh = await api(base, `${A}/refresh-token`, {
      body: { username: 'ida.kowalska8@demo.test' },
      cookie: a.session.cookie,
    });
    // Refused, saying why: the BFF tells the user the account is disabled, not a time-out.
    expect(refresh.status).toBe(403);
    expect(refresh.body.error).toBe('user_disabled');

    const enabled = await api(base, `${T}/users/enable-batch`, {
      body: { ids: [a.id] },
      token: admin.accessToken,
    });
    expect(enabled.body.results).toEqual([{ id: a.id, ok: true }]);
    // The old refresh token stays dead; a new sign-in works.
    const stillDead = await api(base, `${A}/refresh-token`, {
      body: { username: 'ida.kowalska8@demo.test' },
      cookie: a.session.cookie,
    });
    expect(stillDead.status).toBe(401);
    expect(stillDead.body.error).toBe('invalid_refresh_token');
    await login(base, 'ida.kowalska8@demo.test');
  });

  it('never lets users disable or delete themselves', async () => {
    const me = await userByEmail('admin@demo.test');
    const disable = await api(base, `${T}/users/disable-batch`, {
      body: { ids: [me.id] },
      token: admin.accessToken,
    });
    expect(disable.body.results).toEqual([{ id: me.id, ok: false, error: 'cannot_disable_self' }]);
    const del = await api(base, `${T}/users/delete-batch`, {
      body: { ids: [me.id] },
      token: admin.accessToken,
    });
    expect(del.body.results).toEqual([{ id: me.id, ok: false, error: 'cannot_delete_self' }]);
    const single = await api(base, `${T}/users/${me.id}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(single.status).toBe(400);
    expect((await userByEmail('admin@demo.test')).status).toBe('active');
  });

  it('rejects bad batch bodies with 400', async () => {
    for (const body of [
      {},
      { ids: [] },
      { ids: ['1'] },
      { ids: [1.5] },
      { ids: Array(101).fill(1) },
    ]) {
      const res = await api(base, `${T}/users/enable-batch`, { body, token: admin.accessToken });
      expect(res.status).toBe(400);
    }
  });

  it('deletes a user: the sessions end and the user is gone from the workspace', async () => {
    const victim = await freshUser('jan.roth9@demo.test');
    const foreign = await api(base, `${T}/users/${victim.id}`, {
      method: 'DELETE',
      token: nord.accessToken,
    });
    expect(foreign.status).toBe(404);
    const bad = await api(base, `${T}/users/abc`, { method: 'DELETE', token: admin.accessToken });
    expect(bad.status).toBe(404);
    const res = await api(base, `${T}/users/${victim.id}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(res.status).toBe(204);
    expect((await api(base, `${T}/users/${victim.id}`, { token: admin.accessToken })).status).toBe(
      404,
    );
    expect((await api(base, `${T}/roles`, { token: victim.session.accessToken })).status).toBe(401);
    // Its only workspace gone, the account goes too: no sign-in, no refresh.
    await expect(login(base, 'jan.roth9@demo.test')).rejects.toThrow();
    const refresh = await api(base, `${A}/refresh-token`, {
      body: { username: 'jan.roth9@demo.test' },
      cookie: victim.session.cookie,
    });
    expect(refresh.status).toBe(401);
    const again = await api(base, `${T}/users/delete-batch`, {
      body: { ids: [victim.id] },
      token: admin.accessToken,
    });
    expect(again.body.results).toEqual([{ id: victim.id, ok: false, error: 'not_found' }]);
  });

  it('deletes in a batch; the sessions of that workspace end', async () => {
    const manager = await freshUser('manager@demo.test');
    // manager@ also belongs to demo-sandbox: only the membership of this workspace goes.
    const res = await api(base, `${T}/users/delete-batch`, {
      body: { ids: [manager.id] },
      token: admin.accessToken,
    });
    expect(res.body.results).toEqual([{ id: manager.id, ok: true }]);
    expect((await api(base, `${T}/roles`, { token: manager.session.accessToken })).status).toBe(
      401,
    );
    const refresh = await api(base, `${A}/refresh-token`, {
      body: { username: 'manager@demo.test' },
      cookie: manager.session.cookie,
    });
    expect(refresh.status).toBe(401);
  });
});

describe('roles', () => {
  it('lists roles with permissions and filters by module', async () => {
    const res = await api(base, `${T}/roles?pageSize=50&expand=permissions`, {
      token: viewer.accessToken,
    });
    expect(res.status).toBe(200);
    const care_ = res.body.items.find((r: { code: string }) => r.code === 'customer-care');
    expect(care_.permissions).toContainEqual(
      expect.objectContaining({
        code: 'claim-management.claims.*',
        module: 'claim-management',
        entity: 'claims',
        action: '*',
      }),
    );
    const claims = await api(base, `${T}/roles?filter=module=claim-management`, {
      token: viewer.accessToken,
    });
    const codes = claims.body.items.map((r: { code: string }) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['admin', 'customer-care', 'show-only']));
    expect(codes).not.toContain('product-manager');
    expect(codes).not.toContain('noui');
    const bad = await api(base, `${T}/roles?filter=colour=red`, { token: viewer.accessToken });
    expect(bad.status).toBe(400);
  });

  it('creates, reads, updates and deletes a role', async () => {
    const created = await api(base, `${T}/roles`, {
      body: {
        code: 'claims-clerk',
        label: 'Claims clerk',
        description: 'Handles claims',
        permissions: ['claim-management.claims.view', 'claims:update', 'ui.eis.view'],
      },
      token: admin.accessToken,
    });
    expect(created.status).toBe(201);
    expect(created.body.role.permissions.map((p: { code: string }) => p.code).sort()).toEqual([
      '*.claims.update',
      'claim-management.claims.view',
      'ui.eis.view',
    ]);
    const id = created.body.role.id;
    const read = await api(base, `${T}/roles/${id}`, { token: viewer.accessToken });
    expect(read.body.role).toMatchObject({ code: 'claims-clerk', label: 'Claims clerk' });
    const dup = await api(base, `${T}/roles`, {
      body: { code: 'claims-clerk', label: 'Again', permissions: [] },
      token: admin.accessToken,
    });
    expect(dup.status).toBe(409);
    const updated = await api(base, `${T}/roles/${id}`, {
      method: 'PUT',
      body: { label: 'Claims clerk II', permissions: ['claim-management.claims.*'] },
      token: admin.accessToken,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.role.permissions.map((p: { code: string }) => p.code)).toEqual([
      'claim-management.claims.*',
    ]);
    const recode = await api(base, `${T}/roles/${id}`, {
      method: 'PUT',
      body: { code: 'other', label: 'x', permissions: [] },
      token: admin.accessToken,
    });
    expect(recode.status).toBe(400);
    const foreign = await api(base, `${T}/roles/${id}`, { token: nord.accessToken });
    expect(foreign.status).toBe(404);
    const foreignPut = await api(base, `${T}/roles/${id}`, {
      method: 'PUT',
      body: { label: 'x', permissions: [] },
      token: nord.accessToken,
    });
    expect(foreignPut.status).toBe(404);
    const foreignDelete = await api(base, `${T}/roles/${id}`, {
      method: 'DELETE',
      token: nord.accessToken,
    });
    expect(foreignDelete.status).toBe(404);
    const del = await api(base, `${T}/roles/${id}`, { method: 'DELETE', token: admin.accessToken });
    expect(del.status).toBe(204);
    expect((await api(base, `${T}/roles/${id}`, { token: admin.accessToken })).status).toBe(404);
  });

  it('rejects bad role bodies with 400 and refuses to delete a role in use', async () => {
    for (const body of [
      {},
      { code: 'Bad Code', label: 'x', permissions: [] },
      { code: 'ok', label: '', permissions: [] },
      { code: 'ok', label: 'x', permissions: ['not a permission'] },
      { code: 'ok', label: 'x', permissions: 'a.b.c' },
    ]) {
      const res = await api(base, `${T}/roles`, { body, token: admin.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const careRole = await roleByCode('customer-care');
    const inUse = await api(base, `${T}/roles/${careRole.id}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe('role_in_use');
  });
});

// A role's description per language (issue 16): stored trimmed, limited like the description,
// kept when an update leaves it out, of the own workspace only, edited with the role permission.
describe('role descriptions per language', () => {
  it('stores, limits and keeps the translations, per workspace and permission', async () => {
    const created = await api(base, `${T}/roles`, {
      body: {
        code: 'translated-clerk',
        label: 'Translated clerk',
        description: 'Handles claims',
        descriptionLabels: { de: ' Bearbeitet Schäden ', pl: 'Obsługuje szkody', en: '' },
        permissions: ['claim-management.claims.view'],
      },
      token: admin.accessToken,
    });
    expect(created.status).toBe(201);
    const id = created.body.role.id;
    expect(created.body.role.descriptionLabels).toEqual({
      de: 'Bearbeitet Schäden',
      pl: 'Obsługuje szkody',
    });
    const update = (session: Session, body: object) =>
      api(base, `${T}/roles/${id}`, {
        method: 'PUT',
        token: session.accessToken,
        body: {
          label: 'Translated clerk',
          description: 'Handles claims',
          permissions: ['claim-management.claims.view'],
          ...body,
        },
      });
    // Left out, the translations stay.
    const kept = await update(admin, {});
    expect(kept.body.role.descriptionLabels).toEqual({
      de: 'Bearbeitet Schäden',
      pl: 'Obsługuje szkody',
    });
    expect((await update(admin, { descriptionLabels: { en: 'x'.repeat(501) } })).status).toBe(400);
    expect((await update(admin, { descriptionLabels: { fr: 'Gère' } })).status).toBe(400);
    expect((await update(viewer, { descriptionLabels: { en: 'Handles' } })).status).toBe(403);
    expect((await update(nord, { descriptionLabels: { en: 'Handles' } })).status).toBe(404);
    const changed = await update(admin, { descriptionLabels: { en: 'x'.repeat(500) } });
    expect(changed.body.role.descriptionLabels).toEqual({ en: 'x'.repeat(500) });
    // The list and the users' roles carry them too.
    const listed = await api(base, `${T}/roles?filter=code=translated-clerk`, {
      token: viewer.accessToken,
    });
    expect(listed.body.items[0].descriptionLabels).toEqual({ en: 'x'.repeat(500) });
    expect(
      (await api(base, `${T}/roles/${id}`, { method: 'DELETE', token: admin.accessToken })).status,
    ).toBe(204);
  });

  it('stores the name per language, limited like the name, kept when left out', async () => {
    const created = await api(base, `${T}/roles`, {
      body: {
        code: 'named-clerk',
        label: 'Claims clerk',
        labels: { de: ' Schadensachbearbeiter ', pl: 'Likwidator szkód', en: '' },
        permissions: ['claim-management.claims.view'],
      },
      token: admin.accessToken,
    });
    expect(created.status).toBe(201);
    const id = created.body.role.id;
    expect(created.body.role.labels).toEqual({
      de: 'Schadensachbearbeiter',
      pl: 'Likwidator szkód',
    });
    const update = (body: object) =>
      api(base, `${T}/roles/${id}`, {
        method: 'PUT',
        token: admin.accessToken,
        body: { label: 'Claims clerk', permissions: ['claim-management.claims.view'], ...body },
      });
    expect((await update({})).body.role.labels).toEqual({
      de: 'Schadensachbearbeiter',
      pl: 'Likwidator szkód',
    });
    const tooLong = await update({ labels: { de: 'x'.repeat(101) } });
    expect(tooLong.status).toBe(400);
    expect((await update({ labels: { de: '' } })).body.role.labels).toEqual({});
    // The seeded roles come with their names in the three languages.
    const seeded = await api(base, `${T}/roles?filter=code=customer-care`, {
      token: viewer.accessToken,
    });
    expect(seeded.body.items[0].labels).toEqual({
      de: 'Kundenbetreuung',
      en: 'Customer care',
      pl: 'Obsługa klienta',
    });
    expect(
      (await api(base, `${T}/roles/${id}`, { method: 'DELETE', token: admin.accessToken })).status,
    ).toBe(204);
  });
});

describe('effective permissions', () => {
  it('says which role grants each permission', async () => {
    const { id } = await userByEmail('care@demo.test');
    const showOnly = await roleByCode('show-only');
    const careRole = await roleByCode('customer-care');
    await api(base, `${T}/users/${id}/assign-roles`, {
      body: { roleIds: [careRole.id, showOnly.id] },
      token: admin.accessToken,
    });
    const res = await api(base, `${T}/users/${id}/effective-permissions`, {
      token: viewer.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toContainEqual({
      permission: 'claim-management.claims.*',
      roles: ['customer-care'],
    });
    expect(res.body.items).toContainEqual({
      permission: 'ui.eis.view',
      roles: ['customer-care', 'show-only'],
    });
    expect(res.body.items).toContainEqual({
      permission: 'identity-management.roles.view',
      roles: ['show-only'],
    });
    const foreign = await api(base, `${T}/users/${id}/effective-permissions`, {
      token: nord.accessToken,
    });
    expect(foreign.status).toBe(404);
  });
});

describe('invites', () => {
  it('lists the pending invites with roles and organisation', async () => {
    const res = await api(base, `${T}/users/invites?expand=roles,organization`, {
      token: viewer.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(8);
    const first = res.body.items[0];
    expect(first).toMatchObject({
      email: expect.stringMatching(/@/),
      expiresOn: expect.any(String),
      organization: { id: expect.any(Number), name: expect.any(String) },
      roles: [expect.objectContaining({ code: expect.any(String) })],
    });
    expect(JSON.stringify(res.body.items)).not.toMatch(/token/i);
    const foreign = await api(base, `${T}/users/invites`, { token: nord.accessToken });
    expect(foreign.body.items).toEqual([]);
    const bad = await api(base, `${T}/users/invites?expand=secrets`, { token: viewer.accessToken });
    expect(bad.status).toBe(400);
  });

  it('invites in a batch with per-email results and mails a single-use registration link', async () => {
    const orgs = await api(base, `${T}/organizations`, { token: admin.accessToken });
    const org = orgs.body.items[2];
    const res = await api(base, `${T}/users/invites/batch`, {
      body: {
        emails: [
          'new.one@example.test',
          'New.One@example.test',
          'viewer@demo.test',
          'two@example.test',
        ],
        organizationId: org.id,
        roleCodes: ['show-only'],
      },
      token: admin.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean; error?: string }) => r.error ?? 'ok')).toEqual([
      'ok',
      'duplicate',
      'already_member',
      'ok',
    ]);
    expect(res.body.results[0].invite).toMatchObject({
      email: 'new.one@example.test',
      organization: { id: org.id },
      roles: [expect.objectContaining({ code: 'show-only' })],
    });
    const mail = await latestMail(base, 'new.one@example.test');
    expect(mail?.link).toMatch(/^http:\/\/localhost:3000\/registration\?token=[A-Za-z0-9_-]{43}$/);
    // The demo tenant speaks German.
    expect(mail?.subject).toBe('Sie wurden eingeladen');
    const token = linkParam(mail?.link, 'token');
    const stored = await kit
      .db()
      .query<{ token_hash: string }>('SELECT token_hash FROM invites WHERE lower(email) = $1', [
        'new.one@example.test',
      ]);
    expect(stored).toEqual([{ token_hash: sha256(token) }]);
    const again = await api(base, `${T}/users/invites/batch`, {
      body: { emails: ['two@example.test'], roleCodes: ['show-only'] },
      token: admin.accessToken,
    });
    expect(again.body.results).toEqual([
      { email: 'two@example.test', ok: false, error: 'already_invited' },
    ]);
  });

  it('rejects bad invite bodies with 400', async () => {
    for (const body of [
      {},
      { emails: [] },
      { emails: ['not-an-email'] },
      // The browser's forms refuse these with the same rule (common/email-address.ts).
      { emails: ['jürgen.müller@example.com'] },
      { emails: ['<script>x</script>@x.de'] },
      { emails: [`${'a'.repeat(300)}@example.com`] },
      { emails: ['a@example.test'], roleCodes: ['nope'] },
      { emails: ['a@example.test'], organizationId: 999999 },
    ]) {
      const res = await api(base, `${T}/users/invites/batch`, { body, token: admin.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('deletes invites one by one and in a batch; the link dies with the invite', async () => {
    await api(base, `${T}/users/invites/batch`, {
      body: { emails: ['gone1@example.test', 'gone2@example.test'], roleCodes: ['show-only'] },
      token: admin.accessToken,
    });
    const list = await api(base, `${T}/users/invites?search=gone`, { token: admin.accessToken });
    const [one, two] = list.body.items as { id: number; email: string }[];
    if (!one || !two) throw new Error('invites missing');
    const token = linkParam((await latestMail(base, one.email))?.link, 'token');
    const foreign = await api(base, `${T}/users/invites/${one.id}`, {
      method: 'DELETE',
      token: nord.accessToken,
    });
    expect(foreign.status).toBe(404);
    const del = await api(base, `${T}/users/invites/${one.id}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(del.status).toBe(204);
    expect((await api(base, `${A}/verify-invite?token=${token}`)).status).toBe(403);
    const batch = await api(base, `${T}/users/invites/delete-batch`, {
      body: { ids: [two.id, one.id] },
      token: admin.accessToken,
    });
    expect(batch.body.results).toEqual([
      { id: two.id, ok: true },
      { id: one.id, ok: false, error: 'not_found' },
    ]);
    const bad = await api(base, `${T}/users/invites/delete-batch`, {
      body: { ids: 'all' },
      token: admin.accessToken,
    });
    expect(bad.status).toBe(400);
  });
});
