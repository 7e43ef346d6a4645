/**
 * Shared helpers for model-based tests of the statecharts and for `npm run paths`.
 *
 * `xstate/graph` walks a machine with its pure `transition` function, so it refuses machines
 * with `invoke` or `after` (nothing would ever finish or fire). {@link toModelMachine} rewrites a
 * machine into a model where each invoked actor's completion, failure and each delay are plain
 * events with xstate's own names (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`,
 * `xstate.after.<delay>.<stateId>`). The model keeps the machine's implementations, so guards and
 * `assign`s behave exactly as in the real machine; a test then replays each path against the real
 * machine, producing those events with fake actors and a simulated clock.
 */
import type { AnyEventObject, AnyStateMachine, AnyStateNode, EventObject, Snapshot } from 'xstate';
import { createMachine } from 'xstate';
import { createTestModel, getStateNodes } from 'xstate/graph';
import type { StatePath, TestModel, TestPath } from 'xstate/graph';

/** Sample events per event type, for events that carry a payload (`pathEvents` of a machine). */
export type PathEvents = Readonly<Record<string, readonly AnyEventObject[]>>;

type Config = Record<string, unknown> & {
  on?: Record<string, unknown>;
  states?: Record<string, Config>;
  invoke?: unknown;
  after?: Record<string, unknown>;
};

function rewriteNode(node: AnyStateNode): Config {
  const { invoke: _invoke, after, states: _states, ...rest } = node.config as Config;
  const on: Record<string, unknown> = { ...(rest.on ?? {}) };
  node.invoke.forEach((definition, index) => {
    const raw = toArray((node.config as Config).invoke)[index] as Record<string, unknown>;
    if (raw.onDone !== undefined) on[`xstate.done.actor.${definition.id}`] = raw.onDone;
    if (raw.onError !== undefined) on[`xstate.error.actor.${definition.id}`] = raw.onError;
  });
  for (const [delay, transition] of Object.entries(after ?? {})) {
    on[`xstate.after.${delay}.${node.id}`] = transition;
  }
  const config: Config = { ...rest, on };
  if (Object.keys(node.states).length > 0) {
    config.states = Object.fromEntries(
      Object.entries(node.states).map(([key, child]) => [key, rewriteNode(child)]),
    );
  }
  return config;
}

function toArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * The machine as a pure model for `xstate/graph`: invocations and delays become events.
 * The result is loosely typed on purpose: its event union is the machine's plus xstate's
 * internal done/error/after events.
 */
export function toModelMachine(machine: AnyStateMachine): AnyStateMachine {
  // Built from the machine's own config and implementations, so ids and actions stay the same.
  return createMachine(rewriteNode(machine.root) as never, machine.implementations as never);
}

export interface ModelOptions {
  input?: unknown;
  events?: PathEvents;
  /** Stop (throw) after this many traversal steps; for machines with an unbounded context. */
  limit?: number;
  /**
   * Tell states apart by value only, not context: a coarser but always finite model, for
   * machines whose context can grow without bound (lists, counters).
   */
  ignoreContext?: boolean;
  /** Leave out events (a browser walk leaves out what a user cannot produce). */
  filterEvents?: (state: Snapshot<unknown>, event: AnyEventObject) => boolean;
}

/**
 * A test model of `machine` (see {@link toModelMachine}). A transition that leaves the state
 * unchanged still counts as a step, so that events handled without a state change (a fresh
 * token, a message on an open socket) show up on generated paths too.
 */
export function createMachineTestModel(
  machine: AnyStateMachine,
  options: ModelOptions = {},
): TestModel<Snapshot<unknown>, AnyEventObject, unknown> {
  const events = Object.values(options.events ?? {}).flat();
  const via = (event: AnyEventObject | undefined) =>
    event === undefined ? '' : ` via ${JSON.stringify(event)}`;
  return createTestModel(toModelMachine(machine), {
    input: options.input,
    events,
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.filterEvents === undefined ? {} : { filterEvents: options.filterEvents }),
    // A done actor ignores every event; pure `transition` would still take root-level ones.
    stopWhen: (state: Snapshot<unknown>) => state.status !== 'active',
    serializeTransition: (_state, event) => via(event),
    ...(options.ignoreContext === true
      ? {
          serializeState: (state: { value: unknown }, event: AnyEventObject | undefined) =>
            `${JSON.stringify(state.value)}${via(event)}`,
        }
      : {}),
  }) as unknown as TestModel<Snapshot<unknown>, AnyEventObject, unknown>;
}

