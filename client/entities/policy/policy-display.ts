import { formatUtcDay } from '#client/ui/form/dates.ts';

/**
 * How policies read on screen, shared by the policies screens and the customer's policies tab.
 * Pure functions: the rules are tested without a browser.
 */

/**
 * Spec, section 9: a policy's days (start, termination, periods) are stored as midnight UTC of
 * the day. Shown as that UTC day in the tenant's date format, so that a start date is the same
 * day for every reader whatever the time zone; its timestamps (created, versions) are ordinary
 * instants and use `formatDateTime`.
 */
export const formatUtcDate = formatUtcDay;

// The policies list's rows carry the unit the BFF worked out with the same rule.
export { grandTotalUnit } from '#common/premium.ts';
