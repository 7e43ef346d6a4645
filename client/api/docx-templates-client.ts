import { fetchFile, fetchJson } from './fetch-json.ts';
import type { Page } from './tenant-admin-client.ts';
import type {
  DocxEntityType,
  DocxFormat,
  DocxTemplate,
  DocxTemplateCreate,
  DocxTemplateUpload,
} from '#common/contracts/docx-template.ts';

export type { DocxTemplate };

/**
 * Docx templates of the document service through the BFF proxy (issue 19, decision 019): listed,
 * written with a signed upload, read (which has the arrived file checked: 422
 * `template_refused` with its problems), downloaded, filled with a record and removed.
 */
const base = (accountIndex: number) => `/api/${accountIndex}/documentservice/v1/docx-templates`;
const one = (accountIndex: number, code: string) =>
  `${base(accountIndex)}/${encodeURIComponent(code)}`;

export const docxTemplatesKey = (accountIndex: number) => ['docx-templates', accountIndex] as const;

/** The workspace's templates, newest first (a handful: one page of 100). */
export function listDocxTemplates(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<Page<DocxTemplate>> {
  return fetchJson(`${base(accountIndex)}?pageSize=100&order=createdAt:DESC`, { signal });
}

/** Writes the template and answers where its file goes. */
export function createDocxTemplate(
  accountIndex: number,
  body: DocxTemplateCreate,
  signal?: AbortSignal,
): Promise<DocxTemplateUpload> {
  return fetchJson(base(accountIndex), { method: 'POST', body, signal });
}

export async function getDocxTemplate(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<DocxTemplate> {
  const res = await fetchJson<{ docxTemplate: DocxTemplate }>(one(accountIndex, code), { signal });
  return res.docxTemplate;
}

export function deleteDocxTemplate(accountIndex: number, code: string): Promise<void> {
  return fetchJson(one(accountIndex, code), { method: 'DELETE' });
}

export function docxTemplateDownloadUrl(
  accountIndex: number,
  code: string,
): Promise<{ url: string }> {
  return fetchJson(`${one(accountIndex, code)}/download-url`);
}

/** The template filled with one record's facts, as a file to save. */
export function renderDocxTemplate(
  accountIndex: number,
  code: string,
  body: { entityType: DocxEntityType; entityId: string; format: DocxFormat },
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string | null }> {
  return fetchFile(`${one(accountIndex, code)}/render`, signal, { method: 'POST', body });
}

/** The tags each record kind's templates may use (`policy.number`, a list and its members). */
export async function listDocxEntities(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ entityType: DocxEntityType; variables: { tag: string; type: string }[] }[]> {
  const res = await fetchJson<{
    items: { entityType: DocxEntityType; variables: { tag: string; type: string }[] }[];
  }>(`/api/${accountIndex}/documentservice/v1/docx-template-entities`, { signal });
  return res.items;
}
