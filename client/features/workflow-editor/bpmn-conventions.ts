/**
 * How a workflow's BPMN says what the sandbox's engine does (server/sandbox/services/
 * processmanager: task-registry.ts, engine.ts, bpmn.ts), as plain BPMN 2.0 without a vendor's
 * extension:
 * - a service task names its type in `implementation`, with parameters as a query string
 *   (`claim.setStatus?status=approved`);
 * - a business rule task names its decision table: `implementation="dmn:claim-routing"`;
 * - a sequence flow's condition is FEEL inside `${...}` (`${route = "fast-track"}`);
 * - a timer waits for an ISO 8601 duration (`P1D`, `PT2H`).
 * Pure functions, so the editor, the example page and the tests share them without bpmn-js.
 */

export interface TaskParam {
  name: string;
  value: string;
}

export interface TaskSpec {
  type: string;
  params: TaskParam[];
}

/** `type?a=1&b=2` -> the type and its parameters, in the order written. */
export function parseTaskSpec(implementation: string | undefined | null): TaskSpec {
  const text = implementation ?? '';
  const at = text.indexOf('?');
  const type = (at < 0 ? text : text.slice(0, at)).trim();
  const params = [...new URLSearchParams(at < 0 ? '' : text.slice(at + 1))].map(
    ([name, value]) => ({ name, value }),
  );
  return { type, params };
}

/** The type and its parameters as `implementation`; parameters without a name are left out. */
export function formatTaskSpec(spec: TaskSpec): string {
  const query = new URLSearchParams();
  for (const p of spec.params) if (p.name.trim()) query.append(p.name.trim(), p.value);
  const text = query.toString();
  return text ? `${spec.type}?${text}` : spec.type;
}

/** `type?a=1&b=x%40y` -> `type (a=1, b=x@y)`: an implementation as a person reads it. */
export function implementationText(implementation: string): string {
  const spec = parseTaskSpec(implementation);
  const params = spec.params.map((p) => `${p.name}=${p.value}`).join(', ');
  return params ? `${spec.type} (${params})` : spec.type;
}

const DMN_PREFIX = 'dmn:';

/** The decision table code of a business rule task's `implementation` ('' when none). */
export const decisionTableOf = (implementation: string | undefined | null): string =>
  implementation?.startsWith(DMN_PREFIX) ? implementation.slice(DMN_PREFIX.length) : '';

export const ruleImplementation = (tableCode: string): string =>
  tableCode ? `${DMN_PREFIX}${tableCode}` : '';

/** `${route = "x"}` -> `route = "x"`: the FEEL the user writes. */
export function conditionText(body: string | undefined | null): string {
  const text = (body ?? '').trim();
  const match = /^\$\{([\s\S]*)\}$/.exec(text);
  return match ? match[1]!.trim() : text;
}

/** The FEEL the user wrote as the engine reads it; '' for no condition. */
export const conditionBody = (feel: string): string => (feel.trim() ? `\${${feel.trim()}}` : '');

/** An ISO 8601 duration the engine's timers understand (P1D, PT30M, P1DT2H). */
export const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;

/** A new workflow's first drawing: a start event, as every process the service takes has one. */
export const NEW_DIAGRAM = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="Definitions_1" targetNamespace="https://demo.test/bpmn">
  <bpmn:process id="Process_1" isExecutable="true">
    <bpmn:startEvent id="StartEvent_1" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="Process_1">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="152" y="142" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;

/** One change between two versions, as the service derives tasks and sequences. */
export type VersionChange =
  | { kind: 'task_added' | 'task_removed'; key: string; name: string | null; type: string }
  | { kind: 'task_renamed'; key: string; from: string | null; to: string | null }
  | { kind: 'task_type_changed'; key: string; name: string | null; from: string; to: string }
  | {
      /** A service task's type or parameters, a rule task's table, a timer's duration. */
      kind: 'implementation_changed' | 'decision_table_changed' | 'timer_changed';
      key: string;
      name: string | null;
      from: string;
      to: string;
    }
  | { kind: 'sequence_added' | 'sequence_removed'; key: string; source: string; target: string }
  | {
      kind: 'sequence_repointed';
      key: string;
      fromSource: string;
      fromTarget: string;
      source: string;
      target: string;
    }
  | {
      kind: 'condition_changed';
      key: string;
      source: string;
      target: string;
      from: string;
      to: string;
    };

/** What an element of a version does beyond its name and type (elementDetail reads it). */
export interface ElementDetail {
  /** A service task's `type?params`, a rule task's `dmn:<code>`. */
  implementation?: string;
  /** A sequence flow's FEEL condition as the user writes it. */
  condition?: string;
  /** A timer event's ISO 8601 duration. */
  timer?: string;
}

/**
 * The few moddle properties of a BPMN element the client reads: the same objects whether
 * bpmn-js holds them (an element's business object) or bpmn-moddle read a file for them.
 */
export interface BpmnElement {
  $type: string;
  id?: string;
  name?: string;
  implementation?: string;
  conditionExpression?: { body?: string };
  eventDefinitions?: TimerDefinition[];
  sourceRef?: { $type: string };
  flowElements?: BpmnElement[];
  rootElements?: BpmnElement[];
}

export interface TimerDefinition {
  $type: string;
  timeDuration?: { body?: string };
  timeDate?: { body?: string };
  timeCycle?: { body?: string };
}

