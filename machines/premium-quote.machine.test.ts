import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { AnyEventObject } from 'xstate';
import type { PolicyObjectInput } from '#common/policy-object-data.ts';
import {
  failureCode,
  pathEvents,
  pathsInput,
  PREMIUM_DEBOUNCE_MS,
  premiumQuoteMachine,
  type QuoteAnswer,
  type QuoteRequest,
} from './premium-quote.machine.ts';
import { controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage, expectHandlers, checkInEveryState } from './testing/assertions.ts';
import {
  createMachineTestModel,
  describePath,
  eventTypes,
  transitionPaths,
} from './testing/model.ts';

const objects = (sumInsured: number | null): PolicyObjectInput[] => [
  { insuredObjectId: 1, data: { policyStartDate: '2025-01-01' } },
  { insuredObjectId: 2, data: { sumInsured } },
];

const premium = {
  premiumItems: [{ premiumFormulaId: 5, total: 55, isOverride: false }],
  grandTotal: 55,
  currency: 'EUR',
};

function start() {
  const calculate = controlledPromise<QuoteAnswer, QuoteRequest>();
  const clock = new SimulatedClock();
  const actor = createActor(
    premiumQuoteMachine.provide({ actors: { calculatePremium: calculate.logic } }),
    { input: { productVersionId: 7 }, clock },
  ).start();
  return { actor, calculate, clock };
}

describe('premiumQuoteMachine', () => {
  it('starts idle without data and asks for nothing', () => {
    const { actor, calculate, clock } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({
      productVersionId: 7,
      policyObjects: null,
      premium: null,
      missing: [],
      issues: [],
      failure: null,
      failureIssues: [],
    });
    clock.increment(10 * PREMIUM_DEBOUNCE_MS);
    expect(calculate.calls).toHaveLength(0);
  });

  it('waits for a quiet moment after the last change, then asks once with the newest data', () => {
    const { actor, calculate, clock } = start();
    actor.send({ type: 'quote.change', policyObjects: objects(10000) });
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(PREMIUM_DEBOUNCE_MS - 1);
    // Typing on restarts the quiet time.
    actor.send({ type: 'quote.change', policyObjects: objects(20000) });
    clock.increment(PREMIUM_DEBOUNCE_MS - 1);
    expect(calculate.calls).toHaveLength(0);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('calculating');
    expect(calculate.calls.map((c) => c.input)).toEqual([
      { productVersionId: 7, policyObjects: objects(20000) },
    ]);
  });

  it('shows a premium when quoted and keeps it while the next one is on its way', async () => {
    const { actor, calculate, clock } = start();
    actor.send({ type: 'quote.change', policyObjects: objects(50000) });
    clock.increment(PREMIUM_DEBOUNCE_MS);
    calculate.last().resolve({ kind: 'quoted', premium });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('quoted');
    expect(actor.getSnapshot().context.premium).toEqual(premium);
    actor.send({ type: 'quote.change', policyObjects: objects(60000) });
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.premium).toEqual(premium);
  });

  it('says which fields are missing, and which values are wrong, without a premium', async () => {
    const { actor, calculate, clock } = start();
    actor.send({ type: 'quote.change', policyObjects: objects(null) });
    clock.increment(PREMIUM_DEBOUNCE_MS);
    calculate.last().resolve({ kind: 'incomplete', missing: ['household.sumInsured'] });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('incomplete');
    expect(actor.getSnapshot().context).toMatchObject({
      premium: null,
      missing: ['household.sumInsured'],
      issues: [],
    });

    actor.send({ type: 'quote.change', policyObjects: objects(1) });
    clock.increment(PREMIUM_DEBOUNCE_MS);
    const issues = [{ path: 'household.sumInsured', code: 'below_minimum' as const }];
    calculate.last().resolve({ kind: 'invalid', issues });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(actor.getSnapshot().context).toMatchObject({ premium: null, missing: [], issues });
  });

  it('cancels a stale request: its abort signal fires and its late answer is ignored', async () => {
    const signals: AbortSignal[] = [];
    const answers: ((answer: QuoteAnswer) => void)[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      premiumQuoteMachine.provide({
        actors: {
          calculatePremium: fromPromise<QuoteAnswer, QuoteRequest>(
            ({ signal }) =>
              new Promise((resolve) => {
                signals.push(signal);
                answers.push(resolve);
              }),
          ),
        },
      }),
      { input: { productVersionId: 7 }, clock },
    ).start();
    actor.send({ type: 'quote.change', policyObjects: objects(10000) });
    clock.increment(PREMIUM_DEBOUNCE_MS);
    expect(signals).toHaveLength(1);
    actor.send({ type: 'quote.change', policyObjects: objects(90000) });
    expect(signals[0]!.aborted).toBe(true);
    // The old request answers anyway (it was already on the wire): nothing changes.
    answers[0]!({ kind: 'quoted', premium: { ...premium, grandTotal: 11 } });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.premium).toBeNull();
    clock.increment(PREMIUM_DEBOUNCE_MS);
    expect(signals).toHaveLength(2);
    expect(signals[1]!.aborted).toBe(false);
    answers[1]!({ kind: 'quoted', premium });
    await flushPromises();
    expect(actor.getSnapshot().context.premium).toEqual(premium);
  });

  it('fails with the service code and retries with the same data', async () => {
    const { actor, calculate, clock } = start();
    actor.send({ type: 'quote.change', policyObjects: objects(50000) });
    clock.increment(PREMIUM_DEBOUNCE_MS);
    const issue = { path: 'premium', code: 'division_by_zero', position: 3, formula: 'Base' };
    calculate.last().reject({
      code: 'calculation_failed',
      message: 'division_by_zero at 3',
      body: { error: 'calculation_failed', message: 'division_by_zero at 3', issues: [issue] },
    });
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('calculation_failed');
    // The formula and why travel with the failure, for the screen to say them.
    expect(actor.getSnapshot().context.failureIssues).toEqual([issue]);
    expect(actor.getSnapshot().can({ type: 'quote.retry' })).toBe(true);
    actor.send({ type: 'quote.retry' });
    expect(actor.getSnapshot().value).toBe('calculating');
    expect(calculate.calls).toHaveLength(2);
    expect(calculate.last().input.policyObjects).toEqual(objects(50000));
    calculate.last().resolve({ kind: 'quoted', premium });
    await flushPromises();
    expect(actor.getSnapshot().context).toMatchObject({
      premium,
      failure: null,
      failureIssues: [],
    });
  });

  it('retries only after a failure', () => {
    const { actor } = start();
    for (const state of ['idle', 'waiting'] as const) {
      if (state === 'waiting') actor.send({ type: 'quote.change', policyObjects: objects(1) });
      expect(actor.getSnapshot().value).toBe(state);
      expect(actor.getSnapshot().can({ type: 'quote.retry' })).toBe(false);
    }
  });
});

