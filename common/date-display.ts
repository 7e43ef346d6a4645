import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(customParseFormat);
dayjs.extend(utc);
dayjs.extend(timezone);

import {
  DEFAULT_DATE_DISPLAY,
  dateDisplayOf,
  isTimeZone,
  type DateDisplay,
} from './date-display-settings.ts';

export { DEFAULT_DATE_DISPLAY, dateDisplayOf, isTimeZone, type DateDisplay };

export const ISO_DATE = 'YYYY-MM-DD';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

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
  return (options.utcDay ? instant : instant.tz(display.timeZone)).format(display.dateFormat);
}

/** A timestamp with date and time in the tenant's formats and zone. Empty or invalid -> ''. */
export function formatInstant(display: DateDisplay, value: string | null | undefined): string {
  if (!value) return '';
  // A date-only value has no time of day to show: its day, unshifted.
  if (DATE_ONLY.test(value)) return formatDay(display, value);
  const instant = dayjs.utc(value);
  if (!instant.isValid()) return '';
  return instant.tz(display.timeZone).format(`${display.dateFormat} ${display.timeFormat}`);
}

/** The time of day of a timestamp in the tenant's format and zone. */
export function formatTimeOfDay(display: DateDisplay, value: string | null | undefined): string {
  if (!value) return '';
  const instant = dayjs.utc(value);
  return instant.isValid() ? instant.tz(display.timeZone).format(display.timeFormat) : '';
}
