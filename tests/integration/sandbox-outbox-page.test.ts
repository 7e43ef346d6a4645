import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  // The seeded invitation's link carries the seeding instance's address: this one's own.
  stack = await startStack({}, { ownSeed: true });
});
afterAll(() => stack?.stop());

describe('the sandbox outbox page, through the BFF', () => {
  it('lists the e-mails of one recipient with their links, as HTML without script', async () => {
    const res = await fetch(`${stack.url}/sandbox/mail?to=INVITEE1@example.test`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<h1>Sandbox outbox</h1>');
    expect(html).toContain('To invitee1@example.test');
    // The seeded invitation's real link, openable from the page.
    // Links are absolute, on the back office's public address: without PUBLIC_BASE_URL, the port
    // this instance is bound to (the stack listens on PORT=0, a free port).
    const ownAddress = stack.url.replace('127.0.0.1', 'localhost');
    expect(html).toContain(`<a href="${ownAddress}/registration?token=`);
    expect(html).not.toContain('invitee2@example.test');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes what it shows and says when there is nothing', async () => {
    const to = '"><script>alert(1)</script>';
    const res = await fetch(`${stack.url}/sandbox/mail?to=${encodeURIComponent(to)}`);
    const html = await res.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#34;&#62;&#60;script&#62;');
    expect(html).toContain('No e-mails.');
  });

  it('answers a malformed query with a JSON error and keeps serving', async () => {
    const agent = new Agent(stack.url);
    const bad = await agent.json('/sandbox/mail?to=a&to=b');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_query');
    expect((await fetch(`${stack.url}/sandbox/mail`)).status).toBe(200);
  });
});
