import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(customParseFormat);
dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * How a tenant shows dates and times: its general settings `format_dates`, `format_hours` and
 * `time_zone` (spec, shell section "Tenant general settings"). The one formatter of the product:
 * the client's screens (through `client/ui/form/dates.ts`) and the BFF's CSV export both format
 * with these functions, so a list, a detail and an exported file read alike.
 */
export interface DateDisplay {
  /** A dayjs format, `DD.MM.YYYY` by default. */
  dateFormat: string;
  /** A dayjs format, `HH:mm` by default. */
  timeFormat: string;
  /** An IANA zone; timestamps are shown in it. Date-only values never move with it. */
  timeZone: string;
}

export const ISO_DATE = 'YYYY-MM-DD';

/** Spec, section 9: DD.MM.YYYY and HH:mm unless the tenant chose otherwise. */
export const DEFAULT_DATE_DISPLAY: DateDisplay = {
  dateFormat: 'DD.MM.YYYY',
  timeFormat: 'HH:mm',
  timeZone: 'UTC',
};

/**
 * A tenant's general settings as a display. The spec's demo default hours format is `hh:mm:ss`:
 * in dayjs `hh` is the 12-hour clock, and without an AM/PM marker 03:00 and 15:00 would read the
 * same, so a format without `A`/`a` is read as the 24-hour clock it must have meant.
 */
export function dateDisplayOf(general: {
  format_dates?: unknown;
  format_hours?: unknown;
  time_zone?: unknown;
}): DateDisplay {
  const text = (value: unknown, fallback: string) =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
  const hours = text(general.format_hours, DEFAULT_DATE_DISPLAY.timeFormat);
  const zone = text(general.time_zone, DEFAULT_DATE_DISPLAY.timeZone);
  return {
    dateFormat: text(general.format_dates, DEFAULT_DATE_DISPLAY.dateFormat),
    timeFormat: /[Aa]/.test(hours) ? hours : hours.replace(/h/g, 'H'),
    timeZone: isTimeZone(zone) ? zone : DEFAULT_DATE_DISPLAY.timeZone,
  };
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

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
