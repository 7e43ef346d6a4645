import { describe, expect, it } from 'vitest';
import { layOut } from './bpmn-layout.ts';

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
});
