import { assign, fromPromise, setup } from 'xstate';
import { failureCode } from './failure-code.ts';
import { errorIssues, type ErrorIssue } from '#common/contracts/error.ts';
import type { ObjectDataIssue, PolicyObjectInput } from '#common/policy-object-data.ts';
import type { Premium } from '#common/premium.ts';

/** Quiet time after the last change before the premium is asked for. */
export const PREMIUM_DEBOUNCE_MS = 400;

export interface PremiumQuoteInput {
  productVersionId: number;
}

/** What the calculation is asked with: the whole application as it stands. */
export interface QuoteRequest {
  productVersionId: number;
  policyObjects: PolicyObjectInput[];
}

/**
 * The calculation's verdict on the data: a premium; the fields still missing (a form being
 * filled in); or the values that are wrong. A failure to calculate at all (network, a formula
 * the tariff cannot evaluate) is a rejection of the actor instead.
 */
export type QuoteAnswer =
  | { kind: 'quoted'; premium: Premium }
  | { kind: 'incomplete'; missing: string[] }
  | { kind: 'invalid'; issues: ObjectDataIssue[] };

export interface PremiumQuoteContext {
  productVersionId: number;
  /** The newest data; null until the form reports its first values. */
  policyObjects: PolicyObjectInput[] | null;
  /** The last premium; kept while a newer one is on its way, dropped when the data cannot have one. */
  premium: Premium | null;
  missing: string[];
  issues: ObjectDataIssue[];
  /** Why the last calculation failed: the service's error code, or 'unavailable'. */
  failure: string | null;
  /** The issues the failure names: a formula that cannot be computed names itself and why. */
  failureIssues: ErrorIssue[];
}

export type PremiumQuoteEvent =
  { type: 'quote.change'; policyObjects: PolicyObjectInput[] } | { type: 'quote.retry' };

// Shared with the other machines that report a service's refusal.
export { failureCode };

const noVerdict = { missing: [], issues: [], failure: null, failureIssues: [] };

/**
 * The live premium of an application form. Every change waits for a quiet moment (`waiting`,
 * restarted by each change), then asks for the premium (`calculating`); a change while a request
 * is under way leaves `calculating`, which stops the request (its abort signal fires), so an
 * older answer never overwrites a newer one. The answer is `quoted`, `incomplete` (which fields
 * are missing), `invalid` (which values are wrong), or `failed`, from where `quote.retry` asks
 * again with the same data.
 *
 * Provide: actor `calculatePremium` (input {@link QuoteRequest}, output {@link QuoteAnswer};
 * use the `signal` it gets to cancel the request).
 */
export const premiumQuoteMachine = setup({
  types: {
    input: {} as PremiumQuoteInput,
    context: {} as PremiumQuoteContext,
    events: {} as PremiumQuoteEvent,
  },
  actors: {
    calculatePremium: fromPromise<QuoteAnswer, QuoteRequest>(async () => {
      throw new Error('premiumQuoteMachine: provide the calculatePremium actor');
    }),
  },
  delays: {
    debounceDelay: PREMIUM_DEBOUNCE_MS,
  },
  guards: {
    isQuoted: (_, answer: QuoteAnswer) => answer.kind === 'quoted',
    isIncomplete: (_, answer: QuoteAnswer) => answer.kind === 'incomplete',
  },
  actions: {
    storeData: assign((_, params: { policyObjects: PolicyObjectInput[] }) => ({
      policyObjects: params.policyObjects,
    })),
    storeAnswer: assign((_, answer: QuoteAnswer) => ({
      ...noVerdict,
      premium: answer.kind === 'quoted' ? answer.premium : null,
      ...(answer.kind === 'incomplete' ? { missing: answer.missing } : {}),
      ...(answer.kind === 'invalid' ? { issues: answer.issues } : {}),
    })),
    storeFailure: assign((_, params: { error: unknown }) => ({
      ...noVerdict,
      premium: null,
      failure: failureCode(params.error),
      failureIssues: errorIssues((params.error as { body?: unknown } | null)?.body),
    })),
  },
}).createMachine({
  id: 'premiumQuote',
  context: ({ input }) => ({
    productVersionId: input.productVersionId,
    policyObjects: null,
    premium: null,
    ...noVerdict,
  }),
  initial: 'idle',
  on: {
    'quote.change': {
      target: '.waiting',
      // Re-entering restarts the quiet time and stops a request under way.
      reenter: true,
      actions: {
        type: 'storeData',
        params: ({ event }) => ({ policyObjects: event.policyObjects }),
      },
    },
  },
  states: {
    idle: {},
    waiting: {
      after: { debounceDelay: 'calculating' },
    },
    calculating: {
      invoke: {
        id: 'calculatePremium',
        src: 'calculatePremium',
        input: ({ context }) => ({
          productVersionId: context.productVersionId,
          policyObjects: context.policyObjects ?? [],
        }),
        onDone: [
          {
            guard: { type: 'isQuoted', params: ({ event }) => event.output },
            target: 'quoted',
            actions: { type: 'storeAnswer', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isIncomplete', params: ({ event }) => event.output },
            target: 'incomplete',
            actions: { type: 'storeAnswer', params: ({ event }) => event.output },
          },
          {
            target: 'invalid',
            actions: { type: 'storeAnswer', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    quoted: {},
    incomplete: {},
    invalid: {},
    failed: {
      on: { 'quote.retry': 'calculating' },
    },
  },
});

const sampleObjects = (value: number): PolicyObjectInput[] => [
  { insuredObjectId: 11, data: { policyStartDate: '2025-01-01' } },
  { insuredObjectId: 12, data: { sumInsured: value } },
];

export const pathsInput: PremiumQuoteInput = { productVersionId: 7 };

/** Sample events for `npm run paths -- premium-quote` and the model-based test. */
export const pathEvents = {
  'quote.change': [{ type: 'quote.change', policyObjects: sampleObjects(50000) }],
  'xstate.done.actor.calculatePremium': [
    {
      type: 'xstate.done.actor.calculatePremium',
      output: {
        kind: 'quoted',
        premium: {
          premiumItems: [{ premiumFormulaId: 3, total: 55, isOverride: false }],
          grandTotal: 55,
          currency: 'EUR',
        },
      },
    },
    {
      type: 'xstate.done.actor.calculatePremium',
      output: { kind: 'incomplete', missing: ['household.zipCode'] },
    },
    {
      type: 'xstate.done.actor.calculatePremium',
      output: {
        kind: 'invalid',
        issues: [{ path: 'household.sumInsured', code: 'below_minimum' }],
      },
    },
  ],
  'xstate.error.actor.calculatePremium': [
    { type: 'xstate.error.actor.calculatePremium', error: { code: 'calculation_failed' } },
  ],
} as const;
