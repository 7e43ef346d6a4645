/*
 * The tenant's date display as settings, without a date library: the shell keeps it from the
 * first paint on (client/ui/form/date-display-store.ts), while dayjs, which formats with it
 * (./date-display.ts), loads with the screens that show dates. Kept apart for the shell's size
 * budget (bench/bundle-size.ts).
 */

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
