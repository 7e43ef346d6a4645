import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';
import { isStorageAddress } from './app-config.ts';
import type { PresignedPost, PresignRequest } from '#machines/document-upload.machine.ts';
import {
  CLAIM_DOCUMENT_ENTITY_TYPE,
  CLAIM_DOCUMENT_REQUESTER,
  CLAIM_DOCUMENT_TEMPLATE_SLUG,
  CLAIM_DOCUMENTS_PAGE_SIZE,
} from '#common/claim-documents.ts';
import type { Document, DocumentOwner, SearchableDocument } from '#common/contracts/document.ts';

// The records' types are the documentservice's contract (common/contracts/document.ts): a lead's
// and a claim's documents are the same record.
export type {
  Document as ClaimDocument,
  Document as DocumentMeta,
  DocumentOwner,
  SearchableDocument,
};

/**
 * Documents of the document service through the BFF proxy (docs/contracts.md, "Insurance:
 * leads", "Claims and documents" and "Document templates (issue 19)"): the files of a lead, a
 * claim, a customer or a policy; signed uploads and downloads of claim documents.
 */

/** Spec, section 9: lead documents are asked for 20 at a time. */
export const LEAD_DOCUMENTS_PAGE_SIZE = 20;

/** A time range of the documents time filter: ISO instants, either end open. */
interface DocumentRange {
  from?: string | null;
  to?: string | null;
}

/**
 * One page of the documents `filter` names (the owner), within `range`: the one list call every
 * owner's list is made of. Newest first is the service's default; `newestFirst` asks for it in
 * so many words (the spec's policy list names its order).
 */
function listDocuments(
  accountIndex: number,
  pageSize: number,
  filter: Record<string, string>,
  query: DocumentRange & { page?: number | undefined; newestFirst?: boolean },
  signal?: AbortSignal,
): Promise<Page<Document>> {
  const params = listParams({
    pageSize,
    ...(query.page !== undefined ? { page: query.page } : {}),
    ...(query.newestFirst ? { order: { field: 'createdAt', direction: 'DESC' as const } } : {}),
    filter: {
      ...filter,
      ...(query.from ? { createdAtFrom: query.from } : {}),
      ...(query.to ? { createdAtTo: query.to } : {}),
    },
  });
  return fetchJson(`/api/${accountIndex}/documentservice/v1/documents?${params}`, { signal });
}

/** Spec, section 9: an invoice's documents come 100 at a time. */
export const INVOICE_DOCUMENTS_PAGE_SIZE = 100;

/** The documents of one entity (a lead by its code, an invoice by its code). */
export function listEntityDocuments(
  accountIndex: number,
  query: DocumentRange & {
    entityType: string;
    entityId: string;
    page?: number;
    pageSize: number;
    newestFirst?: boolean;
  },
  signal?: AbortSignal,
): Promise<Page<Document>> {
  const { entityType, entityId, pageSize, ...rest } = query;
  return listDocuments(accountIndex, pageSize, { entityType, entityId }, rest, signal);
}

/** A claim's documents, 100 at a time (spec), newest first, optionally within a time range. */
export function listClaimDocuments(
  accountIndex: number,
  query: DocumentRange & { claimId: number; page?: number },
  signal?: AbortSignal,
): Promise<Page<Document>> {
  const { claimId, ...rest } = query;
  const filter = { entityType: CLAIM_DOCUMENT_ENTITY_TYPE, entityId: String(claimId) };
  return listDocuments(accountIndex, CLAIM_DOCUMENTS_PAGE_SIZE, filter, rest, signal);
}

/**
 * Decided: a policy's documents come 100 at a time, as the spec asks a policy's invoice
 * documents (the same `policyCode` filter) and a claim's.
 */
export const POLICY_DOCUMENTS_PAGE_SIZE = 100;

/**
 * A policy's documents, newest first, optionally within a time range: the schedules the
 * document service issued for its versions and every other document naming the policy (the
 * files of its claims). docs/contracts.md, "Document templates (issue 19)".
 */
export function listPolicyDocuments(
  accountIndex: number,
  query: DocumentRange & { policyCode: string; page?: number },
  signal?: AbortSignal,
): Promise<Page<Document>> {
  const { policyCode, ...rest } = query;
  const filter = { policyCode };
  return listDocuments(
    accountIndex,
    POLICY_DOCUMENTS_PAGE_SIZE,
    filter,
    { ...rest, newestFirst: true },
    signal,
  );
}

/** Asks the document service to sign one upload (spec: requester claimservice, ClaimDoc). */
export function requestClaimUpload(
  accountIndex: number,
  request: PresignRequest,
  signal?: AbortSignal,
): Promise<PresignedPost> {
  return fetchJson(`/api/${accountIndex}/documentservice/v1/documents/pre-signed-post`, {
    method: 'POST',
    signal,
    body: {
      accountCode: request.accountCode,
      policyCode: request.policyCode,
      description: request.description,
      contentType: request.contentType,
      isoContentType: request.isoContentType,
      entityType: CLAIM_DOCUMENT_ENTITY_TYPE,
      entityId: request.claimId,
      requester: CLAIM_DOCUMENT_REQUESTER,
      templateSlug: CLAIM_DOCUMENT_TEMPLATE_SLUG,
      filename: request.filename,
    },
  });
}

/** The storage's refusal of an upload: its S3 error code, e.g. EntityTooLarge. */
export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`storage refused the upload (${status} ${code})`);
  }
}

