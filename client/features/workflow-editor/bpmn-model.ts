import type { Element } from 'bpmn-js/lib/model/Types';
import type { BpmnInstance } from './bpmn-canvas.tsx';
import {
  DURATION,
  conditionText,
  decisionTableOf,
  formatTaskSpec,
  parseTaskSpec,
  timerDefinitionOf,
  type BpmnElement,
  type TaskParam,
  type TaskSpec,
} from './bpmn-conventions.ts';

/**
 * The editor's reading and writing of the diagram through bpmn-js's services (modeling, moddle,
 * replace, selection), in the conventions of bpmn-conventions.ts. Everything goes through
 * `modeling`, so that each change is one step of the command stack (undo, redo, "unsaved").
 */

/** An element's business object: bpmn-js types it as any; on the canvas it always has an id. */
type BusinessObject = BpmnElement & { id: string };

export const businessObjectOf = (element: Element): BusinessObject =>
  element.businessObject as BusinessObject;

/** The service task types the registry's seed uses, with the parameters each one needs. */
export const REQUIRED_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'claim.setStatus': ['status'],
  'notification.sendEmail': ['to', 'subject'],
  'lead.createFollowUp': [],
};

/** The parameters a type knows, for the panel to offer (besides any the user adds). */
export const KNOWN_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'claim.setStatus': ['status', 'claimCode'],
  'notification.sendEmail': ['to', 'subject', 'text'],
  'lead.createFollowUp': ['note', 'dueInDays', 'leadCode'],
};

/**
 * A service task's `implementation` from the panel's rows. A parameter the type knows and left
 * blank is left out: the panel offers it again as an empty row, and written as `text=` it would
 * be saved with the version and show as a change in the comparison. A row the user added stays
 * while blank: it is being named.
 */
export function taskImplementation(type: string, params: readonly TaskParam[]): string {
  const known = KNOWN_PARAMS[type] ?? [];
  return formatTaskSpec({
    type,
    params: params.filter((p) => p.value.trim() || !known.includes(p.name.trim())),
  });
}

/** The kinds of task the panel lets a task become (the ones the engine runs). */
export const TASK_KINDS = [
  'bpmn:Task',
  'bpmn:UserTask',
  'bpmn:ServiceTask',
  'bpmn:BusinessRuleTask',
] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const isTaskKind = (type: string): type is TaskKind =>
  (TASK_KINDS as readonly string[]).includes(type);

export const timerOf = (element: Element) => timerDefinitionOf(businessObjectOf(element));

/** A flow out of a gateway that chooses (exclusive or inclusive): it may carry a condition. */
/** Whether the flow is its gateway's default (taken when no condition holds). */
export function isDefaultFlow(element: Element): boolean {
  const gateway = (element as { source?: Element }).source;
  return (
    !!gateway &&
    (gateway.businessObject as { default?: unknown }).default === element.businessObject
  );
}

export function isConditionalFlow(element: Element): boolean {
  const bo = businessObjectOf(element);
  if (bo.$type !== 'bpmn:SequenceFlow') return false;
  const source = bo.sourceRef?.$type ?? '';
  return source === 'bpmn:ExclusiveGateway' || source === 'bpmn:InclusiveGateway';
}

/** What the panel shows of an element. */
export interface ElementProps {
  id: string;
  type: string;
  name: string;
  task: TaskSpec | null;
  decisionTable: string | null;
  condition: string | null;
  duration: string | null;
}

export function propsOf(element: Element): ElementProps {
  const bo = businessObjectOf(element);
  const timer = timerOf(element);
  return {
    id: bo.id,
    type: bo.$type,
    name: bo.name ?? '',
    task: bo.$type === 'bpmn:ServiceTask' ? parseTaskSpec(bo.implementation) : null,
    decisionTable: bo.$type === 'bpmn:BusinessRuleTask' ? decisionTableOf(bo.implementation) : null,
    condition: isConditionalFlow(element) ? conditionText(bo.conditionExpression?.body) : null,
    duration: timer ? (timer.timeDuration?.body ?? '') : null,
  };
}

interface Modeling {
  updateProperties(element: Element, properties: Record<string, unknown>): void;
  updateModdleProperties(element: Element, moddleElement: unknown, properties: object): void;
}
interface Moddle {
  create(type: string, attrs?: Record<string, unknown>): unknown;
}
interface BpmnReplace {
  replaceElement(element: Element, target: Record<string, unknown>): Element;
}
interface Selection {
  select(element: Element | null): void;
  get(): Element[];
}
export interface ElementRegistry {
  getAll(): Element[];
  get(id: string): Element | undefined;
}