/** A timer event's definition (the engine's timers wait for its duration), if it is one. */
export const timerDefinitionOf = (element: BpmnElement): TimerDefinition | undefined =>
  element.eventDefinitions?.find((d) => d.$type === 'bpmn:TimerEventDefinition');

/** What one element does beyond its name and type; empty for an element that does nothing more. */
export function elementDetail(element: BpmnElement): ElementDetail {
  const detail: ElementDetail = {};
  if (element.implementation) detail.implementation = element.implementation;
  if (element.conditionExpression)
    detail.condition = conditionText(element.conditionExpression.body);
  const timer = timerDefinitionOf(element);
  if (timer) {
    const when = timer.timeDuration ?? timer.timeDate ?? timer.timeCycle;
    detail.timer = (when?.body ?? '').trim();
  }
  return detail;
}

/** The elements of a file's processes (definitions' root elements), those inside others too. */
export function processElements(definitions: BpmnElement | undefined): BpmnElement[] {
  const all: BpmnElement[] = [];
  const walk = (elements: readonly BpmnElement[]) => {
    for (const element of elements) {
      all.push(element);
      if (element.flowElements) walk(element.flowElements);
    }
  };
  for (const root of definitions?.rootElements ?? []) {
    if (root.$type === 'bpmn:Process') walk(root.flowElements ?? []);
  }
  return all;
}

interface VersionShape {
  tasks: readonly { key: string; name: string | null; type: string }[];
  sequences: readonly { key: string; source: string; target: string }[];
  /** By element id; without it only names, types and flows are compared. */
  details?: Readonly<Record<string, ElementDetail>>;
}

/** The changes of what one element does, kept in both versions under the same id. */
function detailChanges(
  key: string,
  name: string | null,
  type: string,
  before: ElementDetail,
  now: ElementDetail,
): VersionChange[] {
  const changes: VersionChange[] = [];
  const from = before.implementation ?? '';
  const to = now.implementation ?? '';
  if (from !== to) {
    changes.push(
      type === 'businessRuleTask'
        ? {
            kind: 'decision_table_changed',
            key,
            name,
            from: decisionTableOf(from) || from,
            to: decisionTableOf(to) || to,
          }
        : { kind: 'implementation_changed', key, name, from, to },
    );
  }
  if ((before.timer ?? '') !== (now.timer ?? ''))
    changes.push({
      kind: 'timer_changed',
      key,
      name,
      from: before.timer ?? '',
      to: now.timer ?? '',
    });
  return changes;
}

/**
 * What changed from `previous` to `current`: elements told apart by their id (the key the
 * service gives), so a renamed task is the same task, a flow drawn to another element under the
 * same id is re-pointed, and a redrawn flow between the same two elements under another id is
 * one removed and one added. With the versions' details, what a task does (its service type and
 * parameters, its decision table), a timer's duration and a flow's condition count too. Removals
 * first, in the previous version's order, then the rest in the current one's.
 */
export function compareVersions(previous: VersionShape, current: VersionShape): VersionChange[] {
  const changes: VersionChange[] = [];
  const taskNow = new Map(current.tasks.map((t) => [t.key, t]));
  const taskBefore = new Map(previous.tasks.map((t) => [t.key, t]));
  const seqNow = new Set(current.sequences.map((s) => s.key));
  const seqBefore = new Map(previous.sequences.map((s) => [s.key, s]));
  const detailBefore = (key: string) => previous.details?.[key] ?? {};
  const detailNow = (key: string) => current.details?.[key] ?? {};
  for (const t of previous.tasks) {
    if (!taskNow.has(t.key))
      changes.push({ kind: 'task_removed', key: t.key, name: t.name, type: t.type });
  }
  for (const s of previous.sequences) {
    if (!seqNow.has(s.key)) changes.push({ kind: 'sequence_removed', ...s });
  }
  for (const t of current.tasks) {
    const before = taskBefore.get(t.key);
    if (!before) {
      changes.push({ kind: 'task_added', key: t.key, name: t.name, type: t.type });
      continue;
    }
    if (before.type !== t.type) {
      changes.push({
        kind: 'task_type_changed',
        key: t.key,
        name: t.name,
        from: before.type,
        to: t.type,
      });
    }
    if ((before.name ?? '') !== (t.name ?? '')) {
      changes.push({ kind: 'task_renamed', key: t.key, from: before.name, to: t.name });
    }
    if (previous.details && current.details)
      changes.push(...detailChanges(t.key, t.name, t.type, detailBefore(t.key), detailNow(t.key)));
  }
  for (const s of current.sequences) {
    const before = seqBefore.get(s.key);
    if (!before) {
      changes.push({ kind: 'sequence_added', ...s });
      continue;
    }
    if (before.source !== s.source || before.target !== s.target) {
      changes.push({
        kind: 'sequence_repointed',
        key: s.key,
        fromSource: before.source,
        fromTarget: before.target,
        source: s.source,
        target: s.target,
      });
    }
    const from = detailBefore(s.key).condition ?? '';
    const to = detailNow(s.key).condition ?? '';
    if (previous.details && current.details && from !== to)
      changes.push({ kind: 'condition_changed', ...s, from, to });
  }
  return changes;
}

/** The elements of the current version to mark on the canvas (what was added or changed). */
export const changedKeys = (changes: readonly VersionChange[]): string[] => [
  ...new Set(
    changes
      .filter((c) => c.kind !== 'task_removed' && c.kind !== 'sequence_removed')
      .map((c) => c.key),
  ),
];
