import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createdBounds,
  entityLink,
  instancePath,
  monitorFilters,
  monitorPage,
  monitorPath,
  toggledStatus,
  UNSELECTED_DELAY_MS,
} from './monitor-filters.ts';

const values = (over: Partial<Record<'status' | 'entity' | 'from' | 'to' | 'sort', string>>) => ({
  status: '',
  entity: '',
  from: '',
  to: '',
  sort: '',
  ...over,
});

describe('monitorFilters', () => {
  it('reads the address leniently: unknown statuses and dates that are no dates are dropped', () => {
    const f = monitorFilters(
      values({ status: 'failed,bogus,active,failed', from: '2026-02-30', to: '2026-11-26' }),
    );
    expect(f.statuses).toEqual(['failed', 'active']);
    expect(f.from).toBe('');
    expect(f.to).toBe('2026-11-26');
    expect(f.reversed).toBe(false);
  });

  it('keeps Unselected alone and tells a reversed range', () => {
    const f = monitorFilters(
      values({ status: 'active,unselected', from: '2026-11-26', to: '2026-11-01' }),
    );
    expect(f.statuses).toEqual(['unselected']);
    expect(f.reversed).toBe(true);
  });

  it('reads the sort of the date columns only', () => {
    expect(monitorFilters(values({ sort: 'created:asc' })).sort).toEqual({
      column: 'created',
      direction: 'asc',
    });
    expect(monitorFilters(values({ sort: 'code:asc' })).sort).toBeNull();
  });
});

describe('toggledStatus', () => {
  it('writes the choices in the order shown; Unselected and a status exclude each other', () => {
    expect(toggledStatus(['failed'], 'active', true)).toBe('active,failed');
    expect(toggledStatus(['active', 'failed'], 'active', false)).toBe('failed');
    expect(toggledStatus(['active', 'failed'], 'unselected', true)).toBe('unselected');
    expect(toggledStatus(['unselected'], 'completed', true)).toBe('completed');
  });
});

describe('createdBounds', () => {
  it('spans the chosen days in the tenant zone: from its first instant to its last', () => {
    expect(createdBounds('2026-11-01', '2026-11-26', 'Europe/Berlin')).toEqual({
      createdFrom: '2026-10-31T23:00:00.000Z',
      createdTo: '2026-11-26T22:59:59.999Z',
    });
    // Summer time: two hours ahead.
    expect(createdBounds('2026-07-01', '', 'Europe/Warsaw')).toEqual({
      createdFrom: '2026-06-30T22:00:00.000Z',
      createdTo: undefined,
    });
    expect(createdBounds('', '2026-03-29', 'UTC').createdTo).toBe('2026-03-29T23:59:59.999Z');
  });

  it('follows a day with a clock change (the spring day has 23 hours in Berlin)', () => {
    const { createdFrom, createdTo } = createdBounds('2026-03-29', '2026-03-29', 'Europe/Berlin');
    expect(createdFrom).toBe('2026-03-28T23:00:00.000Z');
    expect(createdTo).toBe('2026-03-29T21:59:59.999Z');
  });
});

describe('links', () => {
  it('links claim, lead and policy codes to their pages; anything else is text', () => {
    expect(entityLink(0, 'clm_abc123')).toEqual({ kind: 'claim', to: '/u/0/claims/clm_abc123' });
    expect(entityLink(1, 'lea_9')).toEqual({ kind: 'lead', to: '/u/1/leads/lea_9' });
    expect(entityLink(0, 'pol_x')).toEqual({ kind: 'policy', to: '/u/0/policies/pol_x' });
    expect(entityLink(0, 'ord_1')).toBeNull();
    expect(entityLink(0, null)).toBeNull();
  });

  it('builds the monitor and instance addresses', () => {
    expect(monitorPath(0, 'claim-intake', '2', 'status=failed')).toBe(
      '/u/0/management/workflow-monitor/claim-intake/2?status=failed',
    );
    expect(monitorPath(0, '', '2', '')).toBe('/u/0/management/workflow-monitor');
    expect(
      instancePath(0, {
        code: 'wfi_1',
        workflow: { code: 'claim-intake' },
        workflowVersion: { versionNumber: 2 },
      }),
    ).toBe('/u/0/management/workflow-monitor/claim-intake/2/wfi_1');
  });
});

describe('monitorPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const answered = () => {
    const page = { items: [{ code: 'wfi_1' }], nextPageToken: null, totalItems: 1 };
    return vi.fn(() => Promise.resolve(page));
  };

  it("answers 'Unselected' with an empty list after 300 ms, asking nothing", async () => {
    vi.useFakeTimers();
    const ask = answered();
    let result: unknown;
    void monitorPage(true, new AbortController().signal, ask).then((page) => (result = page));
    expect(UNSELECTED_DELAY_MS).toBe(300);
    await vi.advanceTimersByTimeAsync(299);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual({ items: [], nextPageToken: null, totalItems: 0 });
    expect(ask).not.toHaveBeenCalled();
  });

  it('stops waiting when the filters change (the abort), and asks at once for real statuses', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = monitorPage(true, controller.signal, answered());
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error('filters changed'));
    await expect(waiting).rejects.toThrow('filters changed');

    const ask = answered();
    await expect(monitorPage(false, new AbortController().signal, ask)).resolves.toMatchObject({
      totalItems: 1,
    });
    expect(ask).toHaveBeenCalledOnce();
  });
});
