import { describe, expect, it } from 'vitest';
import { BpmnModdle } from 'bpmn-moddle';
import { addLayout, hasDiagram, type ModdleFactory } from './diagram-layout.ts';

// The seed's claim intake, second version (server/sandbox/services/processmanager/seed-workflows.ts).
const CLAIM_INTAKE_V2 = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="https://demo.test/bpmn">
  <process id="claim_intake" isExecutable="true">
    <startEvent id="start"/><sequenceFlow id="f1" sourceRef="start" targetRef="route"/>
    <businessRuleTask id="route" implementation="dmn:claim-routing"/><sequenceFlow id="f2" sourceRef="route" targetRef="gw"/>
    <exclusiveGateway id="gw" default="f4"/>
    <sequenceFlow id="f3" sourceRef="gw" targetRef="review"/><sequenceFlow id="f4" sourceRef="gw" targetRef="assess"/>
    <serviceTask id="review" implementation="claim.setStatus?status=in-review"/><sequenceFlow id="f5" sourceRef="review" targetRef="approve"/>
    <serviceTask id="approve" implementation="claim.setStatus?status=approved"/><sequenceFlow id="f6" sourceRef="approve" targetRef="end"/>
    <userTask id="assess"/><sequenceFlow id="f7" sourceRef="assess" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

/* eslint-disable @typescript-eslint/no-explicit-any -- moddle elements */
describe('addLayout', () => {
  it('draws a process without a diagram: every element a shape, every flow an edge', async () => {
    const moddle = new BpmnModdle() as unknown as ModdleFactory & {
      fromXML: BpmnModdle['fromXML'];
      toXML: (el: unknown) => Promise<{ xml: string }>;
    };
    const { rootElement } = await moddle.fromXML(CLAIM_INTAKE_V2);
    expect(hasDiagram(rootElement)).toBe(false);
    addLayout(moddle, rootElement);
    expect(hasDiagram(rootElement)).toBe(true);
    const planeElements: any[] = rootElement.diagrams[0].plane.planeElement;
    const shapes = planeElements.filter((e) => e.$type === 'bpmndi:BPMNShape');
    const edges = planeElements.filter((e) => e.$type === 'bpmndi:BPMNEdge');
    expect(shapes.map((s) => s.bpmnElement.id).sort()).toEqual(
      ['approve', 'assess', 'end', 'gw', 'review', 'route', 'start'].sort(),
    );
    expect(edges).toHaveLength(7);
    expect(edges.every((e) => e.waypoint.length >= 2)).toBe(true);
    // Left to right: the start first, the gateway after the rule task, its branches after it.
    const x = (id: string) => shapes.find((s) => s.bpmnElement.id === id).bounds.x;
    expect(x('start')).toBeLessThan(x('route'));
    expect(x('route')).toBeLessThan(x('gw'));
    expect(x('review')).toBe(x('assess'));
    // It writes as BPMN DI, which bpmn-js reads.
    const { xml } = await moddle.toXML(rootElement);
    expect(xml).toContain('bpmndi:BPMNShape');
    expect(xml).toContain('bpmnElement="gw"');
  });
});
