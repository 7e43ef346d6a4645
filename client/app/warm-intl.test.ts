import { describe, expect, it } from 'vitest';
import { warmIntl } from './warm-intl.ts';

describe('warmIntl', () => {
  it('makes one kind of format per scheduled task, each task scheduling the next', () => {
    const queue: (() => void)[] = [];
    warmIntl('de-DE', (step) => queue.push(step));
    // Nothing runs at the call: the first step only is queued.
    expect(queue).toHaveLength(1);
    let tasks = 0;
    while (queue.length) {
      queue.shift()!();
      tasks += 1;
      expect(queue.length).toBeLessThanOrEqual(1);
    }
    expect(tasks).toBe(3);
  });

  it('survives a locale the engine does not know', () => {
    const queue: (() => void)[] = [];
    warmIntl('xx-invalid-locale-tag-', (step) => queue.push(step));
    expect(() => {
      while (queue.length) queue.shift()!();
    }).not.toThrow();
  });
});
