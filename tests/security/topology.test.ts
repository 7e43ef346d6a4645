import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { makePdf } from '#server/sandbox/services/document/demo-files.ts';
import { openNotificationSocket } from '#tests/support/sockets.ts';
import { Agent } from '#tests/support/stack.ts';
import { renderNginxConf, startTopology, type Topology } from '#tests/support/topology.ts';

/** Two BFF processes behind nginx (deploy/nginx.conf.template), the standalone sandbox on
 * PostgreSQL, one Redis: one session works on every instance, the notification socket is
 * upgraded through nginx and reaches the user on every instance, documents go up and down
 * through the load balancer. */
let topo: Topology;
const sockets: WebSocket[] = [];
beforeAll(async () => {
  topo = await startTopology({ instances: 2 });
}, 240_000);
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await topo?.stop();
}, 60_000);

/** The access-log lines of requests for `path`, and which upstream answered each. */
async function upstreamsFor(path: string): Promise<string[]> {
  const log = await topo.accessLog();
  return log
    .split('\n')
    .filter((l) => l.includes(` ${path} `) || l.includes(` ${path}?`))
    .map((l) => /upstream=(\S+)/.exec(l)?.[1] ?? '');
}

describe('the nginx template', () => {
  it('names a placeholder it has no value for', () => {
    expect(() => renderNginxConf('listen ${LISTEN}; ${OTHER}', { LISTEN: '80' })).toThrow(
      /\$\{OTHER\}/,
    );
    expect(renderNginxConf('listen ${LISTEN}; $host', { LISTEN: '80' })).toBe('listen 80; $host');
  });
});

describe('several instances behind nginx', () => {
  it('serves one session from every instance, round-robin without stickiness', async () => {
    const agent = new Agent(topo.url);
    expect((await agent.login('care@demo.test')).status).toBe(200);
    for (let i = 0; i < 8; i++) {
      const s = await agent.json('/bff/session');
      expect(s.status).toBe(200);
      expect(s.body.accounts[0].userName).toBe('care@demo.test');
      const general = await agent.json('/api/0/tenantservice/v1/general');
      expect(general.status).toBe(200);
    }
    // Every instance answered some of this session's calls, signed in on one of them.
    const used = new Set([
      ...(await upstreamsFor('/bff/session')),
      ...(await upstreamsFor('/api/0/tenantservice/v1/general')),
    ]);
    expect([...used].sort()).toEqual(topo.bffs.map((b) => `127.0.0.1:${b.port}`).sort());
  });

  it('relays a notification to the same user on every instance and through nginx', async () => {
    const admin = new Agent(topo.url);
    const user = new Agent(topo.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
    expect((await user.login('carla.otto2@demo.test')).status).toBe(200);

    // One session: a socket straight on each instance, and one through the load balancer.
    const targets = [...topo.bffs.map((b) => b.url), topo.url];
    const frames = await Promise.all(
      targets.map((base) => openNotificationSocket(base, user.cookie, sockets)),
    );

    const roles = await admin.json('/api/0/tenantservice/v1/roles?pageSize=50');
    expect(roles.status).toBe(200);
    const showOnly = (roles.body.items as { id: number; code: string }[]).find(
      (r) => r.code === 'show-only',
    )!;
    const found = await admin.json(
      `/api/0/tenantservice/v1/users?search=${encodeURIComponent('carla.otto2@demo.test')}`,
    );
    expect(found.status).toBe(200);
    const id = (found.body.items as { id: number; email: string }[]).find(
      (u) => u.email === 'carla.otto2@demo.test',
    )!.id;
    const assigned = await admin.json(`/api/0/tenantservice/v1/users/${id}/assign-roles`, {
      json: { roleIds: [showOnly.id] },
    });
    expect(assigned.status).toBe(200);

    for (const f of frames) {
      await expect
        .poll(() => f.filter((x) => x.type === 'notification' && x.kind === 'access.changed'), {
          timeout: 15_000,
        })
        .toHaveLength(1);
    }
    // nginx logs an upgraded connection when it ends: the one socket through it.
    sockets.at(-1)!.close();
    await expect.poll(() => upstreamsFor('/ws?account=0'), { timeout: 15_000 }).toHaveLength(1);
  });

  it('takes a document upload and gives the download through the load balancer', async () => {
    const agent = new Agent(topo.url);
    expect((await agent.login('care@demo.test')).status).toBe(200);
    const claims = await agent.json('/api/0/claimservice/v1/claims?pageSize=1&order=createdAt:ASC');
    expect(claims.status).toBe(200);
    const claim = claims.body.items[0];
    const signed = await agent.json('/api/0/documentservice/v1/documents/pre-signed-post', {
      json: {
        accountCode: claim.accountCode,
        policyCode: claim.policyCode,
        description: 'Through nginx',
        contentType: 'pdf',
        isoContentType: 'application/pdf',
        entityType: 'ClaimDocument',
        entityId: claim.id,
        requester: 'claimservice',
        templateSlug: 'ClaimDoc',
        filename: 'through-nginx.pdf',
      },
    });
    expect(signed.status).toBe(201);
    // The address is relative: the browser posts to the origin it is on, which is nginx.
    expect(signed.body.url).toMatch(/^\/storage\//);

    const bytes = makePdf('Through nginx', ['a line']);
    const form = new FormData();
    for (const [k, v] of Object.entries(signed.body.fields as Record<string, string>))
      form.append(k, v);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'x.pdf');
    const up = await fetch(new URL(signed.body.url, topo.url), { method: 'POST', body: form });
    expect(up.status).toBe(204);

    const address = await agent.json(
      `/api/0/documentservice/v1/documents/${signed.body.fields.code}/download-url`,
    );
    expect(address.status).toBe(200);
    const down = await fetch(new URL(address.body.url, topo.url));
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(down.headers.get('content-disposition')).toMatch(/^attachment;/);

    const sandboxPort = new URL(topo.sandboxUrl).port;
    // nginx writes a request's line once it has answered it: the download's may come a moment
    // after its answer reached us.
    const storage = await vi.waitFor(async () => {
      const lines = (await topo.accessLog()).split('\n').filter((l) => l.includes(' /storage/'));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      return lines;
    });
    for (const line of storage) expect(line).toContain(`upstream=127.0.0.1:${sandboxPort}`);
  });

  it('refuses an upload above the cap at nginx, before the sandbox', async () => {
    const res = await fetch(`${topo.url}/storage/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(12 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: 'payload_too_large',
      message: 'The request body is too large.',
    });
  });

  it('leaves every process running', () => {
    expect(topo.deaths()).toEqual([]);
  });
});
