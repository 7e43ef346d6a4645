import { describe, expect, it } from 'vitest';
import {
  DURATION,
  changedKeys,
  compareVersions,
  conditionBody,
  conditionText,
  decisionTableOf,
  formatTaskSpec,
  implementationText,
  parseTaskSpec,
  ruleImplementation,
} from './bpmn-conventions.ts';

describe('service task implementation', () => {
  it('reads the type and its parameters as the task registry does', () => {
    expect(
      parseTaskSpec('notification.sendEmail?to=care%40demo.test&subject=Hi%20%7BentityCode%7D'),
    ).toEqual({
      type: 'notification.sendEmail',
      params: [
        { name: 'to', value: 'care@demo.test' },
        { name: 'subject', value: 'Hi {entityCode}' },
      ],
    });
    expect(parseTaskSpec('claim.setStatus')).toEqual({ type: 'claim.setStatus', params: [] });
    expect(parseTaskSpec(undefined)).toEqual({ type: '', params: [] });
  });

  it('writes them back so that the registry reads the same values', () => {
    const text = formatTaskSpec({
      type: 'notification.sendEmail',
      params: [
        { name: 'to', value: 'a&b@demo.test' },
        { name: ' ', value: 'dropped' },
        { name: 'subject', value: 'x=y {entityCode}' },
      ],
    });
    expect(parseTaskSpec(text).params).toEqual([
      { name: 'to', value: 'a&b@demo.test' },
      { name: 'subject', value: 'x=y {entityCode}' },
    ]);
    expect(formatTaskSpec({ type: 'claim.setStatus', params: [] })).toBe('claim.setStatus');
  });
});

describe('rule tasks, conditions and timers', () => {
  it('names the decision table as dmn:<code>', () => {
    expect(decisionTableOf('dmn:claim-routing')).toBe('claim-routing');
    expect(decisionTableOf('claim.setStatus')).toBe('');
    expect(ruleImplementation('claim-routing')).toBe('dmn:claim-routing');
    expect(ruleImplementation('')).toBe('');
  });

  it('wraps the FEEL of a condition in ${...} and unwraps it', () => {
    expect(conditionBody(' route = "fast-track" ')).toBe('${route = "fast-track"}');
    expect(conditionText('${route = "fast-track"}')).toBe('route = "fast-track"');
    expect(conditionBody('  ')).toBe('');
  });

  it('takes ISO 8601 durations only', () => {
    for (const ok of ['P1D', 'PT30M', 'P1DT2H', 'P2W']) expect(DURATION.test(ok)).toBe(true);
    for (const bad of ['P', 'PT', '1 day', 'P1H', '']) expect(DURATION.test(bad)).toBe(false);
  });
});

describe('comparing two versions', () => {
  const v1 = {
    tasks: [
      { key: 'start', name: 'Start', type: 'startEvent' },
      { key: 'assess', name: 'Assess', type: 'userTask' },
      { key: 'old', name: 'Old', type: 'task' },
      { key: 'end', name: null, type: 'endEvent' },
    ],
    sequences: [
      { key: 'f1', source: 'start', target: 'assess' },
      { key: 'f2', source: 'assess', target: 'end' },
    ],
  };
  const v2 = {
    tasks: [
      { key: 'start', name: 'Start', type: 'startEvent' },
      { key: 'assess', name: 'Assess claim', type: 'serviceTask' },
      { key: 'notify', name: 'Notify', type: 'serviceTask' },
      { key: 'end', name: null, type: 'endEvent' },
    ],
    sequences: [
      { key: 'f1', source: 'start', target: 'assess' },
      { key: 'f3', source: 'assess', target: 'notify' },
    ],
  };

  it('lists what was removed, then what was changed and added', () => {
    const changes = compareVersions(v1, v2);
    expect(changes).toEqual([
      { kind: 'task_removed', key: 'old', name: 'Old', type: 'task' },
      { kind: 'sequence_removed', key: 'f2', source: 'assess', target: 'end' },
      {
        kind: 'task_type_changed',
        key: 'assess',
        name: 'Assess claim',
        from: 'userTask',
        to: 'serviceTask',
      },
      { kind: 'task_renamed', key: 'assess', from: 'Assess', to: 'Assess claim' },
      { kind: 'task_added', key: 'notify', name: 'Notify', type: 'serviceTask' },
      { kind: 'sequence_added', key: 'f3', source: 'assess', target: 'notify' },
    ]);
    // Marked on the canvas: what is there now and changed, once each.
    expect(changedKeys(changes)).toEqual(['assess', 'notify', 'f3']);
  });

  it('finds nothing between a version and itself', () => {
    expect(compareVersions(v2, v2)).toEqual([]);
  });

  it('tells a flow drawn to another element under the same id as re-pointed', () => {
    const moved = {
      ...v2,
      sequences: [
        { key: 'f1', source: 'start', target: 'notify' },
        { key: 'f3', source: 'assess', target: 'notify' },
      ],
    };
    expect(compareVersions(v2, moved)).toEqual([
      {
        kind: 'sequence_repointed',
        key: 'f1',
        fromSource: 'start',
        fromTarget: 'assess',
        source: 'start',
        target: 'notify',
      },
    ]);
  });
});

