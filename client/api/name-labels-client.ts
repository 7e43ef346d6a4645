import { fetchJson } from './fetch-json.ts';
import type { NameLabels } from '#common/name-labels.ts';

/**
 * The tenant-defined names an admin translates (issue 16): claim and lead statuses and claim
 * partner roles, each `PUT …/:slug/labels` of its service.
 */
export type NamedKind = 'claim-statuses' | 'lead-statuses' | 'claim-partner-roles';

const SERVICE: Record<NamedKind, string> = {
  'claim-statuses': 'claimservice',
  'lead-statuses': 'insuranceservice',
  'claim-partner-roles': 'claimservice',
};

export interface NamedRecord {
  slug: string;
  name: string;
  labels: NameLabels;
}

export async function listNamed(
  accountIndex: number,
  kind: NamedKind,
  signal?: AbortSignal,
): Promise<NamedRecord[]> {
  const res = await fetchJson<{ items: NamedRecord[] }>(
    `/api/${accountIndex}/${SERVICE[kind]}/v1/${kind}`,
    { signal },
  );
  return res.items;
}

/**
 * Saves a name's labels on top of the ones the editor started from (`basedOn`): 409
 * `version_conflict` with `current` when someone saved others since.
 */
export function saveNameLabels(
  accountIndex: number,
  kind: NamedKind,
  slug: string,
  body: NameLabels & { basedOn: NameLabels },
  signal?: AbortSignal,
): Promise<NamedRecord> {
  return fetchJson(
    `/api/${accountIndex}/${SERVICE[kind]}/v1/${kind}/${encodeURIComponent(slug)}/labels`,
    { method: 'PUT', body, signal },
  );
}
