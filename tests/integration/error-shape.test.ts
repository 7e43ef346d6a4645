import { createServer } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '#common/contracts/error.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * Every refusal the browser can meet, from the BFF itself or from the sandbox behind it, has the
 * one shape of common/contracts/error.ts (docs/contracts.md, "Errors").
 */
const ACC = '/api/0/accountservice/v1';
const PERSON = {
  type: 'person',
  firstName: 'Erika',
  lastName: 'Fehlerform',
  email: 'erika.fehlerform@example.test',
  gender: 'female',
  street: 'Heidestraße',
  houseNumber: '17',
  zipCode: '51147',
  city: 'Köln',
};

function expectShape(answer: { status: number; body: unknown }, status: number, error: string) {
  expect(answer.status).toBe(status);
  const parsed = v.safeParse(ErrorBodySchema, answer.body);
  expect(parsed.issues ?? []).toEqual([]);
  expect((answer.body as { error: string }).error).toBe(error);
  return parsed.output as v.InferOutput<typeof ErrorBodySchema>;
}

/** A port nobody listens on: the upstream is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let stack: Stack;
let down: Stack;
const care = () => new Agent(stack.url);
beforeAll(async () => {
  stack = await startStack();
  down = await startStack({ UPSTREAM_URL: `http://127.0.0.1:${await closedPort()}` });
});
afterAll(async () => {
  await stack?.stop();
  await down?.stop();
});

describe('one error shape through the BFF', () => {
  it('gives machine codes at their paths for bad input, from the sandbox and the BFF', async () => {
    const a = care();
    expect((await a.login('care@demo.test')).status).toBe(200);
    const sandbox = expectShape(
      await a.json(`${ACC}/accounts`, { json: { ...PERSON, email: 'not an address' } }),
      400,
      'validation_error',
    );
    expect(sandbox.issues).toContainEqual({ path: 'email', code: 'invalid_email' });

    const bff = expectShape(
      await new Agent(stack.url).json('/bff/login', { json: { username: 'x' } }),
      400,
      'bad_request',
    );
    expect(bff.issues).toContainEqual({ path: 'password', code: 'object' });
  });

  it('answers not found, conflict and forbidden in the shape', async () => {
    const a = care();
    await a.login('care@demo.test');
    expectShape(await a.json(`${ACC}/accounts/99999999`), 404, 'not_found');
    expectShape(await a.json('/bff/no-such-route'), 404, 'not_found');

    const created = await a.json(`${ACC}/accounts`, { json: PERSON });
    expect(created.status).toBe(201);
    const { id, version } = created.body.account as { id: number; version: number };
    expect(
      (await a.json(`${ACC}/accounts/${id}`, { method: 'PUT', json: { ...PERSON, version } }))
        .status,
    ).toBe(200);
    const conflict = expectShape(
      await a.json(`${ACC}/accounts/${id}`, { method: 'PUT', json: { ...PERSON, version } }),
      409,
      'version_conflict',
    );
    // The current record still comes with the refusal.
    expect(conflict).toMatchObject({ account: { id, version: version + 1 } });

    const viewer = new Agent(stack.url);
    await viewer.login('viewer@demo.test');
    expectShape(await viewer.json(`${ACC}/accounts`, { json: PERSON }), 403, 'forbidden');
  });

  it('answers unauthenticated and CSRF-refused calls in the shape', async () => {
    expectShape(await new Agent(stack.url).json(`${ACC}/accounts`), 401, 'session_expired');
    const a = care();
    await a.login('care@demo.test');
    const refused = await a.json(`${ACC}/accounts`, { json: PERSON, csrf: false });
    expectShape(refused, 403, 'csrf');
  });

  it('answers an unreachable upstream in the shape', async () => {
    expectShape(await new Agent(down.url).login('care@demo.test'), 502, 'upstream_unavailable');
  });
});
