import type { Page } from '#client/api/tenant-admin-client.ts';
import {
  WORKFLOW_INSTANCE_STATUSES,
  type WorkflowInstanceStatus,
} from '#client/api/workflows-client.ts';
import { sortFromParam, type TableSort } from '#client/ui/table-sort.ts';
import { zoneOffsetMinutes } from '#common/date-display.ts';

/**
 * The workflow monitor's filters as the address keeps them (`?status=failed,active&entity=clm_1&
 * from=2026-11-01&to=2026-11-26&sort=created:desc`; the workflow and its version are the route's
 * path), read back leniently: an unknown status or a date that is no date is dropped, so the
 * list never fails on a hand-edited address.
 */

export const MONITOR_KEYS = ['status', 'entity', 'from', 'to', 'sort'] as const;
export type MonitorKey = (typeof MONITOR_KEYS)[number];

/**
 * The spec's 'Unselected' status value (section 4): it yields an empty list after 300 ms
 * (section 9) without asking the service; it stands alone, never beside a real status.
 */
export const UNSELECTED = 'unselected';
export const UNSELECTED_DELAY_MS = 300;

export type StatusChoice = WorkflowInstanceStatus | typeof UNSELECTED;
export const STATUS_CHOICES: readonly StatusChoice[] = [...WORKFLOW_INSTANCE_STATUSES, UNSELECTED];

/** Waits `ms`, or rejects as the table's abort does when the filters change meanwhile. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * A page of the monitor's list: with the 'Unselected' status nothing is asked and the list is
 * empty after UNSELECTED_DELAY_MS; otherwise `ask` answers.
 */
export async function monitorPage<T>(
  unselected: boolean,
  signal: AbortSignal,
  ask: () => Promise<Page<T>>,
): Promise<Page<T>> {
  if (!unselected) return ask();
  await pause(UNSELECTED_DELAY_MS, signal);
  return { items: [], nextPageToken: null, totalItems: 0 };
}

/** Table column -> the service's order field. */
export const MONITOR_ORDER_FIELDS: Record<string, 'createdAt' | 'updatedAt'> = {
  created: 'createdAt',
  updated: 'updatedAt',
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const isIsoDay = (text: string): boolean =>
  ISO_DAY.test(text) &&
  !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
  new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

export interface MonitorFilters {
  statuses: StatusChoice[];
  entity: string;
  /** ISO days, '' when open. */
  from: string;
  to: string;
  /** The days lie the wrong way round: the range is not applied. */
  reversed: boolean;
  sort: TableSort;
}

export function monitorFilters(values: Readonly<Record<MonitorKey, string>>): MonitorFilters {
  const chosen = values.status
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is StatusChoice => (STATUS_CHOICES as readonly string[]).includes(s));
  const statuses = chosen.includes(UNSELECTED) ? [UNSELECTED] : [...new Set(chosen)];
  const from = isIsoDay(values.from) ? values.from : '';
  const to = isIsoDay(values.to) ? values.to : '';
  return {
    statuses: statuses as StatusChoice[],
    entity: values.entity.trim(),
    from,
    to,
    reversed: from !== '' && to !== '' && to < from,
    sort: sortFromParam(values.sort, Object.keys(MONITOR_ORDER_FIELDS)),
  };
}

/**
 * The status filter with one choice switched on or off, in the order the choices are shown (the
 * same choice gives the same address). 'Unselected' clears the real statuses and a real status
 * clears it: the two do not combine.
 */
export function toggledStatus(
  current: readonly StatusChoice[],
  status: StatusChoice,
  on: boolean,
): string {
  let next = on ? [...current, status] : current.filter((s) => s !== status);
  if (on) {
    next = status === UNSELECTED ? [UNSELECTED] : next.filter((s) => s !== UNSELECTED);
  }
  const rank = (s: StatusChoice) => STATUS_CHOICES.indexOf(s);
  return [...new Set(next)].sort((a, b) => rank(a) - rank(b)).join(',');
}

/** The instant a wall-clock midnight of `day` is in `timeZone` (DST checked at the answer). */
function midnightIn(day: string, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  let instant = wall - zoneOffsetMinutes(timeZone, wall) * 60_000;
  // The offset at the guess may differ from the offset at the answer across a DST change.
  instant = wall - zoneOffsetMinutes(timeZone, instant) * 60_000;
  return instant;
}

/**
 * The createdAt bounds of the chosen days (spec, section 5: >= start, <= end), in the tenant's
 * zone: from the first instant of `from` to the last millisecond of `to` as the tenant's clock
 * shows them. An open end is undefined.
 */
export function createdBounds(
  from: string,
  to: string,
  timeZone: string,
): { createdFrom: string | undefined; createdTo: string | undefined } {
  const nextDay = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    createdFrom: from ? new Date(midnightIn(from, timeZone)).toISOString() : undefined,
    createdTo: to ? new Date(midnightIn(nextDay(to), timeZone) - 1).toISOString() : undefined,
  };
}

export type EntityKind = 'claim' | 'lead' | 'policy';

/**
 * The record an instance is about, by its code's prefix (the services make `clm_`, `lea_` and
 * `pol_` codes): the page it has in the suite. Anything else is shown as plain text.
 */
export function entityLink(
  accountIndex: number,
  code: string | null,
): { kind: EntityKind; to: string } | null {
  if (!code) return null;
  const match = /^(clm|lea|pol)_[A-Za-z0-9_-]+$/.exec(code);
  if (!match) return null;
  const kind = ({ clm: 'claim', lea: 'lead', pol: 'policy' } as const)[
    match[1] as 'clm' | 'lea' | 'pol'
  ];
  const path = { claim: 'claims', lead: 'leads', policy: 'policies' }[kind];
  return { kind, to: `/u/${accountIndex}/${path}/${encodeURIComponent(code)}` };
}

/** The monitor's address for a workflow (and version), with the list's other filters. */
export function monitorPath(
  accountIndex: number,
  workflowCode: string,
  versionNumber: string,
  search: string,
): string {
  const parts = [`/u/${accountIndex}/management/workflow-monitor`];
  if (workflowCode) {
    parts.push(encodeURIComponent(workflowCode));
    if (versionNumber) parts.push(encodeURIComponent(versionNumber));
  }
  return `${parts.join('/')}${search ? `?${search}` : ''}`;
}

/** An instance's page. */
export const instancePath = (
  accountIndex: number,
  instance: {
    code: string;
    workflow: { code: string };
    workflowVersion: { versionNumber: number };
  },
) =>
  `/u/${accountIndex}/management/workflow-monitor/${encodeURIComponent(instance.workflow.code)}/${instance.workflowVersion.versionNumber}/${encodeURIComponent(instance.code)}`;
