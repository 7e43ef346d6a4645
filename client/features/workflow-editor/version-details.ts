import { BpmnModdle } from 'bpmn-moddle';
import {
  elementDetail,
  processElements,
  type BpmnElement,
  type ElementDetail,
} from './bpmn-conventions.ts';

/**
 * What each element of a version's BPMN does beyond the tasks and sequences the service derives
 * (its implementation, a flow's condition, a timer's duration), by element id, for the comparison
 * of two versions. Read with bpmn-moddle, the reader bpmn-js itself uses (no new bytes on the
 * editor's route), in the conventions the editor reads the diagram with (bpmn-conventions.ts); a
 * file it cannot read has no details.
 */
export async function versionDetails(xml: string): Promise<Record<string, ElementDetail>> {
  let root: BpmnElement | undefined;
  try {
    root = (await new BpmnModdle().fromXML(xml)).rootElement as BpmnElement | undefined;
  } catch {
    return {};
  }
  const details: Record<string, ElementDetail> = {};
  for (const element of processElements(root)) {
    const detail = elementDetail(element);
    if (element.id && Object.keys(detail).length) details[element.id] = detail;
  }
  return details;
}