/** Dotted paths of every state node (`connection.open`), as used by `snapshot.matches`. */
export function stateKeys(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map((node) => node.path.join('.'));
}

/** Every event type some state of the model handles, including done/error/after events. */
export function eventTypes(machine: AnyStateMachine): string[] {
  const model = toModelMachine(machine);
  const types = new Set<string>();
  for (const node of [model.root, ...getStateNodes(model.root)]) {
    for (const type of node.ownEvents) types.add(type);
  }
  return [...types].sort();
}

interface MatchableSnapshot {
  matches: (value: never) => boolean;
}

/** Which state keys and event types appear on the given paths. */
export function coverage(
  machine: AnyStateMachine,
  paths: readonly StatePath<Snapshot<unknown>, EventObject>[],
): { states: string[]; events: string[]; missingStates: string[]; missingEvents: string[] } {
  // A state left at once by an unguarded eventless transition is never at rest, so no path can
  // stop in it; it counts as covered when a path passes through to one of its targets.
  const keys = stateKeys(machine).filter((key) => !isTransient(machine, key));
  const states = new Set<string>();
  const events = new Set<string>();
  for (const path of paths) {
    for (const step of path.steps) {
      events.add(step.event.type);
      const snapshot = step.state as unknown as MatchableSnapshot;
      for (const key of keys) if (snapshot.matches(key as never)) states.add(key);
    }
  }
  const handled = eventTypes(machine);
  return {
    states: [...states].sort(),
    events: [...events].filter((type) => type !== 'xstate.init').sort(),
    missingStates: keys.filter((key) => !states.has(key)),
    missingEvents: handled.filter((type) => !events.has(type)),
  };
}

function isTransient(machine: AnyStateMachine, key: string): boolean {
  let node: AnyStateNode | undefined = machine.root;
  for (const part of key.split('.')) node = node?.states[part];
  return (node?.always ?? []).some((transition) => !transition.guard);
}

/** `from --event.type--> to` for each step of the path (state values, event types). */
export function transitionKeys(path: StatePath<Snapshot<unknown>, AnyEventObject>): string[] {
  const keys: string[] = [];
  let previous: unknown;
  for (const step of path.steps) {
    const value = (step.state as unknown as { value: unknown }).value;
    if (step.event.type !== 'xstate.init') {
      keys.push(`${formatStateValue(previous)} --${step.event.type}--> ${formatStateValue(value)}`);
    }
    previous = value;
  }
  return keys;
}

/**
 * The fewest paths that still take every transition (from value, event type, to value) the given
 * paths take: a greedy set cover that keeps, each round, the path taking the most transitions not
 * taken yet (the shorter on a tie). A path that only repeats a longer one's start is left out:
 * in the browser each path costs a sign-in and a page load, far more than one more step.
 */
export function selectCoveringPaths<TPath extends StatePath<Snapshot<unknown>, AnyEventObject>>(
  paths: readonly TPath[],
): TPath[] {
  const candidates = paths
    .map((path) => ({ path, keys: new Set(transitionKeys(path)) }))
    .filter((candidate) => candidate.keys.size > 0);
  const covered = new Set<string>();
  const selected: TPath[] = [];
  for (;;) {
    let best: (typeof candidates)[number] | undefined;
    let bestGain = 0;
    for (const candidate of candidates) {
      let gain = 0;
      for (const key of candidate.keys) if (!covered.has(key)) gain += 1;
      const shorter = best !== undefined && candidate.path.steps.length < best.path.steps.length;
      if (gain > bestGain || (gain > 0 && gain === bestGain && shorter)) {
        best = candidate;
        bestGain = gain;
      }
    }
    if (best === undefined) break;
    for (const key of best.keys) covered.add(key);
    selected.push(best.path);
  }
  // Shortest first, as before: the list reads from the simple scenarios to the long ones.
  return selected.sort((a, b) => a.steps.length - b.steps.length);
}

type AnyStatePath = StatePath<Snapshot<unknown>, AnyEventObject>;

