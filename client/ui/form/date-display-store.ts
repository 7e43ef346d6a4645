import { useSyncExternalStore } from 'react';
import {
  DEFAULT_DATE_DISPLAY,
  isTimeZone,
  type DateDisplay,
} from '#common/date-display-settings.ts';

/*
 * The tenant's date display, one per page: the shell sets it from the general settings (cached,
 * then loaded with the tenant's data) and the settings screen when they are saved. Everything on
 * screen formats through `./dates.ts` with it, so a date reads the same in a list, a detail and
 * the CSV export (which formats with the same common functions on the server). This store has no
 * date library in it, so the shell can hold it without loading dayjs (bench/bundle-size.ts).
 */
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
let current: DateDisplay = {
  ...DEFAULT_DATE_DISPLAY,
  timeZone: browserZone && isTimeZone(browserZone) ? browserZone : DEFAULT_DATE_DISPLAY.timeZone,
};
const listeners = new Set<() => void>();

export function setDateDisplay(display: DateDisplay): void {
  if (
    display.dateFormat === current.dateFormat &&
    display.timeFormat === current.timeFormat &&
    display.timeZone === current.timeZone
  ) {
    return;
  }
  current = display;
  for (const listener of listeners) listener();
}

export function getDateDisplay(): DateDisplay {
  return current;
}

/** The display in a component: it renders again when the tenant's display changes. The same
 * on a server render (a prerendered page, a test's static markup) as in the browser. */
export function useDateDisplay(): DateDisplay {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getDateDisplay,
    getDateDisplay,
  );
}
