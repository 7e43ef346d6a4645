import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

let stack: Stack;
let admin: Agent;
beforeAll(async () => {
  stack = await startStack();
  admin = new Agent(stack.url);
  expect((await admin.login('admin@demo.test')).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

/** One raw call, so the test sees the bytes on the wire (fetch would unpack them). */
function raw(path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const headers: Record<string, string> = { cookie: admin.cookie! };
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      get(stack.url + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }).on('error', reject);
    },
  );
}

const LIST = '/api/0/insuranceservice/v1/policies?pageSize=30&expand=premiumUnits';

describe('API answers on the wire', () => {
  it('gzips a JSON list for a browser that takes gzip, to the same JSON', async () => {
    const plain = await raw(LIST);
    const packed = await raw(LIST, 'gzip, deflate, br');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    expect(packed.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(packed.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(packed.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
  });

  it('leaves short answers and browsers that refuse gzip alone', async () => {
    const refused = await raw(LIST, 'gzip;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body.toString('utf8'))).toHaveProperty('items');

    const short = await raw('/api/0/nosuchservice/v1/x', 'gzip');
    expect(short.status).toBe(404);
    expect(short.headers['content-encoding']).toBeUndefined();
  });
});