/**
 * The code of a refused upload: the storage answers S3's XML (`<Code>EntityTooLarge</Code>`), the
 * BFF in front of it the one JSON error shape (`{"error": "payload_too_large"}` for a body over
 * its limit).
 */
export function storageRefusalCode(body: string): string {
  const s3 = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (s3) return s3;
  try {
    const error = (JSON.parse(body) as { error?: unknown } | null)?.error;
    if (typeof error === 'string' && error !== '') return error;
  } catch {
    // Neither: a proxy's page, an empty answer.
  }
  return 'storage_error';
}

/**
 * Posts the file as a multipart form to the address the service signed: its fields first, the
 * file last (S3 reads nothing after it). XMLHttpRequest rather than fetch, which reports no
 * upload progress. No CSRF header and no cookie matter here: the signature is the permission.
 */
export function sendSignedUpload(
  post: PresignedPost,
  file: Blob,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (!isStorageAddress(post.url)) {
    return Promise.reject(new StorageError(0, 'untrusted_storage_address'));
  }
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', post.url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      reject(new StorageError(xhr.status, storageRefusalCode(xhr.responseText ?? '')));
    };
    xhr.onerror = () => reject(new StorageError(0, 'unavailable'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** A short-lived signed address of a document's file, for the browser to download. */
export function documentDownloadUrl(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<{ url: string }> {
  return fetchJson(
    `/api/${accountIndex}/documentservice/v1/documents/${encodeURIComponent(code)}/download-url`,
    { signal },
  );
}

/**
 * Saves a document: its signed address, checked to point at the configured storage, opened by
 * a link (the storage answers with an attachment, so the browser saves it and the page stays).
 * Answers false when that failed (logged here), for the caller's danger alert.
 */
export async function downloadDocument(
  accountIndex: number,
  document: { code: string; filename: string },
  // Another kind of document (a product's) has its own signed address.
  addressOf: (accountIndex: number, code: string) => Promise<{ url: string }> = documentDownloadUrl,
): Promise<boolean> {
  try {
    const { url } = await addressOf(accountIndex, document.code);
    if (!isStorageAddress(url)) throw new StorageError(0, 'untrusted_storage_address');
    const link = window.document.createElement('a');
    link.href = url;
    link.rel = 'noopener';
    link.download = document.filename;
    link.click();
    return true;
  } catch (error) {
    console.error('document download failed', error);
    return false;
  }
}

/** The signed address of a storage key (the /download page). */
export function signedS3Url(
  accountIndex: number,
  s3Key: string,
  signal?: AbortSignal,
): Promise<{ url: string }> {
  return fetchJson(
    `/api/${accountIndex}/documentservice/v1/documents/signed-s3-url?${new URLSearchParams({ s3Key })}`,
    { signal },
  );
}

export function deleteDocument(accountIndex: number, code: string): Promise<void> {
  return fetchJson(
    `/api/${accountIndex}/documentservice/v1/documents/${encodeURIComponent(code)}`,
    { method: 'DELETE' },
  );
}

/** A customer's documents (theirs and their leads'), newest first, optionally in a time range. */
export function listCustomerDocuments(
  accountIndex: number,
  query: DocumentRange & { accountCode: string; page?: number },
  signal?: AbortSignal,
): Promise<Page<Document>> {
  const { accountCode, ...rest } = query;
  return listDocuments(accountIndex, CUSTOMER_DOCUMENTS_PAGE_SIZE, { accountCode }, rest, signal);
}

/** Decided: a customer's documents come 100 at a time, like a claim's. */
export const CUSTOMER_DOCUMENTS_PAGE_SIZE = 100;

// --- Document search (docs/contracts.md, "Document search") ------------------------------------

/** Spec: the owner filter falls back to '*' (every owner) when no owner is chosen. */
export const ALL_OWNERS = '*';
export const DOCUMENT_SEARCH_PAGE_SIZE = 30;

const documentService = (accountIndex: number) => `/api/${accountIndex}/documentservice/v1`;

export function listDocumentOwners(
  accountIndex: number,
  productSlug: string,
  signal?: AbortSignal,
): Promise<{ items: DocumentOwner[] }> {
  const params = new URLSearchParams({ product: productSlug });
  return fetchJson(`${documentService(accountIndex)}/searchable-document-owners?${params}`, {
    signal,
  });
}

export function searchDocuments(
  accountIndex: number,
  query: {
    productSlug: string;
    ownerCodes: readonly string[];
    searchText: string;
    page?: number;
    order?: { field: string; direction: 'ASC' | 'DESC' } | null;
  },
  signal?: AbortSignal,
): Promise<Page<SearchableDocument>> {
  const params = new URLSearchParams({
    product: query.productSlug,
    // Spec: owner codes joined by '|', or '*' when none is chosen.
    ownerIds: query.ownerCodes.length ? query.ownerCodes.join('|') : ALL_OWNERS,
    pageSize: String(DOCUMENT_SEARCH_PAGE_SIZE),
  });
  if (query.searchText.trim()) params.set('searchText', query.searchText.trim());
  if (query.page && query.page > 1) params.set('pageToken', String(query.page));
  if (query.order) params.set('order', `${query.order.field}:${query.order.direction}`);
  return fetchJson(`${documentService(accountIndex)}/searchable-documents?${params}`, { signal });
}

/** Words of the tenant's documents that begin with the last word of `searchText`. */
export function searchKeywords(
  accountIndex: number,
  searchText: string,
  signal?: AbortSignal,
): Promise<{ items: string[] }> {
  const params = new URLSearchParams({ searchText });
  return fetchJson(`${documentService(accountIndex)}/search-keywords?${params}`, { signal });
}
