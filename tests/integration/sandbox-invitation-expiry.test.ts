import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { api, login, makeTempDir, startTestSandbox } from '#server/sandbox/testing.ts';

/**
 * Invitations expire on the sandbox's clock, not the database's: the test moves the clock past a
 * week instead of waiting one, and the invitations answer as expired.
 */

const T = '/tenantservice/v1';
const WEEK_MS = 7 * 86_400_000;
const clock = new MovableClock();
let sandbox: RunningSandbox;
let removeDir: () => Promise<void>;

beforeAll(async () => {
  const tmp = await makeTempDir();
  removeDir = tmp.remove;
  sandbox = await startTestSandbox(tmp.dir, { clock });
}, 240_000);

afterAll(async () => {
  await sandbox?.close();
  await removeDir?.();
});

/** The admin signed in now: a moved clock outlives the tokens of an earlier sign-in. */
const admin = async () => (await login(sandbox.url, 'admin@demo.test')).accessToken;

describe('invitation expiry on the injected clock', () => {
  it('dates a user invite from the clock, and lets the address be invited again once it expired', async () => {
    // A year ahead first: an expiry taken from the database's now() would lie a year back.
    clock.advance(365 * 86_400_000);
    const invite = (token: string) =>
      api(sandbox.url, `${T}/users/invites/batch`, {
        body: { emails: ['late@example.test'] },
        token,
      });
    const first = await invite(await admin());
    expect(first.status).toBe(200);
    const made = first.body.results[0];
    expect(made.ok).toBe(true);
    expect(Date.parse(made.invite.expiresOn)).toBeGreaterThan(clock.now() + WEEK_MS - 60_000);
    expect(made.invite.isExpired).toBe(false);
    // While it is open, the address is invited already.
    expect((await invite(await admin())).body.results[0]).toMatchObject({
      ok: false,
      error: 'already_invited',
    });

    clock.advance(WEEK_MS + 1000);
    const token = await admin();
    const listed = await api(sandbox.url, `${T}/users/invites?search=late%40example`, { token });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: made.invite.id, isExpired: true }),
    ]);
    // The expired invite no longer holds the address.
    const again = await invite(token);
    expect(again.body.results[0]).toMatchObject({ ok: true });
  });

  it('dates an organisation invitation from the clock, and refuses an expiry the clock has passed', async () => {
    const token = await admin();
    const body = { name: 'Clockwork GmbH', slug: 'clockwork', email: 'clock@example.test' };
    const made = await api(sandbox.url, `${T}/invitations/organizations`, { body, token });
    expect(made.status).toBe(201);
    expect(Date.parse(made.body.invitation.expiresAt)).toBeGreaterThan(
      clock.now() + WEEK_MS - 60_000,
    );
    // A day after the wall clock's now is long past on the sandbox's clock.
    const refused = await api(sandbox.url, `${T}/invitations/organizations`, {
      body: {
        ...body,
        slug: 'clockwork-2',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('validation_error');

    clock.advance(WEEK_MS + 1000);
    const listed = await api(sandbox.url, `${T}/invitations/organizations?search=clockwork`, {
      token: await admin(),
    });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: made.body.invitation.id, isExpired: true }),
    ]);
  });
});
