import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * The container runs with NODE_ENV=production and the embedded sandbox. Its tester tools let
 * anyone in without a password (/sandbox-idp) and hand out reset links (/sandbox/outbox,
 * /sandbox/mail), so production has them only when SANDBOX_TOOLS=on asks for them, and the start
 * log says which it is. Checked through the BFF and on the sandbox's own address, which a
 * standalone sandbox exposes.
 */

const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'p'.repeat(40) };
const TOOLS = ['/sandbox-idp/login?tenantSlug=demo', '/sandbox/outbox', '/sandbox/mail'];

interface LogLine {
  level: number;
  msg: string;
  sandboxTools?: string;
}

async function startLogged(env: Record<string, string>, dataDir?: string) {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      cb();
    },
  });
  const stack = await startStack(env, {
    log: pino({ level: 'info' }, sink),
    ...(dataDir ? { dataDir } : {}),
  });
  return { stack, lines };
}

const toolLines = (lines: LogLine[]) => lines.filter((l) => l.sandboxTools !== undefined);

/** The one-time code the identity provider's form hands out for a user of the page. */
async function idpSignIn(base: string): Promise<Response> {
  const page = await (await fetch(`${base}/sandbox-idp/login?tenantSlug=demo`)).text();
  const user = /<option value="(usr_[0-9a-f]+)">/.exec(page)?.[1];
  expect(user).toBeDefined();
  return fetch(`${base}/sandbox-idp/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ tenantSlug: 'demo', user: user! }).toString(),
    redirect: 'manual',
  });
}

// The second start reuses the first one's seeded data directory: seeding is the slow part.
let dataDir: string | undefined;

describe('production without SANDBOX_TOOLS', () => {
  let stack: Stack;
  let lines: LogLine[];
  beforeAll(async () => {
    ({ stack, lines } = await startLogged(PRODUCTION));
  });
  afterAll(async () => {
    await stack?.stop(false);
    dataDir = stack?.dataDir;
  });

  it.each(TOOLS)('answers %s with a JSON 404, through the BFF and on the sandbox', async (path) => {
    const viaBff = await new Agent(stack.url).json(path);
    expect(viaBff.status).toBe(404);
    expect(viaBff.body.error).toBe('not_found');
    const direct = await fetch(`${stack.upstreamUrl}${path}`);
    expect(direct.status).toBe(404);
    expect(await direct.json()).toMatchObject({ error: 'not_found' });
  });

  it('signs nobody in without a password and offers no single sign-on link', async () => {
    for (const base of [stack.url, stack.upstreamUrl]) {
      const res = await fetch(`${base}/sandbox-idp/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'tenantSlug=demo&user=usr_0',
        redirect: 'manual',
      });
      expect(res.status).toBe(404);
    }
    const link = await new Agent(stack.url).json(
      '/api/guest/authservice/v1/saml-login-link?tenantSlug=demo',
    );
    expect(link.status).toBe(404);
    // Password sign-in is untouched.
    expect((await new Agent(stack.url).login('admin@demo.test')).status).toBe(200);
  });

  it('says at start that the tools are off', () => {
    expect(toolLines(lines)).toEqual([
      expect.objectContaining({
        level: 30,
        sandboxTools: 'off',
        msg: expect.stringMatching(/off/),
      }),
    ]);
  });
});

describe('production with SANDBOX_TOOLS=on (a demo)', () => {
  let stack: Stack;
  let lines: LogLine[];
  beforeAll(async () => {
    ({ stack, lines } = await startLogged({ ...PRODUCTION, SANDBOX_TOOLS: 'on' }, dataDir));
  });
  afterAll(() => stack?.stop());

  it('serves the outbox and the mail page, through the BFF and on the sandbox', async () => {
    for (const base of [stack.url, stack.upstreamUrl]) {
      const outbox = await fetch(`${base}/sandbox/outbox?to=invitee1@example.test`);
      expect(outbox.status).toBe(200);
      expect((await outbox.json()).items[0].link).toMatch(
        /^https?:\/\/[^/]+\/registration\?token=/,
      );
      expect((await fetch(`${base}/sandbox/mail`)).status).toBe(200);
    }
  });

  it('signs in through the identity provider, end to end through the BFF', async () => {
    const redirect = await idpSignIn(stack.url);
    expect(redirect.status).toBe(303);
    const code = new URL(redirect.headers.get('location')!, stack.url).searchParams.get('code');
    const agent = new Agent(stack.url);
    const res = await agent.json('/bff/login/saml', { json: { tenantSlug: 'demo', code } });
    expect(res.status).toBe(200);
    expect(res.body.account.tenantSlug).toBe('demo');
    expect(
      (await agent.json('/api/guest/authservice/v1/saml-login-link?tenantSlug=demo')).status,
    ).toBe(200);
  });

  it('warns at start, loudly, that they are on in production', () => {
    expect(toolLines(lines)).toEqual([
      expect.objectContaining({
        level: 40,
        sandboxTools: 'on',
        msg: expect.stringMatching(/ON IN PRODUCTION.*without a password/),
      }),
    ]);
  });
});
