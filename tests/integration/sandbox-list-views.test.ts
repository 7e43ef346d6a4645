import { beforeEach, describe, expect, it } from 'vitest';
import { api, type Session } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

const PATH = '/tenantservice/v1/list-views';
const sandbox = withSandbox('care@demo.test', 'viewer@demo.test', 'admin@nordlicht.test');
let base: string;
let care: Session;
let viewer: Session;
let nord: Session;
beforeEach(() => {
  base = sandbox.base;
  care = sandbox.sessions['care@demo.test'];
  viewer = sandbox.sessions['viewer@demo.test'];
  nord = sandbox.sessions['admin@nordlicht.test'];
});

// The tests read bodies loosely; each assertion states the shape it expects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const listOf = async (who: Session, list: string) =>
  (await api(base, `${PATH}?filter=list%3D${list}`, { token: who.accessToken })).body as Any;

describe('saved list views', () => {
  it('keeps a private view for its owner and shares a shared one within the workspace', async () => {
    const mine = await api(base, PATH, {
      token: care.accessToken,
      body: { list: 'customers', name: 'Cologne people', query: 'type=person&city=K%C3%B6ln' },
    });
    expect(mine.status).toBe(201);
    expect((mine.body as Any).listView).toMatchObject({
      code: expect.stringMatching(/^lvw_/),
      shared: false,
      isOwn: true,
      version: 1,
      query: 'type=person&city=K%C3%B6ln',
    });
    const shared = await api(base, PATH, {
      token: care.accessToken,
      body: { list: 'customers', name: 'Companies', query: 'type=org', shared: true },
    });
    expect(shared.status).toBe(201);

    const own = await listOf(care, 'customers');
    expect(own.items.map((i: Any) => i.name)).toEqual(['Cologne people', 'Companies']);
    const seen = await listOf(viewer, 'customers');
    expect(seen.items).toEqual([
      expect.objectContaining({
        name: 'Companies',
        isOwn: false,
        owner: { name: expect.any(String) },
      }),
    ]);
    // Another list and another workspace see nothing of it.
    expect((await listOf(care, 'policies')).items).toEqual([]);
    expect((await listOf(nord, 'customers')).items).toEqual([]);
    const code = (shared.body as Any).listView.code;
    expect((await api(base, `${PATH}/${code}`, { token: nord.accessToken })).status).toBe(404);
  });

  it('lets only the owner change or delete, and refuses a stale version with the current view', async () => {
    const created = await api(base, PATH, {
      token: care.accessToken,
      body: { list: 'partners', name: 'Brokers', query: 'tags=broker', shared: true },
    });
    const view = (created.body as Any).listView;
    const put = (who: Session, body: object) =>
      api(base, `${PATH}/${view.code}`, { method: 'PUT', token: who.accessToken, body });

    const byOther = await put(viewer, { name: 'Mine now', query: '', shared: true, version: 1 });
    expect(byOther.status).toBe(403);
    expect(
      (await api(base, `${PATH}/${view.code}`, { method: 'DELETE', token: viewer.accessToken }))
        .status,
    ).toBe(403);

    const renamed = await put(care, {
      name: 'Brokers A-Z',
      query: 'tags=broker&sort=name',
      shared: true,
      version: 1,
    });
    expect(renamed.status).toBe(200);
    expect((renamed.body as Any).listView).toMatchObject({ name: 'Brokers A-Z', version: 2 });
    const stale = await put(care, {
      name: 'Old tab',
      query: 'tags=broker',
      shared: false,
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      listView: { name: 'Brokers A-Z', version: 2 },
    });

    const gone = await api(base, `${PATH}/${view.code}`, {
      method: 'DELETE',
      token: care.accessToken,
    });
    expect(gone.status).toBe(204);
    expect((await api(base, `${PATH}/${view.code}`, { token: care.accessToken })).status).toBe(404);
  });

  it('refuses bad input with a clear message and duplicate names with 409', async () => {
    const bad = async (body: object) => {
      const res = await api(base, PATH, { token: care.accessToken, body });
      return { status: res.status, message: (res.body as Any).message as string };
    };
    expect(await bad({ list: 'customers', name: ' ', query: '' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('name: required'),
    });
    expect(await bad({ list: 'Customers!', name: 'x', query: '' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('list: invalid'),
    });
    expect(await bad({ list: 'customers', name: 'x', query: 'q=1&pageToken=7' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('query: invalid'),
    });
    expect(await bad({ list: 'customers', name: 'x'.repeat(81), query: '' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('name: too_long'),
    });
    const first = await bad({ list: 'leads', name: 'Open leads', query: 'status=new' });
    expect(first.status).toBe(201);
    expect(await bad({ list: 'leads', name: 'OPEN LEADS', query: 'status=quoted' })).toMatchObject({
      status: 409,
      message: expect.stringContaining('name'),
    });
    // The list filter is required, and a token is.
    expect((await api(base, PATH, { token: care.accessToken })).status).toBe(400);
    expect((await api(base, `${PATH}?filter=list%3Dleads`)).status).toBe(401);
  });

  it('keeps views of the administration lists (issue 16) per user, like the insurance lists', async () => {
    const lists = ['users', 'roles', 'organizations', 'user-invites', 'organization-invitations'];
    for (const list of lists) {
      const made = await api(base, PATH, {
        token: viewer.accessToken,
        body: { list, name: 'Mine', query: 'search=demo&sort=email%3Aasc' },
      });
      expect(made.status, list).toBe(201);
      expect((await listOf(viewer, list)).items).toMatchObject([
        { list, name: 'Mine', query: 'search=demo&sort=email%3Aasc', isOwn: true },
      ]);
      // Not shared: a colleague sees none of it.
      expect((await listOf(care, list)).items).toEqual([]);
    }
  });
});
