import { fetchJson } from './fetch-json.ts';
import type { Page } from './tenant-admin-client.ts';
import type { PresignedPost } from '#machines/document-upload.machine.ts';
import type { ProductDocument } from '#common/contracts/product-document.ts';

export type { ProductDocument };

/**
 * A product's documents through the BFF proxy (docs/contracts.md, "Product documents (issue
 * 19)"): listed, signed for upload, downloaded and deleted by the product's slug.
 */
const base = (accountIndex: number, slug: string) =>
  `/api/${accountIndex}/documentservice/v1/documents/product/${encodeURIComponent(slug)}`;

export const productDocumentsKey = (accountIndex: number, slug: string) =>
  ['product-documents', accountIndex, slug] as const;

export function listProductDocuments(
  accountIndex: number,
  slug: string,
  signal?: AbortSignal,
): Promise<Page<ProductDocument>> {
  return fetchJson(`${base(accountIndex, slug)}?pageSize=100`, { signal });
}

export function requestProductUpload(
  accountIndex: number,
  slug: string,
  filename: string,
): Promise<PresignedPost> {
  return fetchJson(base(accountIndex, slug), { method: 'POST', body: { filename } });
}

export function productDocumentDownloadUrl(
  accountIndex: number,
  slug: string,
  code: string,
): Promise<{ url: string }> {
  return fetchJson(`${base(accountIndex, slug)}/${encodeURIComponent(code)}/download-url`);
}

export function deleteProductDocument(
  accountIndex: number,
  slug: string,
  code: string,
): Promise<void> {
  return fetchJson(`${base(accountIndex, slug)}/${encodeURIComponent(code)}`, {
    method: 'DELETE',
  });
}
