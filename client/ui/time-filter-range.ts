import dayjs, { type Dayjs } from 'dayjs';

export type RelativePeriod = 'today' | 'last_week' | 'current_month' | 'last_month' | 'all_dates';

export const RELATIVE_PERIODS: readonly RelativePeriod[] = [
  'today',
  'last_week',
  'current_month',
  'last_month',
  'all_dates',
];

export type TimeFilterValue =
  | { kind: 'relative'; period: RelativePeriod }
  | { kind: 'custom'; from: string; to: string | null };

/** Both ends inclusive, ISO timestamps; null means open. */
export interface TimeRange {
  from: string | null;
  to: string | null;
}

export const ALL_DATES: TimeFilterValue = { kind: 'relative', period: 'all_dates' };

/** No range: ALL_DATES, or "all dates" applied again in the panel (an equal, new value). */
export const isAllDates = (value: TimeFilterValue): boolean =>
  value.kind === 'relative' && value.period === 'all_dates';

/** Spec, section 5: the time picker steps by 15 minutes. */
export const STEP_MINUTES = 15;

function startOfIsoWeek(date: Dayjs): Dayjs {
  // Weeks start on Monday in Germany and Poland (dayjs' default week starts on Sunday).
  const offset = (date.day() + 6) % 7;
  return date.subtract(offset, 'day').startOf('day');
}

/**
 * The range of a relative period at `now`. "Last week" and "last month" are the previous
 * calendar week (Monday to Sunday) and month, like "current month" is the calendar month.
 */
export function relativeRange(period: RelativePeriod, now: Dayjs = dayjs()): TimeRange {
  const iso = (from: Dayjs, to: Dayjs) => ({ from: from.toISOString(), to: to.toISOString() });
  switch (period) {
    case 'today':
      return iso(now.startOf('day'), now.endOf('day'));
    case 'last_week': {
      const start = startOfIsoWeek(now).subtract(7, 'day');
      return iso(start, start.add(6, 'day').endOf('day'));
    }
    case 'current_month':
      return iso(now.startOf('month'), now.endOf('month'));
    case 'last_month': {
      const previous = now.subtract(1, 'month');
      return iso(previous.startOf('month'), previous.endOf('month'));
    }
    case 'all_dates':
      return { from: null, to: null };
  }
}

export function toRange(value: TimeFilterValue, now: Dayjs = dayjs()): TimeRange {
  return value.kind === 'relative'
    ? relativeRange(value.period, now)
    : { from: value.from, to: value.to };
}

/** Down to the 15-minute step (10:14 -> 10:00), seconds dropped. */
export function toStep(date: Dayjs): Dayjs {
  return date
    .minute(Math.floor(date.minute() / STEP_MINUTES) * STEP_MINUTES)
    .second(0)
    .millisecond(0);
}

/** The custom tab's draft: either end may be missing while editing. */
export interface CustomDraft {
  from: string | null;
  to: string | null;
}

/**
 * A change of the start: accepted only if valid, an invalid (or cleared) start resets it
 * (spec, section 5). An end that now lies before the start is dropped.
 */
export function changeStart(draft: CustomDraft, input: string): CustomDraft {
  const date = input === '' ? null : dayjs(input);
  if (date === null || !date.isValid()) return { from: null, to: draft.to };
  const from = toStep(date);
  const to = draft.to !== null && dayjs(draft.to).isBefore(from) ? null : draft.to;
  return { from: from.toISOString(), to };
}

/**
 * A change of the end: optional (empty clears it); an invalid end, or one before the start,
 * is refused and the previous end kept: dates cannot lie before the start.
 */
export function changeEnd(draft: CustomDraft, input: string): CustomDraft {
  if (input === '') return { ...draft, to: null };
  const date = dayjs(input);
  if (!date.isValid()) return draft;
  const to = toStep(date);
  if (draft.from !== null && to.isBefore(dayjs(draft.from))) return draft;
  return { ...draft, to: to.toISOString() };
}

/** Apply needs a valid start; the end is optional. */
export function customValue(draft: CustomDraft): TimeFilterValue | null {
  return draft.from === null ? null : { kind: 'custom', from: draft.from, to: draft.to };
}