describe('comparing what the elements do', () => {
  const shape = {
    tasks: [
      { key: 'route', name: 'Route', type: 'businessRuleTask' },
      { key: 'gw', name: null, type: 'exclusiveGateway' },
      { key: 'approve', name: 'Approve', type: 'serviceTask' },
      { key: 'wait', name: 'Wait', type: 'intermediateCatchEvent' },
    ],
    sequences: [
      { key: 'f1', source: 'route', target: 'gw' },
      { key: 'f2', source: 'gw', target: 'approve' },
      { key: 'f3', source: 'gw', target: 'wait' },
    ],
  };
  const before = {
    ...shape,
    details: {
      route: { implementation: 'dmn:claim-routing' },
      approve: { implementation: 'claim.setStatus?status=approved' },
      wait: { timer: 'P1D' },
      f2: { condition: 'route = "fast-track"' },
    },
  };

  it('names a new service type or parameter, decision table, timer and condition', () => {
    const after = {
      ...shape,
      details: {
        route: { implementation: 'dmn:claim-routing-2' },
        approve: { implementation: 'claim.setStatus?status=rejected' },
        wait: { timer: 'PT2H' },
        f2: { condition: 'route = "manual"' },
        f3: { condition: 'amount > 10' },
      },
    };
    const changes = compareVersions(before, after);
    expect(changes).toEqual([
      {
        kind: 'decision_table_changed',
        key: 'route',
        name: 'Route',
        from: 'claim-routing',
        to: 'claim-routing-2',
      },
      {
        kind: 'implementation_changed',
        key: 'approve',
        name: 'Approve',
        from: 'claim.setStatus?status=approved',
        to: 'claim.setStatus?status=rejected',
      },
      { kind: 'timer_changed', key: 'wait', name: 'Wait', from: 'P1D', to: 'PT2H' },
      {
        kind: 'condition_changed',
        key: 'f2',
        source: 'gw',
        target: 'approve',
        from: 'route = "fast-track"',
        to: 'route = "manual"',
      },
      {
        kind: 'condition_changed',
        key: 'f3',
        source: 'gw',
        target: 'wait',
        from: '',
        to: 'amount > 10',
      },
    ]);
    expect(changedKeys(changes)).toEqual(['route', 'approve', 'wait', 'f2', 'f3']);
    expect(compareVersions(before, before)).toEqual([]);
  });

  it('compares no details when a version has none read', () => {
    const after = { ...shape, details: { approve: { implementation: 'claim.setStatus' } } };
    expect(compareVersions(shape, after)).toEqual([]);
    expect(compareVersions(before, shape)).toEqual([]);
  });

  it('shows an implementation as a person reads it, its parameters decoded', () => {
    expect(
      implementationText('notification.sendEmail?to=claims%40demo.test&subject=Claim%20waits'),
    ).toBe('notification.sendEmail (to=claims@demo.test, subject=Claim waits)');
    expect(implementationText('claim.setStatus')).toBe('claim.setStatus');
    expect(implementationText('')).toBe('');
  });
});
