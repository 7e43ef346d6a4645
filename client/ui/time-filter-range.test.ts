import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  ALL_DATES,
  changeEnd,
  changeStart,
  customValue,
  isAllDates,
  relativeRange,
  toRange,
  toStep,
} from './time-filter-range.ts';

// Wednesday 15 May 2024, 14:37 local time.
const now = dayjs('2024-05-15T14:37:12');
const local = (iso: string | null) => (iso === null ? null : dayjs(iso).format('YYYY-MM-DD HH:mm'));
const range = (r: { from: string | null; to: string | null }) => [local(r.from), local(r.to)];

describe('relative periods', () => {
  it('today is the whole local day', () => {
    expect(range(relativeRange('today', now))).toEqual(['2024-05-15 00:00', '2024-05-15 23:59']);
  });

  it('last week is the previous Monday to Sunday', () => {
    expect(range(relativeRange('last_week', now))).toEqual([
      '2024-05-06 00:00',
      '2024-05-12 23:59',
    ]);
    // On a Sunday the current week started on Monday six days before.
    expect(range(relativeRange('last_week', dayjs('2024-05-19T10:00')))).toEqual([
      '2024-05-06 00:00',
      '2024-05-12 23:59',
    ]);
  });

  it('current and last month are calendar months', () => {
    expect(range(relativeRange('current_month', now))).toEqual([
      '2024-05-01 00:00',
      '2024-05-31 23:59',
    ]);
    expect(range(relativeRange('last_month', dayjs('2024-03-31T12:00')))).toEqual([
      '2024-02-01 00:00',
      '2024-02-29 23:59',
    ]);
  });

  it('all dates is open on both ends', () => {
    expect(relativeRange('all_dates', now)).toEqual({ from: null, to: null });
  });
});

describe('custom range', () => {
  it('rounds down to 15-minute steps', () => {
    expect(toStep(now).format('HH:mm:ss')).toBe('14:30:00');
    expect(toStep(dayjs('2024-05-15T10:45:59')).format('HH:mm')).toBe('10:45');
  });

  it('accepts a valid start only; an invalid start resets it', () => {
    const start = changeStart({ from: null, to: null }, '2024-05-01T10:07');
    expect(local(start.from)).toBe('2024-05-01 10:00');
    expect(changeStart(start, 'not a date').from).toBeNull();
    expect(changeStart(start, '').from).toBeNull();
  });

  it('an end before the start is refused; the end is optional', () => {
    const start = changeStart({ from: null, to: null }, '2024-05-10T10:00');
    const before = changeEnd(start, '2024-05-09T10:00');
    expect(before).toEqual(start);
    const after = changeEnd(start, '2024-05-11T08:20');
    expect(local(after.to)).toBe('2024-05-11 08:15');
    expect(changeEnd(after, '').to).toBeNull();
    expect(changeEnd(after, 'garbage')).toEqual(after);
  });

  it('a start moved after the end drops the end', () => {
    const draft = changeEnd(
      changeStart({ from: null, to: null }, '2024-05-10T10:00'),
      '2024-05-11T10:00',
    );
    expect(changeStart(draft, '2024-05-12T10:00').to).toBeNull();
    expect(changeStart(draft, '2024-05-10T12:00').to).toBe(draft.to);
  });

  it('can be applied only with a start', () => {
    expect(customValue({ from: null, to: null })).toBeNull();
    const draft = changeStart({ from: null, to: null }, '2024-05-10T10:00');
    const value = customValue(draft);
    expect(value).toEqual({ kind: 'custom', from: draft.from, to: null });
    expect(toRange(value!)).toEqual({ from: draft.from, to: null });
  });
});

describe('all dates', () => {
  it('is the constant and an equal value applied again, no other period or a custom range', () => {
    expect(isAllDates(ALL_DATES)).toBe(true);
    // The panel's Apply makes a new value: an identity check would call it a range.
    expect(isAllDates({ kind: 'relative', period: 'all_dates' })).toBe(true);
    expect(isAllDates({ kind: 'relative', period: 'last_month' })).toBe(false);
    expect(isAllDates({ kind: 'custom', from: '2024-05-10T10:00:00.000Z', to: null })).toBe(false);
  });
});
