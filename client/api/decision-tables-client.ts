import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';
import type {
  DecisionTable,
  DecisionTableSummary,
  DecisionTableVersion,
  DecisionTableVersionSummary,
} from '#common/contracts/processmanager.ts';

export type {
  DecisionLogic,
  DecisionTable,
  DecisionTableSummary,
  DecisionTableVersion,
  DecisionTableVersionSummary,
} from '#common/contracts/processmanager.ts';

/**
 * Decision tables (DMN) of the process manager through the BFF proxy. A table is edited by
 * uploading its next version (PUT with a DMN file), never in place; the name is patched. Refusals
 * are ApiErrors: 400 `invalid_dmn` (a file that does not parse, a rule with the wrong number of
 * entries) or `validation_error`, 404 "Can't create or load decision table", 409 `duplicate`.
 * There is no delete: the spec's upstream has none for decision tables (its call answers
 * "Method … not implemented", 501), so no screen offers one.
 */

export const DECISION_TABLES_PAGE_SIZE = 30;

const base = (accountIndex: number) => `/api/${accountIndex}/processmanager/v1/decision-tables`;
const tablePath = (accountIndex: number, code: string) =>
  `${base(accountIndex)}/${encodeURIComponent(code)}`;

const dmnFile = (xml: string, code: string) =>
  new File([xml], `${code || 'decision-table'}.dmn`, { type: 'application/xml' });

export interface DecisionTablesQuery {
  pageToken?: string | null;
  search?: string;
  order?: { field: 'id' | 'name'; direction: 'ASC' | 'DESC' } | null;
}

export const decisionTablesParams = (query: DecisionTablesQuery): string =>
  listParams({
    pageSize: DECISION_TABLES_PAGE_SIZE,
    pageToken: query.pageToken ?? null,
    ...(query.search ? { search: query.search } : {}),
    order: query.order ?? null,
  });

export function listDecisionTables(
  accountIndex: number,
  query: DecisionTablesQuery,
  signal?: AbortSignal,
): Promise<Page<DecisionTableSummary>> {
  return fetchJson(`${base(accountIndex)}?${decisionTablesParams(query)}`, { signal });
}

/**
 * Every table of the workspace by name, page after page: the choices of a rule task's picker,
 * which must offer the 31st table too. A workspace keeps tens of tables, not thousands; the
 * pages stop at `limit` all the same, so a runaway list cannot hold the editor.
 */
export async function listAllDecisionTables(
  accountIndex: number,
  signal?: AbortSignal,
  limit = 1000,
): Promise<DecisionTableSummary[]> {
  const all: DecisionTableSummary[] = [];
  let pageToken: string | null = null;
  do {
    const page: Page<DecisionTableSummary> = await listDecisionTables(
      accountIndex,
      { pageToken, order: { field: 'name', direction: 'ASC' } },
      signal,
    );
    all.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken !== null && all.length < limit);
  return all;
}

/** A table with its latest version (the DMN and the table read from it). */
export async function getDecisionTable(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<DecisionTable> {
  const answer = await fetchJson<{ decisionTable: DecisionTable }>(tablePath(accountIndex, code), {
    signal,
  });
  return answer.decisionTable;
}

export async function createDecisionTable(
  accountIndex: number,
  input: { code: string; name: string; definition: string },
  signal?: AbortSignal,
): Promise<DecisionTable> {
  const form = new FormData();
  form.set('code', input.code);
  form.set('name', input.name);
  form.set('file', dmnFile(input.definition, input.code));
  const answer = await fetchJson<{ decisionTable: DecisionTable }>(base(accountIndex), {
    method: 'POST',
    body: form,
    signal,
  });
  return answer.decisionTable;
}

/** The table's next version from a DMN. */
export async function saveDecisionTableVersion(
  accountIndex: number,
  code: string,
  definition: string,
  signal?: AbortSignal,
): Promise<DecisionTable> {
  const form = new FormData();
  form.set('file', dmnFile(definition, code));
  const answer = await fetchJson<{ decisionTable: DecisionTable }>(tablePath(accountIndex, code), {
    method: 'PUT',
    body: form,
    signal,
  });
  return answer.decisionTable;
}

export async function renameDecisionTable(
  accountIndex: number,
  code: string,
  name: string,
  signal?: AbortSignal,
): Promise<DecisionTable> {
  const answer = await fetchJson<{ decisionTable: DecisionTable }>(tablePath(accountIndex, code), {
    method: 'PATCH',
    body: { name },
    signal,
  });
  return answer.decisionTable;
}

export function listDecisionTableVersions(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<Page<DecisionTableVersionSummary>> {
  return fetchJson(`${tablePath(accountIndex, code)}/versions`, { signal });
}

export async function getDecisionTableVersion(
  accountIndex: number,
  code: string,
  versionNumber: number,
  signal?: AbortSignal,
): Promise<DecisionTableVersion> {
  const answer = await fetchJson<{ decisionTableVersion: DecisionTableVersion }>(
    `${tablePath(accountIndex, code)}/versions/${versionNumber}`,
    { signal },
  );
  return answer.decisionTableVersion;
}

/** The "try it" panel: the latest version on the inputs given; nothing is saved. */
export async function evaluateDecisionTable(
  accountIndex: number,
  code: string,
  variables: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Record<string, unknown> | null> {
  const answer = await fetchJson<{ result: Record<string, unknown> | null }>(
    `${tablePath(accountIndex, code)}/evaluate`,
    { method: 'POST', body: { variables }, signal },
  );
  return answer.result;
}
