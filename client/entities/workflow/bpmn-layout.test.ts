import { describe, expect, it } from 'vitest';
import { EXAMPLE_WORKFLOW } from '#client/features/workflow-editor/bpmn-example.ts';
import { layOut, routeFlows, type LayoutFlow, type LayoutNode, type Point } from './bpmn-layout.ts';

type Segment = [Point, Point];
const segmentsOf = (points: readonly Point[]): Segment[] =>
  points.slice(1).map((p, i) => [points[i]!, p]);

/** Whether two straight pieces lie on one line and overlap by more than a point. */
function overlap([a, b]: Segment, [c, d]: Segment): boolean {
  const cross = (p: Point, q: Point, r: Point) =>
    (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
  if (cross(a, b, c) !== 0 || cross(a, b, d) !== 0) return false;
  // On one line: compare along its longer axis.
  const axis = Math.abs(b.x - a.x) >= Math.abs(b.y - a.y) ? 'x' : 'y';
  const lo = Math.max(Math.min(a[axis], b[axis]), Math.min(c[axis], d[axis]));
  const hi = Math.min(Math.max(a[axis], b[axis]), Math.max(c[axis], d[axis]));
  return hi - lo > 0;
}

/** The pairs of flows out of one element that share a piece of line. */
function sharing(nodes: readonly LayoutNode[], flows: readonly LayoutFlow[]): string[] {
  const placed = new Map(layOut(nodes, flows).map((p) => [p.id, p]));
  const routes = routeFlows(flows, placed);
  const found: string[] = [];
  for (const f of flows) {
    for (const g of flows) {
      if (f.id >= g.id || f.source !== g.source) continue;
      const a = segmentsOf(routes.get(f.id) ?? []);
      const b = segmentsOf(routes.get(g.id) ?? []);
      if (a.some((s) => b.some((t) => overlap(s, t)))) found.push(`${f.id}/${g.id}`);
    }
  }
  return found;
}

/** A graph written short: `id:kind` nodes, `flow=source>target` flows. */
function graph(nodeText: string, flowText: string): { nodes: LayoutNode[]; flows: LayoutFlow[] } {
  const nodes = nodeText.split(/\s+/).map((n) => {
    const [id, kind] = n.split(':');
    return { id: id!, kind: kind! };
  });
  const flows = flowText.split(/\s+/).map((f) => {
    const [id, ends] = f.split('=');
    const [source, target] = ends!.split('>');
    return { id: id!, source: source!, target: target! };
  });
  return { nodes, flows };
}

/** The elements and flows of a process as the layout reads them (the test's own small reader). */
function graphOf(xml: string): { nodes: LayoutNode[]; flows: LayoutFlow[] } {
  const nodes = [...xml.matchAll(/<(\w+) id="([^"]+)"/g)]
    .filter(([, kind]) => !['definitions', 'process', 'sequenceFlow'].includes(kind!))
    .map(([, kind, id]) => ({ id: id!, kind: kind! }));
  const flows = [
    ...xml.matchAll(/<sequenceFlow id="([^"]+)" sourceRef="([^"]+)" targetRef="([^"]+)"/g),
  ].map(([, id, source, target]) => ({ id: id!, source: source!, target: target! }));
  return { nodes, flows };
}

