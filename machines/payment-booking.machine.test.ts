import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  isDefiniteRefusal,
  pathEvents,
  pathsInput,
  paymentBookingMachine,
  type PaymentDraft,
} from './payment-booking.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage } from './testing/assertions.ts';
import { createMachineTestModel, transitionPaths } from './testing/model.ts';

const draft: PaymentDraft = { amount: 5_000, method: 'bank-transfer', invoiceCodes: ['inv_1'] };

function start() {
  const book = controlledPromise<unknown, { key: string; draft: PaymentDraft }>();
  const notifyBooked = vi.fn();
  const notifyUncertain = vi.fn();
  let n = 0;
  const actor = createActor(
    paymentBookingMachine.provide({
      actors: { book: book.logic },
      actions: {
        notifyBooked: (_, params) => notifyBooked(params),
        notifyUncertain: () => notifyUncertain(),
      },
    }),
    { input: { newKey: () => `k${++n}` } },
  ).start();
  return { actor, book, notifyBooked, notifyUncertain };
}

async function submitted(run: ReturnType<typeof start>, body: PaymentDraft = draft) {
  run.actor.send({ type: 'booking.open' });
  run.actor.send({ type: 'booking.submit', draft: body });
  await flushPromises();
}

describe('isDefiniteRefusal', () => {
  it('takes the answers that booked nothing as final, and no answer or a 5xx as unknown', () => {
    for (const status of [400, 403, 404, 409, 422]) {
      expect(isDefiniteRefusal({ status, code: 'x' })).toBe(true);
    }
    for (const status of [0, 429, 500, 502, 504]) {
      expect(isDefiniteRefusal({ status, code: 'x' })).toBe(false);
    }
    expect(isDefiniteRefusal(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('paymentBookingMachine', () => {
  it('books once however often submit is pressed while the call runs', async () => {
    const run = start();
    await submitted(run);
    run.actor.send({ type: 'booking.submit', draft });
    run.actor.send({ type: 'booking.submit', draft: { ...draft, amount: 1 } });
    await flushPromises();
    expect(run.book.calls).toHaveLength(1);
    run.book.last().resolve({ code: 'pay_1' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('closed');
    expect(run.notifyBooked).toHaveBeenCalledExactlyOnceWith({ payment: { code: 'pay_1' } });
  });

  it('retries a lost answer with the same key and the same draft, and cannot change it', async () => {
    const run = start();
    await submitted(run);
    const first = run.book.last().input;
    run.book.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('uncertain');
    expect(run.actor.getSnapshot().can({ type: 'booking.submit', draft })).toBe(false);
    run.actor.send({ type: 'booking.retry' });
    await flushPromises();
    expect(run.book.calls).toHaveLength(2);
    expect(run.book.last().input).toEqual(first);
  });

  it('a refusal returns to editing with a new key for the corrected draft', async () => {
    const run = start();
    await submitted(run);
    const firstKey = run.book.last().input.key;
    run.book.last().reject({ status: 409, code: 'payment_exceeds_due' });
    await flushPromises();
    expect(run.actor.getSnapshot().value).toBe('editing');
    expect(run.actor.getSnapshot().context.refusal).toEqual({
      status: 409,
      code: 'payment_exceeds_due',
    });
    run.actor.send({ type: 'booking.submit', draft: { ...draft, amount: 100 } });
    await flushPromises();
    expect(run.book.last().input.key).not.toBe(firstKey);
    expect(run.actor.getSnapshot().context.refusal).toBeNull();
  });

  it('closing after a lost answer tells the page to read the invoices again', async () => {
    const run = start();
    await submitted(run);
    run.book.last().reject({ status: 502, code: 'upstream_unavailable' });
    await flushPromises();
    run.actor.send({ type: 'booking.cancel' });
    expect(run.actor.getSnapshot().value).toBe('closed');
    expect(run.notifyUncertain).toHaveBeenCalledOnce();
    expect(run.notifyBooked).not.toHaveBeenCalled();
  });

  it('every opening is another payment: a new key', async () => {
    const run = start();
    await submitted(run);
    const first = run.book.last().input.key;
    run.book.last().resolve({ code: 'pay_1' });
    await flushPromises();
    await submitted(run);
    expect(run.book.last().input.key).not.toBe(first);
  });
});

it('reaches every state and takes every event (reachability)', () => {
  const model = createMachineTestModel(paymentBookingMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  expectFullCoverage(paymentBookingMachine, [
    ...model.getShortestPaths(),
    ...transitionPaths(model),
  ]);
});
