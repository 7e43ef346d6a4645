import { fetchFile, fetchJson } from './fetch-json.ts';

/**
 * Static documents of the document service through the BFF proxy (docs/contracts.md, "Static
 * documents and the IPID", decision 020): the record-less templates with their newest
 * publication, one with every publication, publishing, and the published PDF by key.
 */

export interface StaticDocument {
  key: string;
  templateCode: string;
  name: string;
  kind: string;
  templateVersion: number;
  updatedAt: string;
  publishedVersion: number | null;
  publishedTemplateVersion: number | null;
  publishedAt: string | null;
  publishedByName: string | null;
}

export interface StaticPublication {
  key: string;
  version: number;
  templateVersion: number;
  title: string;
  filename: string;
  publishedAt: string;
  publishedByName: string;
}

const base = (accountIndex: number) => `/api/${accountIndex}/documentservice/v1`;

export const staticDocumentsKey = (accountIndex: number) => ['static-documents', accountIndex];
export const staticDocumentKey = (accountIndex: number, key: string) => [
  'static-document',
  accountIndex,
  key,
];

export async function listStaticDocuments(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<StaticDocument[]> {
  return (
    await fetchJson<{ items: StaticDocument[] }>(`${base(accountIndex)}/static-documents`, {
      signal,
    })
  ).items;
}

export function getStaticDocument(
  accountIndex: number,
  key: string,
  signal?: AbortSignal,
): Promise<{ staticDocument: StaticDocument; versions: StaticPublication[] }> {
  return fetchJson(`${base(accountIndex)}/static-documents/${encodeURIComponent(key)}`, {
    signal,
  });
}

export async function publishStaticDocument(
  accountIndex: number,
  key: string,
): Promise<StaticPublication> {
  return (
    await fetchJson<{ version: StaticPublication }>(
      `${base(accountIndex)}/static-documents/${encodeURIComponent(key)}/publish`,
      { method: 'POST' },
    )
  ).version;
}

/** The published PDF of the key: the newest, or the one numbered `version`. */
export async function downloadStaticDocument(
  accountIndex: number,
  key: string,
  version?: number,
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string | null }> {
  const query = version === undefined ? '' : `?version=${version}`;
  return fetchFile(
    `${base(accountIndex)}/documents/download-static/${encodeURIComponent(key)}${query}`,
    signal,
  );
}