describe('failureCode', () => {
  it.each([
    [{ code: 'calculation_failed' }, 'calculation_failed'],
    [{ code: '' }, 'unavailable'],
    [new TypeError('Failed to fetch'), 'unavailable'],
    [null, 'unavailable'],
    ['text', 'unavailable'],
  ])('%j -> %s', (error, expected) => {
    expect(failureCode(error)).toBe(expected);
  });
});

describe('premiumQuoteMachine model', () => {
  const model = createMachineTestModel(premiumQuoteMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(premiumQuoteMachine, paths);
  });

  function driver() {
    const { actor, calculate, clock } = (() => {
      const calculate = controlledPromise<QuoteAnswer, QuoteRequest>();
      const clock = new SimulatedClock();
      const actor = createActor(
        premiumQuoteMachine.provide({ actors: { calculatePremium: calculate.logic } }),
        { input: pathsInput, clock },
      ).start();
      return { actor, calculate, clock };
    })();
    const events = {
      'quote.change': ({ event }: { event: AnyEventObject }) => {
        actor.send(event as Parameters<typeof actor.send>[0]);
      },
      'quote.retry': ({ event }: { event: AnyEventObject }) => {
        actor.send(event as Parameters<typeof actor.send>[0]);
      },
      'xstate.after.debounceDelay.premiumQuote.waiting': () => {
        clock.increment(PREMIUM_DEBOUNCE_MS);
      },
      'xstate.done.actor.calculatePremium': async ({ event }: { event: AnyEventObject }) => {
        calculate.last().resolve(event.output as QuoteAnswer);
        await flushPromises();
      },
      'xstate.error.actor.calculatePremium': async ({ event }: { event: AnyEventObject }) => {
        calculate.last().reject(event.error);
        await flushPromises();
      },
    };
    return { actor, events, calculate };
  }

  it('has an executor for every event', () => {
    expectHandlers(eventTypes(premiumQuoteMachine), driver().events);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const { events, calculate } = driver();
    // Whatever the path, after every step: every request made asked with the version and the
    // data the user gave last.
    await model.testPath(path, {
      states: checkInEveryState(premiumQuoteMachine, () => {
        for (const call of calculate.calls) {
          expect(call.input).toEqual({
            productVersionId: pathsInput.productVersionId,
            policyObjects: pathEvents['quote.change'][0].policyObjects,
          });
        }
      }),
      events,
    });
  });
});
