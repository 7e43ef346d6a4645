import { describe, expect, it } from 'vitest';
import {
  addressBucket,
  GuestLimiter,
  LoginLimiter,
  MemoryCounterStore,
} from '#server/rate-limit.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

// The stores' own contract (windows, slow-down, parallel takes, giving back) is tested against
// both stores at once in tests/integration/counter-stores.test.ts.

describe('LoginLimiter', () => {
  const limits = {
    windowMs: 15 * 60_000,
    perPair: 3,
    pairSlowMs: 60_000,
    perAddress: 6,
    perAccount: 4,
    slowMs: 2_000,
  };
  const setup = () => {
    const c = clock();
    return { c, limiter: new LoginLimiter(new MemoryCounterStore(c.now), limits) };
  };
  const failures = async (limiter: LoginLimiter, n: number, user: string, addr: string) => {
    for (let i = 0; i < n; i++) expect((await limiter.reserve(user, addr)).ok).toBe(true);
  };

  it('slows one address guessing one account to one attempt per pairSlowMs', async () => {
    const { c, limiter } = setup();
    await failures(limiter, 3, 'a@x.test', '10.0.0.1');
    expect(await limiter.reserve('a@x.test', '10.0.0.1')).toEqual({ ok: false, retryAfter: 60 });
    // The name in other capitals is the same account.
    expect((await limiter.reserve('A@X.TEST', '10.0.0.1')).ok).toBe(false);
    c.advance(60_000);
    expect((await limiter.reserve('a@x.test', '10.0.0.1')).ok).toBe(true);
    expect((await limiter.reserve('a@x.test', '10.0.0.1')).ok).toBe(false);
  });

  it('slows an address spraying many accounts, but only for seconds', async () => {
    const { c, limiter } = setup();
    for (let i = 0; i < 6; i++) await failures(limiter, 1, `u${i}@x.test`, '10.0.0.1');
    expect(await limiter.reserve('right@x.test', '10.0.0.1')).toEqual({ ok: false, retryAfter: 2 });
    // Another address is not affected.
    expect((await limiter.reserve('right@x.test', '10.0.0.2')).ok).toBe(true);
    c.advance(2_000);
    expect((await limiter.reserve('right@x.test', '10.0.0.1')).ok).toBe(true);
  });

  it('slows an account guessed from many addresses, but only for seconds', async () => {
    const { c, limiter } = setup();
    for (let i = 0; i < 4; i++) await failures(limiter, 1, 'a@x.test', `10.0.1.${i}`);
    expect(await limiter.reserve('a@x.test', '10.0.2.1')).toEqual({ ok: false, retryAfter: 2 });
    expect((await limiter.reserve('b@x.test', '10.0.2.1')).ok).toBe(true);
    c.advance(2_000);
    expect((await limiter.reserve('a@x.test', '10.0.2.1')).ok).toBe(true);
  });

  it('a success resets its pair but only gives its attempt back to the address budget', async () => {
    const { limiter } = setup();
    await failures(limiter, 2, 'a@x.test', '10.0.0.1');
    const ok = await limiter.reserve('a@x.test', '10.0.0.1');
    if (!ok.ok) throw new Error('expected a reservation');
    await ok.attempt.succeeded();
    // The pair starts afresh (without the reset, the second of these would be refused).
    await failures(limiter, 2, 'a@x.test', '10.0.0.1');
    // 2 + 2 failures on the address: two more pass, then it slows down. Signing in to an
    // account of one's own did not clear the address's failures.
    await failures(limiter, 2, 'c@x.test', '10.0.0.1');
    expect((await limiter.reserve('d@x.test', '10.0.0.1')).ok).toBe(false);
  });

  it('an attempt without a verdict does not count', async () => {
    const { limiter } = setup();
    for (let i = 0; i < 10; i++) {
      const r = await limiter.reserve('a@x.test', '10.0.0.1');
      if (!r.ok) throw new Error(`refused at ${i}`);
      await r.attempt.undecided();
    }
  });

  it('counts an IPv6 client per /64, so rotating within it does not escape', async () => {
    const { limiter } = setup();
    for (let i = 0; i < 6; i++)
      await failures(limiter, 1, `u${i}@x.test`, `2001:db8:1:2::${i + 1}`);
    expect((await limiter.reserve('v@x.test', '2001:db8:1:2:ffff:1:2:3')).ok).toBe(false);
    expect((await limiter.reserve('v@x.test', '2001:db8:1:3::1')).ok).toBe(true);
  });

  it('a single sign-on attempt spends only the address budget', async () => {
    const { limiter } = setup();
    for (let i = 0; i < 6; i++) expect((await limiter.reserve(null, '10.0.0.1')).ok).toBe(true);
    expect((await limiter.reserve(null, '10.0.0.1')).ok).toBe(false);
    expect((await limiter.reserve('a@x.test', '10.0.0.1')).ok).toBe(false);
    expect((await limiter.reserve('a@x.test', '10.0.0.2')).ok).toBe(true);
  });
});

describe('GuestLimiter', () => {
  it('counts an IPv6 client per /64 and an IPv4-mapped address as the IPv4 one', async () => {
    const c = clock();
    const guests = new GuestLimiter(new MemoryCounterStore(c.now), { max: 3, windowMs: 60_000 });
    for (let i = 1; i <= 3; i++)
      expect(await guests.hit(`2001:db8:1:2::${i}`)).toEqual({ ok: true });
    // A fresh address of the same /64 is the same client.
    expect(await guests.hit('2001:db8:1:2:ffff:1:2:3')).toEqual({ ok: false, retryAfter: 60 });
    expect(await guests.hit('2001:db8:1:3::1')).toEqual({ ok: true });
    for (let i = 0; i < 3; i++) await guests.hit('203.0.113.9');
    expect((await guests.hit('::ffff:203.0.113.9')).ok).toBe(false);
    c.advance(60_000);
    expect(await guests.hit('2001:db8:1:2::9')).toEqual({ ok: true });
  });
});

describe('addressBucket', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and cuts IPv6 to its /64', () => {
    expect(addressBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('2001:db8:0:a:1:2:3:4')).toBe('2001:db8:0:a::/64');
    expect(addressBucket('2001:DB8:0:000A::9')).toBe('2001:db8:0:a::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
