/**
 * A drawing for a BPMN file that has none. The service takes BPMN without diagram interchange
 * (the seeded workflows are written by hand, and a file may come from a tool that draws
 * nothing), but bpmn-js shows only what a `BPMNDiagram` places. Such a file gets a plain left-to-
 * right layout here before it is shown: each element one column after the one before it, the
 * branches of a gateway one row under the other, flows as straight lines. A file with a drawing is
 * left exactly as it is; saving from the editor stores the drawing with the next version.
 */

const MODEL = 'http://www.omg.org/spec/BPMN/20100524/MODEL';
const BPMNDI = 'http://www.omg.org/spec/BPMN/20100524/DI';
const DC = 'http://www.omg.org/spec/DD/20100524/DC';
const DI = 'http://www.omg.org/spec/DD/20100524/DI';

// Children of a process that are not drawn as flow nodes.
const NOT_NODES = new Set([
  'sequenceFlow',
  'laneSet',
  'documentation',
  'extensionElements',
  'association',
  'textAnnotation',
  'dataObject',
  'ioSpecification',
  'property',
]);

const COLUMN = 170;
const ROW = 120;
const LEFT = 80;
const TOP = 80;

interface Size {
  width: number;
  height: number;
}

/** The size bpmn-js gives the element kind by default. */
export function sizeOf(localName: string): Size {
  if (/Event$/.test(localName)) return { width: 36, height: 36 };
  if (/Gateway$/.test(localName)) return { width: 50, height: 50 };
  return { width: 100, height: 80 };
}

