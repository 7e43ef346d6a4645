import { fetchJson } from './fetch-json.ts';
import type {
  ListView,
  ListViewCreateInput,
  ListViewUpdateInput,
} from '#common/contracts/tenant.ts';

// The record's type is the tenantservice's contract (common/contracts/tenant.ts).
export type { ListView };

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1/list-views`;

export async function listViews(accountIndex: number, list: string, signal?: AbortSignal) {
  const page = await fetchJson<{ items: ListView[] }>(
    `${base(accountIndex)}?filter=${encodeURIComponent(`list=${list}`)}`,
    { signal },
  );
  return page.items;
}

export async function createListView(accountIndex: number, view: ListViewCreateInput) {
  const { listView } = await fetchJson<{ listView: ListView }>(base(accountIndex), {
    method: 'POST',
    body: view,
  });
  return listView;
}

export async function updateListView(
  accountIndex: number,
  code: string,
  view: ListViewUpdateInput,
) {
  const { listView } = await fetchJson<{ listView: ListView }>(
    `${base(accountIndex)}/${encodeURIComponent(code)}`,
    { method: 'PUT', body: view },
  );
  return listView;
}

export function deleteListView(accountIndex: number, code: string) {
  return fetchJson<void>(`${base(accountIndex)}/${encodeURIComponent(code)}`, {
    method: 'DELETE',
  });
}
