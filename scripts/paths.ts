/**
 * `npm run paths -- <machine>`: prints the paths `xstate/graph` generates for a statechart as
 * numbered scenarios for testers, e.g.
 * `1. Given state 'open' when 'confirm.accept' then 'busy'`.
 *
 * Options: `--all` prints every shortest path (by default only those needed to take every
 * transition), `--simple` prints the simple paths even when there are many.
 *
 * `<machine>` is the file stem in `machines/` (`token-refresh` for
 * `machines/token-refresh.machine.ts`); the export read is the camel-cased stem plus `Machine`
 * (`tokenRefreshMachine`). A machine file may also export `pathsInput` (sample input) and
 * `pathEvents` (sample events per type, for events with a payload and for the done/error/after
 * events of its invocations and delays).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyEventObject, AnyStateMachine, Snapshot } from 'xstate';
import {
  actorNames,
  coverage,
  createMachineTestModel,
  formatPath,
  formatStateValue,
  selectCoveringPaths,
  stateKeys,
  transitionPaths,
  type PathEvents,
  type StatePath as GraphStatePath,
} from '#machines/testing/model.ts';

type StatePath = GraphStatePath<Snapshot<unknown>, AnyEventObject>;

const MACHINES_DIR = fileURLToPath(new URL('../machines/', import.meta.url));
const SUFFIX = '.machine.ts';
// Simple paths grow quickly with the number of states; beyond this they are skipped.
const MAX_VERTICES_FOR_SIMPLE_PATHS = 40;
const MAX_SIMPLE_PATHS = 25;
const MAX_SIMPLE_PATHS_ON_REQUEST = 500;
// A machine whose context grows without bound (a counter) would never finish the traversal.
const TRAVERSAL_LIMIT = 5_000;

function availableMachines(): string[] {
  return readdirSync(MACHINES_DIR)
    .filter((file) => file.endsWith(SUFFIX))
    .map((file) => file.slice(0, -SUFFIX.length))
    .sort();
}

function exportName(stem: string): string {
  return `${stem.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())}Machine`;
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'transition' in value;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(argv: readonly string[]): Promise<void> {
  const available = availableMachines();
  const list = `Available machines: ${available.join(', ') || '(none)'}`;
  const requested = argv.find((arg) => !arg.startsWith('-'));
  const showAllShortest = argv.includes('--all');
  const showSimple = argv.includes('--simple');
  if (requested === undefined) {
    fail(`Usage: npm run paths -- <machine> [--all] [--simple]\n${list}`);
  }
  const stem = requested.replace(/\.machine(\.ts)?$/, '').replace(/^machines\//, '');
  if (!available.includes(stem)) {
    fail(`Unknown machine '${requested}'.\n${list}`);
  }

  const file = `machines/${stem}${SUFFIX}`;
  const module = (await import(pathToFileURL(`${MACHINES_DIR}${stem}${SUFFIX}`).href)) as Record<
    string,
    unknown
  >;
  const name = exportName(stem);
  const machine = module[name];
  if (!isMachine(machine)) {
    fail(`${file} does not export a machine named '${name}'.`);
  }
  const input = module.pathsInput;
  const events = (module.pathEvents ?? {}) as PathEvents;

  let model = createMachineTestModel(machine, { input, events, limit: TRAVERSAL_LIMIT });
  let vertexCount: number;
  let coarse = false;
  try {
    vertexCount = Object.keys(model.getAdjacencyMap()).length;
  } catch {
    // The context grows without bound (a list, a counter): tell states apart by value only.
    coarse = true;
    model = createMachineTestModel(machine, {
      input,
      events,
      limit: TRAVERSAL_LIMIT,
      ignoreContext: true,
    });
    try {
      vertexCount = Object.keys(model.getAdjacencyMap()).length;
    } catch (error) {
      fail(`${file}: the model has more than ${TRAVERSAL_LIMIT} states (${String(error)}).`);
    }
  }
  const format = { actorNames: actorNames(machine), maxPayloadLength: 100 };

  const shortest = model.getShortestPaths();
  // By default the shortest paths trimmed to those needed to take every transition, plus one path
  // for each transition no shortest path takes (into a state already reached another way).
  const scenarios = showAllShortest
    ? shortest
    : selectCoveringPaths([...shortest, ...transitionPaths(model)]);
  const seen = new Set(scenarios.map((path) => formatPath(path, format).join('\n')));
  let simple: typeof shortest = [];
  let simpleNote = '';
  // Told apart by value only, a state's self-loops (typing, reloading) make every order of them a
  // simple path of its own: their number explodes (record-edit ran for minutes), so only on request.
  if ((vertexCount <= MAX_VERTICES_FOR_SIMPLE_PATHS && !coarse) || showSimple) {
    const all = model
      .getSimplePaths()
      .filter((path) => !seen.has(formatPath(path, format).join('\n')));
    const max = showSimple ? MAX_SIMPLE_PATHS_ON_REQUEST : MAX_SIMPLE_PATHS;
    if (all.length <= max) simple = all;
    else simpleNote = `${all.length} further simple paths; print them with --simple.`;
    if (showSimple && all.length > max) {
      simple = all.slice(0, max);
      simpleNote = `First ${max} of ${all.length} further simple paths shown.`;
    }
  } else {
    simpleNote = coarse
      ? 'Simple paths skipped: states told apart by value only (force with --simple).'
      : `Simple paths skipped: ${vertexCount} model states (force with --simple).`;
  }

  const out: string[] = [];
  out.push(`${name} (${file})`);
  out.push(`States: ${stateKeys(machine).join(', ')}`);
  const initial = shortest[0]?.steps[0]?.state as { value: unknown } | undefined;
  out.push(`Starts in: '${formatStateValue(initial?.value)}'`);
  if (coarse) out.push('(Context grows without bound: states told apart by value only.)');
  out.push('');

  let scenario = 0;
  const printGroup = (title: string, paths: readonly StatePath[]) => {
    out.push(title, '');
    for (const path of paths) {
      scenario++;
      const target = formatStateValue((path.state as unknown as { value: unknown }).value);
      out.push(`Scenario ${scenario}: reach '${target}'`);
      const steps = formatPath(path, format);
      out.push(...(steps.length > 0 ? steps.map((line) => `  ${line}`) : ['  (initial state)']));
      out.push('');
    }
  };
  printGroup(
    showAllShortest
      ? `Shortest paths (${shortest.length})`
      : `Scenarios (${scenarios.length}): shortest paths that together take every transition ` +
          `(all ${shortest.length} shortest paths with --all)`,
    scenarios,
  );
  if (simple.length > 0) printGroup(`Further simple paths (${simple.length})`, simple);
  if (simpleNote !== '') out.push(simpleNote, '');

  const { missingStates, missingEvents } = coverage(machine, [...scenarios, ...simple]);
  if (missingStates.length > 0) out.push(`Not reached: ${missingStates.join(', ')}`);
  if (missingEvents.length > 0) {
    out.push(`Never taken (add samples to pathEvents?): ${missingEvents.join(', ')}`);
  }
  if (missingStates.length === 0 && missingEvents.length === 0) {
    out.push('Every state is reached and every event is taken.');
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

await main(process.argv.slice(2));
