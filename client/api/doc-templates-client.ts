import { fetchFile, fetchJson } from './fetch-json.ts';
import { templateCalls } from './template-calls.ts';

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

/** A template as one read or a save answers it: with its body. */
export type FullDocTemplate = DocTemplate & { bodyTemplate: string };

export interface DocLayout {
  id: number;
  code: string;
  name: string;
  isDefault: boolean;
  /** Chromium's header and footer of every page (with `expand` or read one by one). */
  headerTemplate?: string;
  footerTemplate?: string;
  updatedAt: string;
  updatedByName: string | null;
}

export interface DocTemplateChanges {
  name: string;
  layoutCode: string | null;
  bodyTemplate: string;
}

export interface NewDocTemplate {
  /** Its key; a static document is published under it (decision 020). Else taken from the code. */
  slug?: string;
  name: string;
  kind: string;
  layoutCode: string | null;
  bodyTemplate: string;
}

/** The service knows "no layout" as an absent layoutCode, not a null one. */
const withoutNullLayout = <T extends { layoutCode: string | null }>({
  layoutCode,
  ...rest
}: T) => ({ ...rest, ...(layoutCode ? { layoutCode } : {}) });

/** The workspace's document templates (`dtp_…` codes): a handful, oldest first. */
export const docTemplates = templateCalls<
  FullDocTemplate,
  DocLayout,
  DocTemplateChanges,
  NewDocTemplate,
  DocTemplate
>({
  service: 'documentservice',
  collection: 'doc-templates',
  kinds: 'doc-template-kinds',
  wire: withoutNullLayout,
});

export interface DocPreviewRequest {
  kind: string;
  name: string;
  layoutCode: string | null;
  bodyTemplate: string;
  /** A record of the kind to print instead of the sample (its code). */
  entityCode?: string;
}

/** The unsaved sources printed with the kind's sample record: the PDF as a Blob. */
export async function previewDocTemplate(
  accountIndex: number,
  request: DocPreviewRequest,
  signal?: AbortSignal,
): Promise<Blob> {
  const file = await fetchFile(`${docTemplates.base(accountIndex)}/doc-templates/preview`, signal, {
    method: 'POST',
    body: withoutNullLayout(request),
  });
  return file.blob;
}

/** What an issue on request answers: the new document and the record it belongs to. */
export interface IssuedDocumentRef {
  code: string;
  entityType: string;
  entityId: string;
  policyCode: string | null;
}

/**
 * A record's document from one template of its kind (`POST /doc-templates/{code}/issue`), a new
 * one beside those issued before; 404 when the record is gone, 400 `not_issuable` for a kind
 * without records.
 */
export const issueFromTemplate = (accountIndex: number, templateCode: string, entityCode: string) =>
  fetchJson<IssuedDocumentRef>(
    `${docTemplates.base(accountIndex)}/doc-templates/${encodeURIComponent(templateCode)}/issue`,
    { method: 'POST', body: { entityCode } },
  );
