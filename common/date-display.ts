import dayjs from 'dayjs';
import type { Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(customParseFormat);
dayjs.extend(utc);

import {
  DEFAULT_DATE_DISPLAY,
  dateDisplayOf,
  isTimeZone,
  type DateDisplay,
} from './date-display-settings.ts';

export { DEFAULT_DATE_DISPLAY, dateDisplayOf, isTimeZone, type DateDisplay };

export const ISO_DATE = 'YYYY-MM-DD';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** One formatter per zone, made once: the parts of an instant's wall time in that zone. */
const zoneClocks = new Map<string, Intl.DateTimeFormat>();

function zoneClock(timeZone: string): Intl.DateTimeFormat {
  let clock = zoneClocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneClocks.set(timeZone, clock);
  }
  return clock;
}

/**
 * The instant as its wall time in `timeZone` (what dayjs's `.tz(zone)` gives). dayjs's timezone
 * plugin makes a new `Intl` formatter for every call (`toLocaleString` with a zone) and parses
 * its text back: about a millisecond each, which made the dates of one page of list rows the
 * longest task of the list's opening (bench/list-long-tasks.ts, issue 14). Here the zone's
 * formatter is made once and the offset read from its parts.
 */
function inZone(instant: Dayjs, timeZone: string): Dayjs {
  return instant.utcOffset(zoneOffsetMinutes(timeZone, instant.valueOf()));
}

/** The offset of `timeZone` from UTC at the instant `ms`, in minutes (east positive). */
export function zoneOffsetMinutes(timeZone: string, ms: number): number {
  const parts = zoneClock(timeZone).formatToParts(new Date(ms));
  const field: Record<string, number> = {};
  for (const part of parts) if (part.type !== 'literal') field[part.type] = Number(part.value);
  const wall = Date.UTC(
    field.year!,
    field.month! - 1,
    field.day!,
    field.hour!,
    field.minute!,
    field.second!,
  );
  // Whole minutes, as dayjs's own plugin rounds them (the seconds of old local mean times).
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * A date in the tenant's date format. A date-only value (`2024-12-31`, a birth date, a loss date)
 * is a calendar day and is shown as that day in every zone. A timestamp is shown as its day in
 * the tenant's zone, except with `utcDay` (a policy's start, stored as midnight UTC of its day:
 * spec, section 9, "a policy's timestamps are converted to UTC"). Empty or invalid -> ''.
 */
export function formatDay(
  display: DateDisplay,
  value: string | null | undefined,
  options: { utcDay?: boolean } = {},
): string {
  if (!value) return '';
  if (DATE_ONLY.test(value)) {
    const day = dayjs(value, ISO_DATE, true);
    return day.isValid() ? day.format(display.dateFormat) : '';
  }
  const instant = dayjs.utc(value);
  if (!instant.isValid()) return '';
  return (options.utcDay ? instant : inZone(instant, display.timeZone)).format(display.dateFormat);
}

/** A timestamp with date and time in the tenant's formats and zone. Empty or invalid -> ''. */
export function formatInstant(display: DateDisplay, value: string | null | undefined): string {
  if (!value) return '';
  // A date-only value has no time of day to show: its day, unshifted.
  if (DATE_ONLY.test(value)) return formatDay(display, value);
  const instant = dayjs.utc(value);
  if (!instant.isValid()) return '';
  return inZone(instant, display.timeZone).format(`${display.dateFormat} ${display.timeFormat}`);
}

/** The time of day of a timestamp in the tenant's format and zone. */
export function formatTimeOfDay(display: DateDisplay, value: string | null | undefined): string {
  if (!value) return '';
  const instant = dayjs.utc(value);
  return instant.isValid() ? inZone(instant, display.timeZone).format(display.timeFormat) : '';
}

/** The wall time an `<input type="datetime-local">` shows: `2024-05-17T10:15`. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * An instant as the wall time of a date-time input in `timeZone` (the tenant's, not the
 * browser's: a user abroad enters and reads the times the rest of the tenant sees). Empty or
 * invalid -> undefined.
 */
export function wallTimeOf(value: string | null | undefined, timeZone: string): string | undefined {
  if (!value) return undefined;
  const instant = dayjs.utc(value);
  return instant.isValid() ? inZone(instant, timeZone).format('YYYY-MM-DDTHH:mm') : undefined;
}

/**
 * The instant (ISO, UTC) whose wall time in `timeZone` is `wall`, or null when `wall` is no
 * wall time. A time the zone skips (the hour clocks move forward) lands an hour later, as the
 * clocks on the wall would show it; of a time the zone has twice, the second (after the
 * clocks went back).
 */
export function instantOfWallTime(wall: string, timeZone: string): string | null {
  const m = WALL_TIME.exec(wall);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!, Number.isNaN(s) ? 0 : s!);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d!) return null;
  // The offset at the wall time read as UTC is off by at most the zone's change; the offset at
  // the first guess settles it.
  const first = asUtc - zoneOffsetMinutes(timeZone, asUtc) * 60_000;
  const settled = asUtc - zoneOffsetMinutes(timeZone, first) * 60_000;
  return new Date(settled).toISOString();
}
