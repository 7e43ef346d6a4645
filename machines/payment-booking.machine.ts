import { assign, fromPromise, setup } from 'xstate';
import { refusalOf, type Refusal } from './failure-code.ts';

/**
 * What the booking dialog sends: the payment service's body (docs/contracts.md, "paymentservice").
 * Amounts in cents.
 */
export interface PaymentDraft {
  amount: number;
  method: string;
  reference?: string;
  invoiceCodes: readonly string[];
  allowCredit?: boolean;
}

export interface PaymentBookingContext {
  /** The Idempotency-Key of the payment being booked: one per payment, kept across retries. */
  key: string;
  /** What was sent last; locked while its outcome is unknown. */
  draft: PaymentDraft | null;
  refusal: Refusal | null;
}

export type PaymentBookingEvent =
  | { type: 'booking.open' }
  | { type: 'booking.submit'; draft: PaymentDraft }
  | { type: 'booking.retry' }
  | { type: 'booking.cancel' };

export interface PaymentBookingInput {
  /** A new random key (common/idempotency-key.ts); injected so that tests can name them. */
  newKey: () => string;
}

/**
 * The service refused the payment for good, so nothing was booked: bad input (400), not allowed
 * (403), no such invoice (404), more than is due (409), the key used for another body (422).
 */
export const isDefiniteRefusal = (error: unknown): boolean =>
  [400, 403, 404, 409, 422].includes(refusalOf(error).status);

/**
 * Booking a payment, so that a double click or a retry after a lost answer books it once
 * (issue 18): the dialog opens with a fresh Idempotency-Key (`editing`); `booking.submit` sends
 * the draft with it (`submitting`, where a second submit does nothing); then
 * - booked: the dialog closes (`notifyBooked`);
 * - refused for good (isDefiniteRefusal): back to `editing` with the refusal, and a fresh key,
 *   since nothing was booked and the corrected draft is another request;
 * - anything else (no answer, 5xx, 429): `uncertain`, since the payment may have been booked. The
 *   draft is locked: `booking.retry` sends the same draft with the same key (the service answers
 *   the first booking again if there was one), `booking.cancel` closes and tells the page to read
 *   the invoices again (`notifyUncertain`) instead of inviting a second payment.
 *
 * Provide: actor `book` (input `{ key, draft }`, rejects with the client's ApiError or anything
 * with `status` and `code`); actions `notifyBooked` and `notifyUncertain`.
 */
export const paymentBookingMachine = setup({
  types: {
    context: {} as PaymentBookingContext & { newKey: () => string },
    events: {} as PaymentBookingEvent,
    input: {} as PaymentBookingInput,
  },
  actors: {
    book: fromPromise<unknown, { key: string; draft: PaymentDraft }>(async () => {
      throw new Error('paymentBookingMachine: provide the book actor');
    }),
  },
  actions: {
    notifyBooked: (_, _params: { payment: unknown }) => {},
    notifyUncertain: () => {},
    freshKey: assign({ key: ({ context }) => context.newKey() }),
  },
  guards: {
    isDefiniteRefusal: ({ event }) => isDefiniteRefusal((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'paymentBooking',
  context: ({ input }) => ({
    newKey: input.newKey,
    key: input.newKey(),
    draft: null,
    refusal: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'booking.open': {
          target: 'editing',
          actions: ['freshKey', assign({ draft: null, refusal: null })],
        },
      },
    },
    editing: {
      on: {
        'booking.submit': {
          target: 'submitting',
          actions: assign({ draft: ({ event }) => event.draft, refusal: null }),
        },
        'booking.cancel': 'closed',
      },
    },
    submitting: {
      invoke: {
        id: 'book',
        src: 'book',
        // Set by `booking.submit`, the only way here besides a retry of the same draft.
        input: ({ context }) => ({ key: context.key, draft: context.draft! }),
        onDone: {
          target: 'closed',
          actions: { type: 'notifyBooked', params: ({ event }) => ({ payment: event.output }) },
        },
        onError: [
          {
            guard: 'isDefiniteRefusal',
            target: 'editing',
            actions: ['freshKey', assign({ refusal: ({ event }) => refusalOf(event.error) })],
          },
          {
            target: 'uncertain',
            actions: assign({ refusal: ({ event }) => refusalOf(event.error) }),
          },
        ],
      },
    },
    uncertain: {
      on: {
        'booking.retry': { target: 'submitting', actions: assign({ refusal: null }) },
        'booking.cancel': { target: 'closed', actions: 'notifyUncertain' },
      },
    },
  },
});

const sampleDraft: PaymentDraft = {
  amount: 12_345,
  method: 'bank-transfer',
  invoiceCodes: ['inv_sample'],
};

/**
 * Sample input and events for `npm run paths -- payment-booking` and the tests. One key for all:
 * a counting key would make every state new to the graph walk, which would never end.
 */
export const pathsInput: PaymentBookingInput = { newKey: () => 'sample-key' };

export const pathEvents = {
  'booking.submit': [{ type: 'booking.submit', draft: sampleDraft }],
  'xstate.done.actor.book': [{ type: 'xstate.done.actor.book', output: { code: 'pay_sample' } }],
  'xstate.error.actor.book': [
    { type: 'xstate.error.actor.book', error: { status: 409, code: 'payment_exceeds_due' } },
    { type: 'xstate.error.actor.book', error: { status: 0, code: 'unavailable' } },
  ],
} as const;
