import { describe, expect, it } from 'vitest';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { acceptsGzip, jsonCompressor } from '#server/upstream/compress.ts';

const answer = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const browser = (acceptEncoding: string) => ({ headers: { 'accept-encoding': acceptEncoding } });

describe('acceptsGzip', () => {
  it('reads the list with its weights', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe('jsonCompressor', () => {
  const json = { 'content-type': 'application/json; charset=utf-8', 'content-length': '5000' };

  it('gzips sizeable JSON and says so in the headers', () => {
    const headers: OutgoingHttpHeaders = { 'content-length': '5000', vary: 'Origin' };
    expect(jsonCompressor(browser('gzip'), answer(json), headers)).not.toBeNull();
    expect(headers).toEqual({ 'content-encoding': 'gzip', vary: 'Origin, Accept-Encoding' });
  });

  it('leaves short, unknown-type, already encoded answers and refusing browsers alone', () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...json, 'content-length': '200' }, 'gzip'],
      [{ ...json, 'content-type': 'application/pdf' }, 'gzip'],
      [{ ...json, 'content-encoding': 'br' }, 'gzip'],
      [json, 'identity'],
    ];
    for (const [upstream, accept] of cases) {
      const headers: OutgoingHttpHeaders = { 'content-length': '5000' };
      expect(jsonCompressor(browser(accept), answer(upstream), headers)).toBeNull();
      expect(headers).toEqual({ 'content-length': '5000' });
    }
  });
});
