import { describe, expect, it } from 'vitest';
import {
  DURATION,
  changedKeys,
  compareVersions,
  conditionBody,
  conditionText,
  decisionTableOf,
  formatTaskSpec,
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
});
