import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';

dayjs.extend(customParseFormat);

/** Spec, section 9: dates are shown DD.MM.YYYY (and DD.MM.YYYY HH:mm) and stored ISO. */
export const DISPLAY_DATE = 'DD.MM.YYYY';
export const DISPLAY_DATE_TIME = 'DD.MM.YYYY HH:mm';
export const ISO_DATE = 'YYYY-MM-DD';

/** '2024-12-31' -> '31.12.2024'; empty or invalid -> ''. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs(iso, ISO_DATE, true);
  return date.isValid() ? date.format(DISPLAY_DATE) : '';
}

/** '31.12.2024' -> '2024-12-31'; strict, so '31.02.2024' and '1.1.24' are null. */
export function parseDisplayDate(text: string): string | null {
  const date = dayjs(text.trim(), DISPLAY_DATE, true);
  return date.isValid() ? date.format(ISO_DATE) : null;
}

/** An ISO timestamp -> 'DD.MM.YYYY HH:mm' in local time; empty or invalid -> ''. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs(iso);
  return date.isValid() ? date.format(DISPLAY_DATE_TIME) : '';
}

/**
 * What a date input shows for a stored value: the ISO date itself, since `<input type="date">`
 * takes ISO and renders it in the browser's locale. Text inputs use {@link formatDate}.
 */
export function isIsoDate(text: string): boolean {
  return dayjs(text, ISO_DATE, true).isValid();
}