/**
 * One path per transition of the model: the shortest way to each state of the model's graph,
 * extended by each event it handles there, then reduced with {@link selectCoveringPaths}. Unlike
 * shortest paths (one per state), this also takes transitions into states that a shorter path
 * already reaches, such as `refreshing --token.replaced--> valid`. Replay them with
 * `model.testPath(path, params)`.
 */
export function transitionPaths(
  model: TestModel<Snapshot<unknown>, AnyEventObject, unknown>,
): AnyStatePath[] {
  const adjacency = model.getAdjacencyMap();
  const serialize = model.options.serializeState as (
    state: Snapshot<unknown>,
    event: AnyEventObject | undefined,
    previous?: Snapshot<unknown>,
  ) => string;
  const [startKey] = Object.keys(adjacency);
  if (startKey === undefined) return [];
  const start = adjacency[startKey as keyof typeof adjacency];
  if (start === undefined) return [];
  const shortest = new Map<string, AnyStatePath>([
    [
      startKey,
      {
        state: start.state,
        steps: [{ state: start.state, event: { type: 'xstate.init' } }],
        weight: 0,
      },
    ],
  ]);
  const queue = [startKey];
  const candidates: AnyStatePath[] = [];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    const vertex = adjacency[key as keyof typeof adjacency];
    const path = shortest.get(key);
    if (vertex === undefined || path === undefined) continue;
    for (const { event, state } of Object.values(vertex.transitions)) {
      const extended: AnyStatePath = {
        state,
        steps: [...path.steps, { state, event }],
        weight: path.weight + 1,
      };
      candidates.push(extended);
      const nextKey = serialize(state, event, vertex.state);
      if (!shortest.has(nextKey) && nextKey in adjacency) {
        shortest.set(nextKey, extended);
        queue.push(nextKey);
      }
    }
  }
  return selectCoveringPaths(candidates);
}

/** A one-line name for a path: its transitions. */
export function describePath(path: AnyStatePath): string {
  return transitionKeys(path).join(' ; ') || '(initial state)';
}

/** `'open'`, `'connection.open'`: a state value as testers read it. */
export function formatStateValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, child]) => {
        const inner = formatStateValue(child);
        return inner === '' ? key : `${key}.${inner}`;
      })
      .join(', ');
  }
  return '';
}

export interface FormatOptions {
  /** Invocation id -> actor name, for invocations without an explicit id (see {@link actorNames}). */
  actorNames?: Readonly<Record<string, string>>;
  /** Shorten payloads longer than this many characters. */
  maxPayloadLength?: number;
}

/** Invocation ids of the machine mapped to the names of the actors they run. */
export function actorNames(machine: AnyStateMachine): Record<string, string> {
  const names: Record<string, string> = {};
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const definition of node.invoke) {
      if (typeof definition.src === 'string') names[definition.id] = definition.src;
    }
  }
  return names;
}

/** `'confirm.accept'`, `'runAction' succeeds`, `'reconnectDelay' elapses`, with any payload. */
export function formatEvent(event: AnyEventObject, options: FormatOptions = {}): string {
  const { type, ...payload } = event;
  let json = JSON.stringify(payload);
  const max = options.maxPayloadLength ?? Infinity;
  if (json.length > max) json = `${json.slice(0, Math.max(0, max - 1))}…`;
  const details = Object.keys(payload).length > 0 ? ` with ${json}` : '';
  const actor = (id: string) => options.actorNames?.[id] ?? id;
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done?.[1] !== undefined) return `'${actor(done[1])}' succeeds${details}`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (error?.[1] !== undefined) return `'${actor(error[1])}' fails${details}`;
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `'${after[1]}' elapses${details}`;
  return `'${type}'${details}`;
}

/**
 * A path as numbered steps for testers:
 * `1. Given state 'open' when 'confirm.accept' then 'busy'`.
 */
export function formatPath(
  path: StatePath<Snapshot<unknown>, AnyEventObject>,
  options: FormatOptions = {},
): string[] {
  const lines: string[] = [];
  let previous: unknown;
  for (const step of path.steps) {
    const value = (step.state as unknown as { value: unknown }).value;
    if (step.event.type === 'xstate.init') {
      previous = value;
      continue;
    }
    lines.push(
      `${lines.length + 1}. Given state '${formatStateValue(previous)}' when ` +
        `${formatEvent(step.event, options)} then '${formatStateValue(value)}'`,
    );
    previous = value;
  }
  return lines;
}

export type { StatePath, TestPath };
