import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import { ISO_DATE, formatDay, formatInstant } from '#common/date-display.ts';
import { getDateDisplay } from './date-display-store.ts';

dayjs.extend(customParseFormat);

export { ISO_DATE };

/**
 * What a date text input reads and writes (spec, section 9: DD.MM.YYYY). Inputs keep this one
 * format whatever the tenant shows, so that typing a date never depends on a setting.
 */
export const DISPLAY_DATE = 'DD.MM.YYYY';

// The tenant's display lives in its own store, which the shell loads without dayjs.
export { getDateDisplay, setDateDisplay, useDateDisplay } from './date-display-store.ts';

/**
 * A date in the tenant's format: a date-only value ('2024-12-31') as that day in any zone, a
 * timestamp as its day in the tenant's zone. Empty or invalid -> ''.
 */
export function formatDate(value: string | null | undefined): string {
  return formatDay(getDateDisplay(), value);
}

/**
 * A day stored as midnight UTC (a policy's start, end and periods): that UTC day, in the tenant's
 * format, never moved by the zone.
 */
export function formatUtcDay(value: string | null | undefined): string {
  return formatDay(getDateDisplay(), value, { utcDay: true });
}

/** A timestamp with date and time in the tenant's formats and zone; empty or invalid -> ''. */
export function formatDateTime(value: string | null | undefined): string {
  return formatInstant(getDateDisplay(), value);
}

/** '2024-12-31' -> '31.12.2024' for a date text input; empty or invalid -> ''. */
export function formatInputDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs(iso, ISO_DATE, true);
  return date.isValid() ? date.format(DISPLAY_DATE) : '';
}

/** '31.12.2024' -> '2024-12-31'; strict, so '31.02.2024' and '1.1.24' are null. */
export function parseDisplayDate(text: string): string | null {
  const date = dayjs(text.trim(), DISPLAY_DATE, true);
  return date.isValid() ? date.format(ISO_DATE) : null;
}

/**
 * What a date input shows for a stored value: the ISO date itself, since `<input type="date">`
 * takes ISO and renders it in the browser's locale. Text inputs use {@link formatInputDate}.
 */
export function isIsoDate(text: string): boolean {
  return dayjs(text, ISO_DATE, true).isValid();
}
