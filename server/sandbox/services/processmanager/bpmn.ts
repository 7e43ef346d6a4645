import { BpmnModdle } from 'bpmn-moddle';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { isTaskType, parseTaskSpec, taskParamsProblem } from './task-registry.ts';

/**
 * A workflow version's BPMN, read with bpmn-moddle (never regular expressions): the tasks
 * {key, name, type} and sequences {key, source, target} the spec derives from it, and the checks
 * a deployment must pass before anything is saved.
 */

export interface WorkflowTask {
  key: string;
  name: string | null;
  type: string;
}
export interface WorkflowSequence {
  key: string;
  source: string;
  target: string;
}
export interface ParsedBpmn {
  tasks: WorkflowTask[];
  sequences: WorkflowSequence[];
}

interface ModdleElement {
  $type: string;
  id?: string;
  name?: string;
  implementation?: string;
  flowElements?: ModdleElement[];
  rootElements?: ModdleElement[];
  sourceRef?: { id: string };
  targetRef?: { id: string };
}

const invalidBpmn = (message: string) => new HttpError(400, 'invalid_bpmn', message);

/** `bpmn:ServiceTask` -> `serviceTask`: the type as the BPMN file names its element. */
const typeName = ($type: string) => {
  const local = $type.replace(/^bpmn:/, '');
  return local.charAt(0).toLowerCase() + local.slice(1);
};

function walk(elements: readonly ModdleElement[], out: ParsedBpmn): void {
  for (const el of elements) {
    if (el.$type === 'bpmn:SequenceFlow') {
      out.sequences.push({
        key: el.id ?? '',
        source: el.sourceRef?.id ?? '',
        target: el.targetRef?.id ?? '',
      });
      continue;
    }
    out.tasks.push({ key: el.id ?? '', name: el.name ?? null, type: typeName(el.$type) });
    if (el.flowElements) walk(el.flowElements, out);
  }
}

/** Parses and checks a BPMN file; a 400 `invalid_bpmn` names what is wrong. */
export async function parseBpmn(xml: string): Promise<ParsedBpmn> {
  let root: ModdleElement;
  let warnings: { message: string }[];
  try {
    const result = await new BpmnModdle().fromXML(xml);
    root = result.rootElement as unknown as ModdleElement;
    warnings = result.warnings as { message: string }[];
  } catch (err) {
    throw invalidBpmn(`the file is not BPMN 2.0 XML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (root.$type !== 'bpmn:Definitions') throw invalidBpmn('the file holds no BPMN definitions');
  // An element bpmn-moddle did not understand would silently not run: refuse it instead.
  if (warnings.length) throw invalidBpmn(`the BPMN is not valid: ${warnings[0]!.message}`);
  const processes = (root.rootElements ?? []).filter((el) => el.$type === 'bpmn:Process');
  if (!processes.length) throw invalidBpmn('the BPMN has no process');
  const out: ParsedBpmn = { tasks: [], sequences: [] };
  for (const process of processes) walk(process.flowElements ?? [], out);
  if (!out.tasks.some((t) => t.type === 'startEvent'))
    throw invalidBpmn('the process has no start event');
  checkImplementations(processes);
  return out;
}

/** Every service task names a type of the registry, every rule task a decision table. */
function checkImplementations(elements: readonly ModdleElement[]): void {
  for (const el of elements) {
    if (el.$type === 'bpmn:ServiceTask') {
      const spec = parseTaskSpec(el.implementation ?? '');
      if (!isTaskType(spec.type)) {
        throw new HttpError(
          400,
          'unknown_task_type',
          `service task ${el.id}: unknown task type "${spec.type}"`,
          { taskKey: el.id, taskType: spec.type },
        );
      }
      // Parameters a task could never run with (an http.call out of the sandbox) are refused here.
      const problem = taskParamsProblem(spec.type, spec.params);
      if (problem) throw invalidBpmn(`service task ${el.id}: ${problem}`);
    }
    if (
      el.$type === 'bpmn:BusinessRuleTask' &&
      !/^dmn:[\w-]{1,80}$/.test(el.implementation ?? '')
    ) {
      throw invalidBpmn(
        `business rule task ${el.id}: implementation must be dmn:<decision table code>`,
      );
    }
    if (el.flowElements) checkImplementations(el.flowElements);
  }
}