export interface LayoutNode {
  id: string;
  kind: string;
}
export interface LayoutFlow {
  id: string;
  source: string;
  target: string;
}
export interface Placed {
  id: string;
  /** The element's kind (its BPMN local name), when known. */
  kind?: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Columns by the longest way from a node nothing leads to (a start), so that every flow but a
 * loop's way back goes to the right: two branches that meet again meet after the longer one
 * (by the shortest way, the meeting point stood beside the longer branch's last step and its flow
 * ran back). Rows in the order of the nodes; a loop nothing leads into starts at the left.
 */
export function layOut(nodes: readonly LayoutNode[], flows: readonly LayoutFlow[]): Placed[] {
  const ids = new Set(nodes.map((n) => n.id));
  const out = new Map<string, string[]>();
  const incoming = new Set<string>();
  for (const f of flows) {
    if (!ids.has(f.source) || !ids.has(f.target)) continue;
    out.set(f.source, [...(out.get(f.source) ?? []), f.target]);
    incoming.add(f.target);
  }
  // A walk from the starts (then from whatever it did not reach) finds each loop's way back;
  // the other flows form no loop, and the walk's finishing order reversed is theirs.
  const back = new Set<string>();
  const walking = new Set<string>();
  const finished: string[] = [];
  const seen = new Set<string>();
  const walk = (id: string) => {
    seen.add(id);
    walking.add(id);
    for (const next of out.get(id) ?? []) {
      if (walking.has(next)) back.add(`${id}\n${next}`);
      else if (!seen.has(next)) walk(next);
    }
    walking.delete(id);
    finished.push(id);
  };
  for (const n of nodes) if (!incoming.has(n.id) && !seen.has(n.id)) walk(n.id);
  for (const n of nodes) if (!seen.has(n.id)) walk(n.id);
  const column = new Map<string, number>();
  for (const id of finished.reverse()) {
    const at = column.get(id) ?? 0;
    column.set(id, at);
    for (const next of out.get(id) ?? []) {
      if (!back.has(`${id}\n${next}`)) column.set(next, Math.max(column.get(next) ?? 0, at + 1));
    }
  }
  const rows = new Map<number, number>();
  return nodes.map((n) => {
    const col = column.get(n.id) ?? 0;
    const row = rows.get(col) ?? 0;
    rows.set(col, row + 1);
    const size = sizeOf(n.kind);
    // Centred in its cell, so that a flow between two elements of a row is straight.
    return {
      id: n.id,
      kind: n.kind,
      x: LEFT + col * COLUMN + (100 - size.width) / 2,
      y: TOP + row * ROW + (80 - size.height) / 2,
      ...size,
    };
  });
}

export interface Point {
  x: number;
  y: number;
}

const middleY = (p: Placed) => p.y + p.height / 2;

/**
 * How far inside its bounds an element's bottom (top) edge is `dx` right of its middle: a
 * gateway's edge slants from its bottom corner to its right one, an event's is a circle.
 */
function edgeInset(shape: Placed, dx: number): number {
  const kind = shape.kind ?? '';
  if (/Gateway$/.test(kind)) return (dx * shape.height) / shape.width;
  if (/Event$/.test(kind)) {
    const r = shape.width / 2;
    return r - Math.sqrt(r * r - dx * dx);
  }
  return 0;
}

/**
 * The waypoints of each flow between placed elements. A flow in its row is a straight line; one
 * into another row goes across first, then down or up in the gap before its target, so the line
 * does not cut the shapes. The flows out of a branching element (a gateway) each have a line of
 * their own: the one in the row leaves to the right, the others from the bottom (or top) edge,
 * each at its own point, down (or up) to their target's row and across into it; so no two share
 * a segment (a default flow drawn over a conditional one hides which is which).
 */
export function routeFlows(
  flows: readonly LayoutFlow[],
  placed: ReadonlyMap<string, Placed>,
): Map<string, Point[]> {
  const routes = new Map<string, Point[]>();
  const drawn = flows.filter((f) => placed.has(f.source) && placed.has(f.target));
  const bySource = new Map<string, LayoutFlow[]>();
  for (const f of drawn) bySource.set(f.source, [...(bySource.get(f.source) ?? []), f]);
  for (const [source, out] of bySource) {
    const from = placed.get(source)!;
    const fromY = middleY(from);
    const straight = out.find((f) => middleY(placed.get(f.target)!) === fromY);
    if (straight) {
      const to = placed.get(straight.target)!;
      routes.set(straight.id, [
        { x: from.x + from.width, y: fromY },
        { x: to.x, y: middleY(to) },
      ]);
    }
    const turning = out.filter((f) => f !== straight);
    if (out.length === 1) {
      for (const f of turning) {
        const to = placed.get(f.target)!;
        const gap = to.x - 30;
        routes.set(f.id, [
          { x: from.x + from.width, y: fromY },
          { x: gap, y: fromY },
          { x: gap, y: middleY(to) },
          { x: to.x, y: middleY(to) },
        ]);
      }
      continue;
    }
    // A branch: below and above apart, each side's flows leaving at their own points of the
    // edge, the nearest target from the middle.
    for (const down of [true, false]) {
      const side = turning
        .filter((f) => middleY(placed.get(f.target)!) > fromY === down)
        .sort(
          (a, b) =>
            Math.abs(middleY(placed.get(a.target)!) - fromY) -
            Math.abs(middleY(placed.get(b.target)!) - fromY),
        );
      side.forEach((f, k) => {
        const to = placed.get(f.target)!;
        const dx = (k * from.width) / 2 / side.length;
        const inset = edgeInset(from, dx);
        const x = from.x + from.width / 2 + dx;
        const y = down ? from.y + from.height - inset : from.y + inset;
        routes.set(f.id, [
          { x, y },
          { x, y: middleY(to) },
          { x: to.x, y: middleY(to) },
        ]);
      });
    }
  }
  return routes;
}

/** The XML with a drawing: unchanged when it has one (or is no XML the browser reads). */
export function withLayout(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return xml;
  if (doc.getElementsByTagNameNS(BPMNDI, 'BPMNDiagram').length) return xml;
  const root = doc.documentElement;
  const process = doc.getElementsByTagNameNS(MODEL, 'process')[0];
  if (!process) return xml;
  const children = [...process.children].filter((c) => c.namespaceURI === MODEL);
  const nodes = children
    .filter((c) => !NOT_NODES.has(c.localName) && c.getAttribute('id'))
    .map((c) => ({ id: c.getAttribute('id')!, kind: c.localName }));
  const flows = children
    .filter((c) => c.localName === 'sequenceFlow' && c.getAttribute('id'))
    .map((c) => ({
      id: c.getAttribute('id')!,
      source: c.getAttribute('sourceRef') ?? '',
      target: c.getAttribute('targetRef') ?? '',
    }));
  const placed = new Map(layOut(nodes, flows).map((p) => [p.id, p]));

  const el = (ns: string, name: string, attrs: Record<string, string | number>) => {
    const node = doc.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const processId = process.getAttribute('id') ?? 'Process_1';
  const diagram = el(BPMNDI, 'bpmndi:BPMNDiagram', { id: `${processId}_diagram` });
  const plane = el(BPMNDI, 'bpmndi:BPMNPlane', {
    id: `${processId}_plane`,
    bpmnElement: processId,
  });
  diagram.appendChild(plane);
  for (const p of placed.values()) {
    const shape = el(BPMNDI, 'bpmndi:BPMNShape', { id: `${p.id}_di`, bpmnElement: p.id });
    shape.appendChild(el(DC, 'dc:Bounds', { x: p.x, y: p.y, width: p.width, height: p.height }));
    // A gateway's name above it: below, where bpmn-js puts it, a branch leaves (routeFlows).
    if (/Gateway$/.test(p.kind ?? '')) {
      const label = el(BPMNDI, 'bpmndi:BPMNLabel', {});
      label.appendChild(
        el(DC, 'dc:Bounds', { x: p.x + p.width / 2 - 50, y: p.y - 24, width: 100, height: 14 }),
      );
      shape.appendChild(label);
    }
    plane.appendChild(shape);
  }
  const routes = routeFlows(flows, placed);
  for (const f of flows) {
    const points = routes.get(f.id);
    if (!points) continue;
    const edge = el(BPMNDI, 'bpmndi:BPMNEdge', { id: `${f.id}_di`, bpmnElement: f.id });
    for (const point of points) edge.appendChild(el(DI, 'di:waypoint', { ...point }));
    plane.appendChild(edge);
  }
  root.appendChild(diagram);
  return new XMLSerializer().serializeToString(doc);
}
