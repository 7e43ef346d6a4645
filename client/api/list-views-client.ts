import { fetchJson } from './fetch-json.ts';

/** A saved view of a list (sandbox: server/sandbox/list-view-routes.ts). */
export interface ListView {
  id: number;
  code: string;
  list: string;
  name: string;
  /** The list's query string as its address carries it, without '?'. */
  query: string;
  shared: boolean;
  isOwn: boolean;
  owner: { name: string };
  version: number;
  createdAt: string;
  updatedAt: string;
}

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1/list-views`;

export async function listViews(accountIndex: number, list: string, signal?: AbortSignal) {
  const page = await fetchJson<{ items: ListView[] }>(
    `${base(accountIndex)}?filter=${encodeURIComponent(`list=${list}`)}`,
    { signal },
  );
  return page.items;
}

export async function createListView(
  accountIndex: number,
  view: { list: string; name: string; query: string; shared: boolean },
) {
  const { listView } = await fetchJson<{ listView: ListView }>(base(accountIndex), {
    method: 'POST',
    body: view,
  });
  return listView;
}

export async function updateListView(
  accountIndex: number,
  code: string,
  view: { name: string; query: string; shared: boolean; version: number },
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