const service = <T>(instance: BpmnInstance, name: string) => instance.get<T>(name);

export const registryOf = (instance: BpmnInstance) =>
  service<ElementRegistry>(instance, 'elementRegistry');

export function selectElement(instance: BpmnInstance, id: string): void {
  const element = registryOf(instance).get(id);
  if (element) service<Selection>(instance, 'selection').select(element);
}

/** The modelling operations of the properties panel (a Modeler only). */
export function editorOf(instance: BpmnInstance) {
  const modeling = service<Modeling>(instance, 'modeling');
  const moddle = service<Moddle>(instance, 'moddle');
  const expression = (body: string) => moddle.create('bpmn:FormalExpression', { body });
  return {
    setName: (element: Element, name: string) =>
      modeling.updateProperties(element, { name: name || undefined }),
    setImplementation: (element: Element, implementation: string) =>
      modeling.updateProperties(element, { implementation: implementation || undefined }),
    setCondition: (element: Element, body: string) =>
      modeling.updateProperties(element, {
        conditionExpression: body ? expression(body) : undefined,
      }),
    setDuration: (element: Element, duration: string) => {
      const timer = timerOf(element);
      if (timer)
        modeling.updateModdleProperties(element, timer, { timeDuration: expression(duration) });
    },
    /** The flow a choosing gateway takes when no condition holds (or none, `on` false). */
    setDefaultFlow: (flow: Element, on: boolean) => {
      const gateway = (flow as { source?: Element }).source;
      if (gateway)
        modeling.updateProperties(gateway, { default: on ? flow.businessObject : undefined });
    },
    /** Another kind of task (or a timer for an intermediate event): bpmn-js replaces the shape. */
    replace: (element: Element, target: Record<string, unknown>) => {
      const replaced = service<BpmnReplace>(instance, 'bpmnReplace').replaceElement(
        element,
        target,
      );
      service<Selection>(instance, 'selection').select(replaced);
      return replaced;
    },
  };
}

/** The elements of the diagram a user picks from (no labels, no root, no diagram planes). */
export function pickableElements(instance: BpmnInstance): Element[] {
  return registryOf(instance)
    .getAll()
    .filter((e) => {
      const bo = e.businessObject as BusinessObject | undefined;
      return (
        bo &&
        e.type !== 'label' &&
        bo.$type !== 'bpmn:Process' &&
        bo.$type !== 'bpmn:Collaboration' &&
        !(e as { labelTarget?: unknown }).labelTarget
      );
    });
}

export interface DiagramProblem {
  code:
    | 'no_start_event'
    | 'no_task_type'
    | 'unknown_task_type'
    | 'missing_param'
    | 'no_decision_table'
    | 'bad_duration';
  element: string;
  /** The parameter missing, for `missing_param`. */
  param?: string;
}

/**
 * What the service or the engine would refuse, found before sending: a process without a start
 * event, a service task without a type of the registry or without a parameter its type needs, a
 * rule task without a decision table, a timer without an ISO 8601 duration.
 */
export function diagramProblems(
  instance: BpmnInstance,
  taskTypes: readonly string[],
): DiagramProblem[] {
  const problems: DiagramProblem[] = [];
  const elements = pickableElements(instance);
  if (!elements.some((e) => businessObjectOf(e).$type === 'bpmn:StartEvent')) {
    problems.push({ code: 'no_start_event', element: '' });
  }
  for (const element of elements) {
    const p = propsOf(element);
    if (p.task) {
      if (!p.task.type) problems.push({ code: 'no_task_type', element: p.id });
      else if (!taskTypes.includes(p.task.type))
        problems.push({ code: 'unknown_task_type', element: p.id });
      else {
        for (const param of REQUIRED_PARAMS[p.task.type] ?? []) {
          if (!p.task.params.some((x) => x.name === param && x.value.trim()))
            problems.push({ code: 'missing_param', element: p.id, param });
        }
      }
    }
    if (p.decisionTable === '') problems.push({ code: 'no_decision_table', element: p.id });
    if (p.duration !== null && !DURATION.test(p.duration.trim()))
      problems.push({ code: 'bad_duration', element: p.id });
  }
  return problems;
}

/** An element's name for the user: its name, else its id. */
export function elementLabel(instance: BpmnInstance, id: string): string {
  const element = registryOf(instance).get(id);
  return (element && businessObjectOf(element).name) || id;
}
