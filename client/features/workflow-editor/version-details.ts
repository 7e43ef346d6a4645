import { BpmnModdle } from 'bpmn-moddle';
import { conditionText, type ElementDetail } from './bpmn-conventions.ts';

/** The few moddle properties read here. */
interface ModdleElement {
  $type: string;
  id?: string;
  implementation?: string;
  flowElements?: ModdleElement[];
  rootElements?: ModdleElement[];
  conditionExpression?: { body?: string };
  eventDefinitions?: {
    $type: string;
    timeDuration?: { body?: string };
    timeDate?: { body?: string };
    timeCycle?: { body?: string };
  }[];
}

/**
 * What each element of a version's BPMN does beyond the tasks and sequences the service derives
 * (its implementation, a flow's condition, a timer's duration), by element id, for the comparison
 * of two versions. Read with bpmn-moddle, the reader bpmn-js itself uses (no new bytes on the
 * editor's route); a file it cannot read has no details.
 */
export async function versionDetails(xml: string): Promise<Record<string, ElementDetail>> {
  const details: Record<string, ElementDetail> = {};
  let root: ModdleElement | undefined;
  try {
    root = (await new BpmnModdle().fromXML(xml)).rootElement as ModdleElement | undefined;
  } catch {
    return details;
  }
  const walk = (elements: readonly ModdleElement[]) => {
    for (const el of elements) {
      const detail: ElementDetail = {};
      if (el.implementation) detail.implementation = el.implementation;
      if (el.conditionExpression) detail.condition = conditionText(el.conditionExpression.body);
      const timer = el.eventDefinitions?.find((d) => d.$type === 'bpmn:TimerEventDefinition');
      if (timer) {
        const when = timer.timeDuration ?? timer.timeDate ?? timer.timeCycle;
        detail.timer = (when?.body ?? '').trim();
      }
      if (el.id && Object.keys(detail).length) details[el.id] = detail;
      if (el.flowElements) walk(el.flowElements);
    }
  };
  for (const process of root?.rootElements ?? []) {
    if (process.$type === 'bpmn:Process') walk(process.flowElements ?? []);
  }
  return details;
}
