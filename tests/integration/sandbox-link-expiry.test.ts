import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { INVITE_TTL_SECONDS, RESET_TTL_SECONDS } from '#server/sandbox/platform/admin-shared.ts';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  CHALLENGE_TTL_SECONDS,
  SAML_CODE_TTL_SECONDS,
} from '#server/sandbox/services/auth/index.ts';
import {
  PASSWORD,
  api,
  idpCode,
  latestMail,
  linkParam,
  login,
  makeTempDir,
  startTestSandbox,
} from '#server/sandbox/testing.ts';

/** Reset links, one-time codes and invitation links expire by the sandbox's clock: the tests move
 * it to just before a link's end (still good) and to its end (refused), instead of waiting hours
 * or ageing rows by hand. */

const A = '/authservice/v1';
const T = '/tenantservice/v1';
// The clock keeps flowing after a move: "just before the end" leaves this much for the request.
const MARGIN_MS = 10_000;

const clock = new MovableClock();
let sandbox: RunningSandbox;
let removeDir: () => Promise<void>;
let base: string;

beforeAll(async () => {
  const tmp = await makeTempDir();
  removeDir = tmp.remove;
  sandbox = await startTestSandbox(tmp.dir, { clock });
  base = sandbox.url;
});
afterAll(async () => {
  await sandbox?.close();
  await removeDir?.();
});

/**
 * Runs `issue`, which creates something that lives `ttlSeconds`, and answers the two times to
 * move the clock to: a little before its end, and its end (whenever in the call it was created).
 */
async function lifetimeOf<T>(ttlSeconds: number, issue: () => Promise<T>) {
  const before = clock.now();
  const issued = await issue();
  const after = clock.now();
  return {
    issued,
    stillAlive: before + ttlSeconds * 1000 - MARGIN_MS,
    expired: after + ttlSeconds * 1000,
  };
}

describe('a password reset link', () => {
  const EMAIL = 'care@demo.test';
  const resetLink = async () => {
    await api(base, `${A}/forgot-password`, { body: { email: EMAIL } });
    return linkParam((await latestMail(base, EMAIL))?.link, 'resetToken');
  };

  it('works until the clock reaches its end, then is refused', async () => {
    const link = await lifetimeOf(RESET_TTL_SECONDS, resetLink);
    clock.advanceTo(link.stillAlive);
    expect((await api(base, `${A}/verify-reset-password?resetToken=${link.issued}`)).status).toBe(
      200,
    );
    clock.advanceTo(link.expired);
    expect((await api(base, `${A}/verify-reset-password?resetToken=${link.issued}`)).status).toBe(
      403,
    );
    const reset = await api(base, `${A}/reset-password`, {
      body: { resetToken: link.issued, newPassword: 'Fresh1234' },
    });
    expect(reset.status).toBe(403);
    expect(reset.body.error).toBe('invalid_token');
    // The refused link changed nothing: the old password still signs in.
    await login(base, EMAIL);
  });

  it('ends the sessions that were signed in before it was used, at the sandbox clock’s time', async () => {
    // Tokens carry the moved clock's issue time; a reset stamped in another time would let them
    // live on.
    const session = await login(base, EMAIL);
    const token = await resetLink();
    const reset = await api(base, `${A}/reset-password`, {
      body: { resetToken: token, newPassword: 'Fresh1234' },
    });
    expect(reset.status).toBe(204);
    expect((await api(base, `${T}/general`, { token: session.accessToken })).status).toBe(401);
    const after = await login(base, EMAIL, 'Fresh1234');
    expect((await api(base, `${T}/general`, { token: after.accessToken })).status).toBe(200);
  });
});

describe('a single sign-on code', () => {
  const exchange = (code: string) =>
    api(base, `${A}/login/saml`, { body: { tenantSlug: 'demo', code } });

  it('is taken until the clock reaches its end', async () => {
    const code = await lifetimeOf(SAML_CODE_TTL_SECONDS, () =>
      idpCode(base, 'demo', 'viewer@demo.test'),
    );
    clock.advanceTo(code.stillAlive);
    expect((await exchange(code.issued)).status).toBe(200);
  });

  it('is refused from its end on', async () => {
    const code = await lifetimeOf(SAML_CODE_TTL_SECONDS, () =>
      idpCode(base, 'demo', 'viewer@demo.test'),
    );
    clock.advanceTo(code.expired);
    const res = await exchange(code.issued);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('UNAUTHORIZED');
  });
});

describe('the challenge of a forced password change', () => {
  const USER = 'newpass@demo.test';
  const challenge = async () => {
    const res = await api(base, `${A}/login`, { body: { username: USER, password: PASSWORD } });
    expect(res.body.newPasswordRequired).toBe(true);
    return res.body.challenge as string;
  };
  const change = (code: string) =>
    api(base, `${A}/change-password`, {
      body: { username: USER, challenge: code, newPassword: 'Changed1234' },
    });

  it('is refused from its end on, and a fresh one before its end is taken', async () => {
    const late = await lifetimeOf(CHALLENGE_TTL_SECONDS, challenge);
    clock.advanceTo(late.expired);
    const refused = await change(late.issued);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_challenge');

    const fresh = await lifetimeOf(CHALLENGE_TTL_SECONDS, challenge);
    clock.advanceTo(fresh.stillAlive);
    expect((await change(fresh.issued)).status).toBe(200);
  });
});

// Last: a week goes by here, which outlives every session of this file.
describe('invitation links', () => {
  it('a user’s and an organisation’s invitation are refused once the clock passes a week', async () => {
    const admin = await login(base, 'admin@demo.test');
    const invitations = await lifetimeOf(INVITE_TTL_SECONDS, async () => {
      await api(base, `${T}/users/invites/batch`, {
        body: { emails: ['late-user@example.test'], roleCodes: ['show-only'] },
        token: admin.accessToken,
      });
      const created = await api(base, `${T}/invitations/organizations`, {
        body: {
          name: 'Late Ltd',
          slug: 'late-ltd',
          email: 'late-org@example.test',
          street: 'Ringstraße',
          houseNumber: '7',
          zipCode: '04109',
          city: 'Leipzig',
          country: 'Deutschland',
          roleCodes: ['customer-care'],
          customFields: { registrationNumber: 'HRB 9' },
        },
        token: admin.accessToken,
      });
      expect(created.status).toBe(201);
      return {
        user: linkParam((await latestMail(base, 'late-user@example.test'))?.link, 'token'),
        org: linkParam((await latestMail(base, 'late-org@example.test'))?.link, 'token'),
      };
    });
    const verifyUser = () => api(base, `${A}/verify-invite?token=${invitations.issued.user}`);
    const verifyOrg = () =>
      api(base, `${A}/verify-org-invitation?invitationToken=${invitations.issued.org}`);

    // Good when sent (their end is the tenant service's to set, a week from when they were sent).
    expect((await verifyUser()).status).toBe(200);
    expect((await verifyOrg()).status).toBe(200);
    clock.advanceTo(invitations.expired);
    expect((await verifyUser()).status).toBe(403);
    expect((await verifyOrg()).status).toBe(403);
  });
});
