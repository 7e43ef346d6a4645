import { fetchJson } from './fetch-json.ts';

/** A variable a template's kind may use (`policy.holder.name`, `policy.items` a list). */
export interface TemplateVariable {
  path: string;
  type: string;
}

export interface TemplateVersion {
  version: number;
  name: string;
  savedAt: string;
  savedByName: string | null;
}

/**
 * The calls the notification and the document service answer alike for their templates
 * (docs/contracts.md, issue 19), on `/api/{accountIndex}/{service}/v1`: the list (a handful per
 * workspace, one page), the layouts, one template with the variables of its kind, its versions,
 * a save (PUT with `{ data }`), the kinds, create and delete (a system template's delete is a
 * 409). `wire` shapes what is sent: the document service takes no `layoutCode: null`.
 */
// `Item`: a template as the list answers it (the document list leaves the body out).
export function templateCalls<Template, Layout, Changes, New, Item = Template>({
  service,
  collection,
  kinds,
  wire = (body) => body,
}: {
  service: 'notificationservice' | 'documentservice';
  /** `notification-templates`, `doc-templates`. */
  collection: string;
  /** The kinds with their variables: `template-kinds`, `doc-template-kinds`. */
  kinds: string;
  wire?: (body: Changes | New) => unknown;
}) {
  const base = (accountIndex: number) => `/api/${accountIndex}/${service}/v1`;
  const one = (accountIndex: number, code: string) =>
    `${base(accountIndex)}/${collection}/${encodeURIComponent(code)}`;
  const layoutPath = (accountIndex: number, code: string) =>
    `${base(accountIndex)}/layouts/${encodeURIComponent(code)}`;
  // The spec's page size for layouts.
  const layouts = (accountIndex: number, signal?: AbortSignal) =>
    items<Layout>(`${base(accountIndex)}/layouts?pageSize=60`, signal);
  const items = async <T>(path: string, signal?: AbortSignal) =>
    (await fetchJson<{ items: T[] }>(path, { signal })).items;
  return {
    base,
    list: (accountIndex: number, signal?: AbortSignal) =>
      items<Item>(`${base(accountIndex)}/${collection}?pageSize=100`, signal),
    layouts,
    get: (
      accountIndex: number,
      code: string,
      signal?: AbortSignal,
    ): Promise<{ template: Template; variables: TemplateVariable[] }> =>
      fetchJson(one(accountIndex, code), { signal }),
    versions: (accountIndex: number, code: string, signal?: AbortSignal) =>
      items<TemplateVersion>(`${one(accountIndex, code)}/versions`, signal),
    save: async (
      accountIndex: number,
      code: string,
      data: Changes,
      signal?: AbortSignal,
    ): Promise<Template> =>
      (
        await fetchJson<{ template: Template }>(one(accountIndex, code), {
          method: 'PUT',
          body: { data: wire(data) },
          signal,
        })
      ).template,
    kinds: (accountIndex: number, signal?: AbortSignal) =>
      items<{ kind: string; variables: TemplateVariable[] }>(
        `${base(accountIndex)}/${kinds}`,
        signal,
      ),
    create: async (accountIndex: number, template: New): Promise<Template> =>
      (
        await fetchJson<{ template: Template }>(`${base(accountIndex)}/${collection}`, {
          method: 'POST',
          body: wire(template),
        })
      ).template,
    remove: async (accountIndex: number, code: string): Promise<void> => {
      await fetchJson(one(accountIndex, code), { method: 'DELETE' });
    },
    /** A path below one template (`test-mail`). */
    pathOf: one,
    /** The layout calls of one workspace, as the layouts section takes them: the list, one
     * layout (id or code) with its sources, its changes (each answered `{ layout }`), delete. */
    layoutsOf: (accountIndex: number) => ({
      list: (signal: AbortSignal) => layouts(accountIndex, signal),
      get: async (code: string, signal: AbortSignal) =>
        (await fetchJson<{ layout: Layout }>(layoutPath(accountIndex, code), { signal })).layout,
      create: async (fields: Record<string, string>) =>
        (
          await fetchJson<{ layout: Layout }>(`${base(accountIndex)}/layouts`, {
            method: 'POST',
            body: fields,
          })
        ).layout,
      save: async (code: string, fields: Record<string, string>) =>
        (
          await fetchJson<{ layout: Layout }>(layoutPath(accountIndex, code), {
            method: 'PUT',
            body: { data: fields },
          })
        ).layout,
      remove: async (code: string): Promise<void> => {
        await fetchJson(layoutPath(accountIndex, code), { method: 'DELETE' });
      },
    }),
  };
}
