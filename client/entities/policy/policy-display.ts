import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { DISPLAY_DATE, DISPLAY_DATE_TIME } from '#client/ui/form/dates.ts';

dayjs.extend(utc);

/**
 * How policies read on screen, shared by the policies screens and the customer's policies tab.
 * Pure functions: the rules are tested without a browser.
 */

/**
 * Spec, section 9: a policy's timestamps are converted to UTC. Shown in UTC too, so that a
 * start date of midnight UTC is the same day for every reader whatever their time zone.
 */
export function formatUtcDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs.utc(iso);
  return date.isValid() ? date.format(DISPLAY_DATE) : '';
}

export function formatUtcDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs.utc(iso);
  return date.isValid() ? `${date.format(DISPLAY_DATE_TIME)} UTC` : '';
}

// The policies list's rows carry the unit the BFF worked out with the same rule.
export { grandTotalUnit } from '#common/premium.ts';
