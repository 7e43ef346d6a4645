import { describe, expect, it } from 'vitest';
import { executedPath, instanceError } from './instance-path.ts';

const at = '2026-11-26T10:00:00.000Z';
const step = (key: string, type: string, event: string) => ({ key, type, event, at });

describe('executedPath', () => {
  it('marks the elements entered and the flows taken; an open user task is the token', () => {
    const history = [
      step('start', 'StartEvent', 'start'),
      step('start', 'StartEvent', 'end'),
      step('f1', 'SequenceFlow', 'take'),
      step('assess', 'UserTask', 'start'),
      step('assess', 'UserTask', 'wait'),
    ];
    expect(executedPath(history, 'active', null)).toEqual({
      executed: ['start', 'assess'],
      flows: ['f1'],
      current: ['assess'],
      waitingTasks: ['assess'],
      failed: null,
    });
    // Cancelled: the path stays, no token.
    expect(executedPath(history, 'cancelled', null).current).toEqual([]);
  });

  it('names the failed element from the error', () => {
    const history = [
      step('start', 'StartEvent', 'start'),
      step('start', 'StartEvent', 'end'),
      step('f1', 'SequenceFlow', 'take'),
      step('letter', 'ServiceTask', 'start'),
    ];
    const path = executedPath(history, 'failed', { taskKey: 'letter', message: 'down' });
    expect(path.failed).toBe('letter');
    expect(path.current).toEqual([]);
    expect(path.executed).toEqual(['start', 'letter']);
  });

  it('a retried task that failed before is not a token twice', () => {
    const history = [
      step('letter', 'ServiceTask', 'start'),
      step('letter', 'ServiceTask', 'start'),
      step('letter', 'ServiceTask', 'end'),
      step('assess', 'UserTask', 'start'),
    ];
    expect(executedPath(history, 'active', null).current).toEqual(['assess']);
  });

  it('a timer that waits is a token, not a user task', () => {
    const history = [
      step('wait', 'IntermediateCatchEvent', 'start'),
      step('wait', 'IntermediateCatchEvent', 'timer'),
    ];
    const path = executedPath(history, 'active', null);
    expect(path.current).toEqual(['wait']);
    expect(path.waitingTasks).toEqual([]);
  });
});

describe('instanceError', () => {
  it('reads the task and message, or the text', () => {
    expect(instanceError({ taskKey: 'x', message: 'boom', at })).toEqual({
      taskKey: 'x',
      message: 'boom',
    });
    expect(instanceError('boom')).toEqual({ taskKey: null, message: 'boom' });
    expect(instanceError(null)).toBeNull();
  });
});
