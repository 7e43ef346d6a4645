import { describe, expect, it } from 'vitest';
import { addToast, MAX_TOASTS, removeToast, TOAST_DURATION_MS } from './toast-list.ts';

describe('toast list', () => {
  it('adds a success toast with the default duration; errors stay longer', () => {
    const list = addToast([], 1, { message: 'Saved' });
    expect(list).toEqual([
      { id: 1, tone: 'success', message: 'Saved', duration: TOAST_DURATION_MS },
    ]);
    const error = addToast(list, 2, { message: 'Failed', tone: 'danger' });
    expect(error[1]!.duration).toBeGreaterThan(TOAST_DURATION_MS);
    expect(addToast([], 3, { message: 'x', duration: 0 })[0]!.duration).toBe(0);
  });

  it('keeps at most the newest toasts', () => {
    let list = addToast([], 0, { message: '0' });
    for (let id = 1; id < 10; id++) list = addToast(list, id, { message: String(id) });
    expect(list).toHaveLength(MAX_TOASTS);
    expect(list.at(-1)!.id).toBe(9);
  });

  it('removes by id', () => {
    const list = addToast(addToast([], 1, { message: 'a' }), 2, { message: 'b' });
    expect(removeToast(list, 1).map((t) => t.id)).toEqual([2]);
  });
});
