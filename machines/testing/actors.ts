/**
 * Fake actors for machine tests: promises the test settles by hand, and callback actors that
 * count how many are alive. No timers, no sleeping.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { AnyEventObject, EventObject } from 'xstate';

export interface PromiseCall<TOutput, TInput> {
  input: TInput;
  resolve: (output: TOutput) => void;
  reject: (error: unknown) => void;
}

/** A `fromPromise` actor whose every invocation waits until the test settles it. */
export function controlledPromise<TOutput, TInput = unknown>() {
  const calls: PromiseCall<TOutput, TInput>[] = [];
  const logic = fromPromise<TOutput, TInput>(
    ({ input }) =>
      new Promise<TOutput>((resolve, reject) => {
        calls.push({ input, resolve, reject });
      }),
  );
  return {
    logic,
    calls,
    /** The most recent invocation; throws when there was none. */
    last(): PromiseCall<TOutput, TInput> {
      const call = calls.at(-1);
      if (call === undefined) throw new Error('the actor was never invoked');
      return call;
    },
  };
}

export interface CallbackInstance<TInput> {
  input: TInput;
  sendBack: (event: AnyEventObject) => void;
  live: boolean;
  received: EventObject[];
}

/** A `fromCallback` actor that records each instance and whether its cleanup has run. */
export function controlledCallback<TInput = unknown>() {
  const instances: CallbackInstance<TInput>[] = [];
  const logic = fromCallback<EventObject, TInput>(({ input, sendBack, receive }) => {
    const instance: CallbackInstance<TInput> = { input, sendBack, live: true, received: [] };
    instances.push(instance);
    receive((event) => instance.received.push(event));
    return () => {
      instance.live = false;
    };
  });
  return {
    logic,
    instances,
    liveCount: () => instances.filter((instance) => instance.live).length,
    last(): CallbackInstance<TInput> {
      const instance = instances.at(-1);
      if (instance === undefined) throw new Error('the actor was never started');
      return instance;
    },
  };
}

/** Lets settled promises propagate into the actor (microtasks and one macrotask turn). */
export function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
