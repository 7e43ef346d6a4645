/**
 * The example workflow of /management/bpmn-example: every convention a modeller follows here in
 * one small process (bpmn-conventions.ts), a claim routed by a decision table, approved by a
 * service task on the fast track, else reminded about after a timer. No drawing: the page and the
 * editor lay it out (bpmn-layout.ts), as they do any file without one.
 */
export const EXAMPLE_WORKFLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="example-defs" targetNamespace="https://demo.test/bpmn">
  <process id="example" isExecutable="true">
    <startEvent id="start" name="Claim created"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="route"/>
    <businessRuleTask id="route" name="Route claim" implementation="dmn:claim-routing"/>
    <sequenceFlow id="f2" sourceRef="route" targetRef="fastTrack"/>
    <exclusiveGateway id="fastTrack" name="Fast track?" default="f4"/>
    <sequenceFlow id="f3" sourceRef="fastTrack" targetRef="approve">
      <conditionExpression xsi:type="tFormalExpression">\${route = "fast-track"}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="f4" sourceRef="fastTrack" targetRef="wait"/>
    <serviceTask id="approve" name="Approve claim" implementation="claim.setStatus?status=approved"/>
    <sequenceFlow id="f5" sourceRef="approve" targetRef="approved"/>
    <endEvent id="approved" name="Approved"/>
    <intermediateCatchEvent id="wait" name="One day later">
      <timerEventDefinition><timeDuration xsi:type="tFormalExpression">P1D</timeDuration></timerEventDefinition>
    </intermediateCatchEvent>
    <sequenceFlow id="f6" sourceRef="wait" targetRef="remind"/>
    <serviceTask id="remind" name="Remind the claims team" implementation="notification.sendEmail?to=claims%40demo.test&amp;subject=Claim%20%7BentityCode%7D%20waits"/>
    <sequenceFlow id="f7" sourceRef="remind" targetRef="reminded"/>
    <endEvent id="reminded" name="Reminded"/>
  </process>
</definitions>`;