describe('the layout of a BPMN file without a drawing', () => {
  it('puts each element one column after the one before, branches one row under the other', () => {
    const placed = layOut(
      [
        { id: 'start', kind: 'startEvent' },
        { id: 'gw', kind: 'exclusiveGateway' },
        { id: 'a', kind: 'serviceTask' },
        { id: 'b', kind: 'userTask' },
        { id: 'end', kind: 'endEvent' },
      ],
      [
        { id: 'f1', source: 'start', target: 'gw' },
        { id: 'f2', source: 'gw', target: 'a' },
        { id: 'f3', source: 'gw', target: 'b' },
        { id: 'f4', source: 'a', target: 'end' },
        { id: 'f5', source: 'b', target: 'end' },
      ],
    );
    const at = Object.fromEntries(placed.map((p) => [p.id, p]));
    // Columns: start, gateway, both tasks, end.
    expect(at.start!.x).toBeLessThan(at.gw!.x);
    expect(at.gw!.x).toBeLessThan(at.a!.x);
    expect(at.a!.x).toBe(at.b!.x);
    expect(at.end!.x).toBeGreaterThan(at.a!.x);
    // The second branch under the first; every element its kind's size.
    expect(at.b!.y).toBeGreaterThan(at.a!.y);
    expect(at.start).toMatchObject({ width: 36, height: 36 });
    expect(at.gw).toMatchObject({ width: 50, height: 50 });
    expect(at.a).toMatchObject({ width: 100, height: 80 });
    // Centred in a row: a flow between the start and a task of the first row is straight.
    expect(at.start!.y + at.start!.height / 2).toBe(at.a!.y + at.a!.height / 2);
  });

  it('places a loop nothing leads into, and ignores flows to unknown elements', () => {
    const placed = layOut(
      [
        { id: 'x', kind: 'task' },
        { id: 'y', kind: 'task' },
      ],
      [
        { id: 'f1', source: 'x', target: 'y' },
        { id: 'f2', source: 'y', target: 'x' },
        { id: 'f3', source: 'y', target: 'ghost' },
      ],
    );
    expect(placed.map((p) => p.id)).toEqual(['x', 'y']);
    expect(placed[0]!.x).toBeLessThan(placed[1]!.x);
  });

  it("draws the example's default flow on a line of its own, apart from the conditional one", () => {
    const { nodes, flows } = graphOf(EXAMPLE_WORKFLOW);
    expect(nodes.map((n) => n.id)).toContain('fastTrack');
    expect(flows.filter((f) => f.source === 'fastTrack').map((f) => f.id)).toEqual(['f3', 'f4']);
    expect(sharing(nodes, flows)).toEqual([]);
    const placed = new Map(layOut(nodes, flows).map((p) => [p.id, p]));
    const routes = routeFlows(flows, placed);
    const gw = placed.get('fastTrack')!;
    // The conditional flow leaves to the right, the default one from the bottom corner.
    expect(routes.get('f3')![0]).toEqual({ x: gw.x + gw.width, y: gw.y + gw.height / 2 });
    expect(routes.get('f4')![0]).toEqual({ x: gw.x + gw.width / 2, y: gw.y + gw.height });
    // Every flow ends at its target's left side, in its middle.
    for (const f of flows) {
      const to = placed.get(f.target)!;
      expect(routes.get(f.id)!.at(-1), f.id).toEqual({ x: to.x, y: to.y + to.height / 2 });
    }
  });

  it('gives each of four branches out of a gateway its own line, below and above', () => {
    // The gateway is reached late, so its branches lie in rows above and below it.
    const { nodes, flows } = graph(
      's:startEvent x1:task x2:task gw:exclusiveGateway a:task b:task c:task d:task',
      'f0=s>x1 f1=s>x2 f2=s>gw ga=gw>a gb=gw>b gc=gw>c gd=gw>d',
    );
    const placed = new Map(layOut(nodes, flows).map((p) => [p.id, p]));
    const gw = placed.get('gw')!;
    const rows = ['a', 'b', 'c', 'd'].map((t) => Math.sign(placed.get(t)!.y - gw.y));
    expect(rows).toContain(-1);
    expect(rows).toContain(1);
    // The gateway's four and the start's three.
    expect(sharing(nodes, flows)).toEqual([]);
  });

  it('puts where two branches meet after the longer one, so no flow but a way back runs left', () => {
    // Claim intake's shape: a long branch and a short one meeting at the end.
    const { nodes, flows } = graph(
      'start:startEvent gw:exclusiveGateway review:serviceTask approve:serviceTask assess:userTask end:endEvent',
      'f1=start>gw f2=gw>review f3=review>approve f4=approve>end f5=gw>assess f6=assess>end',
    );
    const at = new Map(layOut(nodes, flows).map((p) => [p.id, p]));
    for (const f of flows) expect(at.get(f.target)!.x, f.id).toBeGreaterThan(at.get(f.source)!.x);
    // The end after the approval, in its row: that flow is straight.
    expect(at.get('end')!.y + 18).toBe(at.get('approve')!.y + 40);
    expect(sharing(nodes, flows)).toEqual([]);
  });
});
