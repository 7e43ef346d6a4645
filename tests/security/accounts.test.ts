import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * Account security through the real BFF and the embedded sandbox: no enumeration through the
 * forgot-password and invitation answers, reset and invitation links work once, and a password
 * reset or a deleted user ends that user's BFF sessions.
 */

let stack: Stack;
const GUEST = '/api/guest/authservice/v1';
const NEW_PASSWORD = 'Fresh1234x';

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function latestLink(to: string): Promise<string> {
  const res = await new Agent(stack.url).json(`/sandbox/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  const link = res.body.items[0]?.link as string | undefined;
  if (!link) throw new Error(`no e-mail to ${to}`);
  return link;
}

const param = (link: string, name: string) =>
  new URL(link, 'http://x').searchParams.get(name) ?? '';

async function userId(admin: Agent, email: string): Promise<number> {
  const res = await admin.json(
    `/api/0/tenantservice/v1/users?filter=${encodeURIComponent(`email=${email}`)}`,
  );
  expect(res.status).toBe(200);
  return res.body.items[0].id as number;
}

/** Answers through the BFF until the account is gone; the statuses seen on the way. */
async function callsUntilSessionExpired(
  agent: Agent,
): Promise<{ statuses: number[]; last: unknown }> {
  const statuses: number[] = [];
  let last: unknown;
  for (let i = 0; i < 3; i++) {
    const res = await agent.json('/api/0/tenantservice/v1/general');
    statuses.push(res.status);
    last = res.body;
    if ((res.body as { error?: string } | null)?.error === 'session_expired') break;
  }
  return { statuses, last };
}

/**
 * The upstream refuses the account's token at once (401, nothing done); the BFF refreshes before
 * answering, the refresh is refused too, and that very call answers session_expired, so the
 * user reaches sign-in at the first call.
 */
function expectEndedAtFirstCall(statuses: number[], last: unknown) {
  expect(statuses, String(statuses)).toEqual([401]);
  expect(last).toMatchObject({ error: 'session_expired', accountIndex: 0 });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('no account enumeration', () => {
  it('answers forgot-password alike for known, unknown and disabled addresses, in similar time', async () => {
    const guest = new Agent(stack.url);
    const addresses = {
      known: 'anna.albrecht0@demo.test',
      unknown: 'no-such-person@example.test',
      disabled: 'eva.fuchs4@demo.test',
    };
    const answers: Record<string, string> = {};
    const times: Record<string, number[]> = { known: [], unknown: [], disabled: [] };
    // Interleaved, so that a slow moment of the machine hits every kind alike.
    for (let round = 0; round < 7; round++) {
      for (const [kind, email] of Object.entries(addresses)) {
        const started = performance.now();
        const res = await guest.fetch(`${GUEST}/forgot-password`, { json: { email } });
        const text = await res.text();
        times[kind]!.push(performance.now() - started);
        answers[kind] = JSON.stringify({
          status: res.status,
          type: res.headers.get('content-type'),
          length: res.headers.get('content-length'),
          text,
        });
      }
    }
    expect(answers.known).toBe(answers.unknown);
    expect(answers.disabled).toBe(answers.unknown);
    expect(JSON.parse(answers.known!).status).toBe(204);
    // Only the known, active address got mail.
    // E-mail links are absolute, on the back office's public address: without PUBLIC_BASE_URL,
    // the port this instance is bound to (the stack listens on PORT=0, a free port).
    const link = await latestLink(addresses.known);
    const ownAddress = stack.url.replace('127.0.0.1', 'localhost');
    expect(link.startsWith(`${ownAddress}/account/resetpassword?resetToken=`), link).toBe(true);
    await expect(latestLink(addresses.unknown)).rejects.toThrow();
    await expect(latestLink(addresses.disabled)).rejects.toThrow();
    // Loose on purpose (a shared 2-core machine): a lookup that hashed a password or sent mail
    // synchronously would stand out by far more.
    const gap = Math.abs(median(times.known!) - median(times.unknown!));
    expect(gap, JSON.stringify(times)).toBeLessThan(150);
  });

  it('invites an address of another tenant like an unknown one, and answers every bad invitation link alike', async () => {
    const admin = new Agent(stack.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
    const res = await admin.json('/api/0/tenantservice/v1/users/invites/batch', {
      json: {
        emails: ['admin@nordlicht.test', 'never-seen@example.test'],
        roleCodes: ['show-only'],
      },
    });
    expect(res.status).toBe(200);
    const [foreign, unknown] = res.body.results;
    expect(foreign).toMatchObject({ ok: true });
    expect(unknown).toMatchObject({ ok: true });
    expect(Object.keys(foreign.invite).sort()).toEqual(Object.keys(unknown.invite).sort());

    const used = param(await latestLink('never-seen@example.test'), 'token');
    const register = (invitationToken: string) =>
      new Agent(stack.url).json(`${GUEST}/create-user`, {
        json: {
          firstName: 'Nina',
          lastName: 'Neu',
          password: NEW_PASSWORD,
          street: 'Weg',
          houseNumber: '1',
          zipCode: '10115',
          city: 'Berlin',
          country: 'Deutschland',
          isEulaAccepted: true,
          customFields: { registrationNumber: 'HRB 1' },
          invitationToken,
        },
      });
    expect((await register(used)).status).toBe(201);
    const bad = [];
    for (const token of [
      used,
      'made-up-token',
      param(await latestLink('admin@nordlicht.test'), 'token') + 'x',
    ]) {
      const verify = await new Agent(stack.url).json(`${GUEST}/verify-invite?token=${token}`);
      bad.push(JSON.stringify({ status: verify.status, body: verify.body }));
    }
    expect(new Set(bad).size).toBe(1);
    expect(JSON.parse(bad[0]!)).toMatchObject({ status: 403, body: { error: 'invalid_token' } });
  });
});

describe('links work once', () => {
  it('takes a reset link once; the second use and a verification after it are 403 invalid_token', async () => {
    const email = 'ben.horn1@demo.test';
    const guest = new Agent(stack.url);
    await guest.fetch(`${GUEST}/forgot-password`, { json: { email } });
    const resetToken = param(await latestLink(email), 'resetToken');
    expect(
      (await guest.json(`${GUEST}/verify-reset-password?resetToken=${resetToken}`)).body,
    ).toEqual({ email });
    const first = await guest.fetch(`${GUEST}/reset-password`, {
      json: { resetToken, newPassword: NEW_PASSWORD },
    });
    expect(first.status).toBe(204);
    const again = await guest.json(`${GUEST}/reset-password`, {
      json: { resetToken, newPassword: 'Other1234x' },
    });
    expect(again).toMatchObject({ status: 403, body: { error: 'invalid_token' } });
    const verify = await guest.json(`${GUEST}/verify-reset-password?resetToken=${resetToken}`);
    expect(verify).toMatchObject({ status: 403, body: { error: 'invalid_token' } });
    // The password of the first use holds.
    expect((await new Agent(stack.url).login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('takes an invitation link once; the second registration is 403 invalid_token', async () => {
    const admin = new Agent(stack.url);
    await admin.login('admin@demo.test');
    const email = 'twice@example.test';
    await admin.json('/api/0/tenantservice/v1/users/invites/batch', {
      json: { emails: [email], roleCodes: ['show-only'] },
    });
    const token = param(await latestLink(email), 'token');
    const body = (lastName: string) => ({
      firstName: 'Tom',
      lastName,
      password: NEW_PASSWORD,
      street: 'Weg',
      houseNumber: '2',
      zipCode: '10115',
      city: 'Berlin',
      country: 'Deutschland',
      isEulaAccepted: true,
      customFields: { registrationNumber: 'HRB 2' },
      invitationToken: token,
    });
    const guest = new Agent(stack.url);
    expect((await guest.json(`${GUEST}/create-user`, { json: body('Once') })).status).toBe(201);
    const replay = await guest.json(`${GUEST}/create-user`, { json: body('Twice') });
    expect(replay).toMatchObject({ status: 403, body: { error: 'invalid_token' } });
  });
});

describe('sessions end with the account', () => {
  it('a password reset ends every BFF session of the user', async () => {
    const email = 'carla.otto2@demo.test';
    const first = new Agent(stack.url);
    const second = new Agent(stack.url);
    for (const a of [first, second]) {
      expect((await a.login(email)).status).toBe(200);
      expect((await a.fetch('/api/0/tenantservice/v1/general')).status).toBe(200);
    }
    const guest = new Agent(stack.url);
    await guest.fetch(`${GUEST}/forgot-password`, { json: { email } });
    const resetToken = param(await latestLink(email), 'resetToken');
    expect(
      (
        await guest.fetch(`${GUEST}/reset-password`, {
          json: { resetToken, newPassword: NEW_PASSWORD },
        })
      ).status,
    ).toBe(204);

    for (const a of [first, second]) {
      const { statuses, last } = await callsUntilSessionExpired(a);
      expectEndedAtFirstCall(statuses, last);
      expect((await a.json('/bff/session')).body.accounts).toEqual([]);
    }
  });

  it('a deleted user loses every BFF session', async () => {
    const admin = new Agent(stack.url);
    await admin.login('admin@demo.test');
    const email = 'david.vogel3@demo.test';
    const victim = new Agent(stack.url);
    expect((await victim.login(email)).status).toBe(200);
    expect((await victim.fetch('/api/0/tenantservice/v1/general')).status).toBe(200);
    const id = await userId(admin, email);
    expect(
      (await admin.fetch(`/api/0/tenantservice/v1/users/${id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    const { statuses, last } = await callsUntilSessionExpired(victim);
    expectEndedAtFirstCall(statuses, last);
    expect((await victim.json('/bff/session')).body.accounts).toEqual([]);
    expect((await victim.login(email)).status).toBe(400);
  });

  it('a user disabled in a batch loses every BFF session', async () => {
    const admin = new Agent(stack.url);
    await admin.login('admin@demo.test');
    const email = 'finn.meyer5@demo.test';
    const victim = new Agent(stack.url);
    expect((await victim.login(email)).status).toBe(200);
    const id = await userId(admin, email);
    const res = await admin.json('/api/0/tenantservice/v1/users/disable-batch', {
      json: { ids: [id] },
    });
    expect(res.body.results).toEqual([{ id, ok: true }]);
    const { statuses, last } = await callsUntilSessionExpired(victim);
    expectEndedAtFirstCall(statuses, last);
    expect((await victim.json('/bff/session')).body.accounts).toEqual([]);
  });
});

describe('in production the outbox the tests above read is not there', () => {
  it('hands a reset link to nobody, though the e-mail with it was written', async () => {
    const prod = await startStack({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) });
    const email = 'anna.albrecht0@demo.test';
    const query = `?to=${encodeURIComponent(email)}`;
    try {
      const guest = new Agent(prod.url);
      expect((await guest.fetch(`${GUEST}/forgot-password`, { json: { email } })).status).toBe(204);
      for (const base of [prod.url, prod.upstreamUrl]) {
        expect((await fetch(`${base}/sandbox/outbox${query}`)).status).toBe(404);
        expect((await fetch(`${base}/sandbox/mail${query}`)).status).toBe(404);
      }
    } finally {
      await prod.stop(false);
    }
    // The same data outside production: the link was there to be had.
    const dev = await startStack({}, { dataDir: prod.dataDir });
    try {
      const res = await new Agent(dev.url).json(`/sandbox/outbox${query}`);
      expect(res.body.items[0].link).toMatch(
        /^https?:\/\/[^/]+\/account\/resetpassword\?resetToken=/,
      );
    } finally {
      await dev.stop();
    }
    // Two stacks start in its body (each seeds a sandbox): more than 30 s on a busy box.
  }, 120_000);
});
