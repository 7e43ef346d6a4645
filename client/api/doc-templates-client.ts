import { fetchFile, fetchJson } from './fetch-json.ts';
import type { TemplateVariable, TemplateVersion } from './templates-client.ts';

/**
 * Document layouts and templates of the document service through the BFF proxy
 * (docs/contracts.md, "Document templates (issue 19)"). The body is Liquid; a refused source is a
 * 400 `validation_error` whose issues name `bodyTemplate`, line and column. A preview is a PDF.
 */

export interface DocTemplate {
  id: number;
  code: string;
  slug: string;
  name: string;
  kind: string;
  layoutId: number | null;
  layoutCode: string | null;
  bodyTemplate?: string;
  isSystem: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
  updatedByName: string | null;
}

export interface DocLayout {
  id: number;
  code: string;
  name: string;
  isDefault: boolean;
}

const base = (accountIndex: number) => `/api/${accountIndex}/documentservice/v1`;
const templatePath = (accountIndex: number, code: string) =>
  `${base(accountIndex)}/doc-templates/${encodeURIComponent(code)}`;

/** The workspace's document templates: a handful, one page, oldest first. */
export async function listDocTemplates(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<DocTemplate[]> {
  const page = await fetchJson<{ items: DocTemplate[] }>(
    `${base(accountIndex)}/doc-templates?pageSize=100`,
    { signal },
  );
  return page.items;
}

export async function listDocLayouts(accountIndex: number, signal?: AbortSignal) {
  const page = await fetchJson<{ items: DocLayout[] }>(
    `${base(accountIndex)}/layouts?pageSize=60`,
    { signal },
  );
  return page.items;
}

/** A template by its code (`dtp_…`) with its body and the variables its kind may use. */
export async function getDocTemplate(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<{ template: DocTemplate & { bodyTemplate: string }; variables: TemplateVariable[] }> {
  return fetchJson(templatePath(accountIndex, code), { signal });
}

export async function listDocTemplateVersions(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<TemplateVersion[]> {
  const page = await fetchJson<{ items: TemplateVersion[] }>(
    `${templatePath(accountIndex, code)}/versions`,
    { signal },
  );
  return page.items;
}

export interface DocTemplateChanges {
  name: string;
  layoutCode: string | null;
  bodyTemplate: string;
}

export async function saveDocTemplate(
  accountIndex: number,
  code: string,
  data: DocTemplateChanges,
  signal?: AbortSignal,
): Promise<DocTemplate & { bodyTemplate: string }> {
  const { layoutCode, ...rest } = data;
  const answer = await fetchJson<{ template: DocTemplate & { bodyTemplate: string } }>(
    templatePath(accountIndex, code),
    { method: 'PUT', body: { data: { ...rest, ...(layoutCode ? { layoutCode } : {}) } }, signal },
  );
  return answer.template;
}

export interface DocPreviewRequest {
  kind: string;
  name: string;
  layoutCode: string | null;
  bodyTemplate: string;
}

/** The unsaved sources printed with the kind's sample record: the PDF as a Blob. */
export async function previewDocTemplate(
  accountIndex: number,
  request: DocPreviewRequest,
  signal?: AbortSignal,
): Promise<Blob> {
  const { layoutCode, ...rest } = request;
  const file = await fetchFile(`${base(accountIndex)}/doc-templates/preview`, signal, {
    method: 'POST',
    body: { ...rest, ...(layoutCode ? { layoutCode } : {}) },
  });
  return file.blob;
}

/** The document kinds with the variables each may use. */
export async function listDocTemplateKinds(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ kind: string; variables: TemplateVariable[] }[]> {
  const answer = await fetchJson<{ items: { kind: string; variables: TemplateVariable[] }[] }>(
    `${base(accountIndex)}/doc-template-kinds`,
    { signal },
  );
  return answer.items;
}

export async function createDocTemplate(
  accountIndex: number,
  template: { name: string; kind: string; layoutCode: string | null; bodyTemplate: string },
): Promise<DocTemplate> {
  const { layoutCode, ...rest } = template;
  const answer = await fetchJson<{ template: DocTemplate }>(`${base(accountIndex)}/doc-templates`, {
    method: 'POST',
    body: { ...rest, ...(layoutCode ? { layoutCode } : {}) },
  });
  return answer.template;
}

/** Deletes one of the workspace's own templates; the policy schedule is refused (409). */
export async function deleteDocTemplate(accountIndex: number, code: string): Promise<void> {
  await fetchJson(templatePath(accountIndex, code), { method: 'DELETE' });
}
