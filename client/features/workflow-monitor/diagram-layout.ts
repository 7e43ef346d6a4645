/**
 * A drawing for a BPMN without one. The sandbox's seeded versions (and files written by hand or
 * by other tools) carry only the process, no diagram interchange (BPMNDI): bpmn-js then has
 * nothing to draw. Rather than ship a layout library to the monitor, the process is laid out
 * here, left to right by the order its flows reach each element, one row per branch: enough for
 * the monitor's question, "where did this instance go", on the small processes of a workspace.
 * A version saved by the editor has its own diagram and is drawn as drawn.
 */

// A moddle tree, loosely typed: bpmn-moddle ships no types for its elements.
/* eslint-disable @typescript-eslint/no-explicit-any -- moddle elements */
export interface ModdleFactory {
  create(type: string, attrs?: Record<string, unknown>): any;
}

const COLUMN = 170;
const ROW = 130;
const LEFT = 40;
const TOP = 60;

function sizeOf(type: string): { width: number; height: number } {
  if (/Event$/.test(type)) return { width: 36, height: 36 };
  if (/Gateway$/.test(type)) return { width: 50, height: 50 };
  return { width: 100, height: 80 };
}

/** Whether the definitions hold a diagram to draw. */
export const hasDiagram = (definitions: any): boolean =>
  Array.isArray(definitions?.diagrams) && definitions.diagrams.length > 0;

/**
 * Adds a diagram of the first process to `definitions` (in place). Columns: the number of flows
 * from a start event on the shortest way (a loop back does not push an element right); rows: the
 * order elements reach a column.
 */
export function addLayout(moddle: ModdleFactory, definitions: any): void {
  const process = (definitions.rootElements ?? []).find((e: any) => e.$type === 'bpmn:Process');
  if (!process) return;
  const elements: any[] = process.flowElements ?? [];
  const flows = elements.filter((e) => e.$type === 'bpmn:SequenceFlow');
  const nodes = elements.filter((e) => e.$type !== 'bpmn:SequenceFlow');

  const column = new Map<string, number>();
  const queue = nodes.filter((n) => n.$type === 'bpmn:StartEvent');
  for (const start of queue) column.set(start.id, 0);
  while (queue.length) {
    const node = queue.shift();
    for (const flow of flows.filter((f) => f.sourceRef?.id === node.id)) {
      const target = flow.targetRef;
      if (target && !column.has(target.id)) {
        column.set(target.id, column.get(node.id)! + 1);
        queue.push(target);
      }
    }
  }
  // Elements no flow reaches (a boundary event, a stray task) go after the rest.
  const last = Math.max(0, ...column.values());
  for (const node of nodes) if (!column.has(node.id)) column.set(node.id, last + 1);

  const rows = new Map<number, number>();
  const centre = new Map<string, { x: number; y: number }>();
  const shapes: any[] = [];
  for (const node of nodes) {
    const col = column.get(node.id)!;
    const row = rows.get(col) ?? 0;
    rows.set(col, row + 1);
    const size = sizeOf(node.$type);
    const x = LEFT + col * COLUMN + 50;
    const y = TOP + row * ROW + 40;
    centre.set(node.id, { x, y });
    shapes.push(
      moddle.create('bpmndi:BPMNShape', {
        id: `${node.id}_di`,
        bpmnElement: node,
        ...(node.$type === 'bpmn:ExclusiveGateway' ? { isMarkerVisible: true } : {}),
        bounds: moddle.create('dc:Bounds', {
          x: x - size.width / 2,
          y: y - size.height / 2,
          width: size.width,
          height: size.height,
        }),
      }),
    );
  }

  const edges = flows.map((flow) => {
    const from = centre.get(flow.sourceRef?.id);
    const to = centre.get(flow.targetRef?.id);
    const points: { x: number; y: number }[] = [];
    if (from && to) {
      const fromSize = sizeOf(flow.sourceRef.$type);
      const toSize = sizeOf(flow.targetRef.$type);
      const start = { x: from.x + fromSize.width / 2, y: from.y };
      const end = { x: to.x - toSize.width / 2, y: to.y };
      if (to.x > from.x && to.y === from.y) {
        points.push(start, end);
      } else if (to.x > from.x) {
        // Out of the side, then up or down to the target's row, then in.
        const bend = (start.x + end.x) / 2;
        points.push(start, { x: bend, y: start.y }, { x: bend, y: end.y }, end);
      } else {
        // Back to an earlier column: under both, so the line does not cross the shapes.
        const below = Math.max(from.y + fromSize.height / 2, to.y + toSize.height / 2) + 30;
        const out = { x: from.x, y: from.y + fromSize.height / 2 };
        const into = { x: to.x, y: to.y + toSize.height / 2 };
        points.push(out, { x: out.x, y: below }, { x: into.x, y: below }, into);
      }
    }
    return moddle.create('bpmndi:BPMNEdge', {
      id: `${flow.id}_di`,
      bpmnElement: flow,
      waypoint: points.map((p) => moddle.create('dc:Point', p)),
    });
  });

  const plane = moddle.create('bpmndi:BPMNPlane', {
    id: `${process.id}_plane`,
    bpmnElement: process,
    planeElement: [...shapes, ...edges],
  });
  definitions.diagrams = [
    moddle.create('bpmndi:BPMNDiagram', { id: `${process.id}_diagram`, plane }),
  ];
}
