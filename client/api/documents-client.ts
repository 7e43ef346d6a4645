import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';

/**
 * Documents of the document service through the BFF proxy (docs/contracts.md, "Insurance:
 * leads"): the files of a lead, later of a claim, a policy or an invoice.
 */

/** Spec, section 9: lead documents are asked for 20 at a time. */
export const LEAD_DOCUMENTS_PAGE_SIZE = 20;

export interface DocumentMeta {
  id: number;
  code: string;
  policyCode: string | null;
  leadCode: string | null;
  entityType: string;
  entityId: string;
  description: string;
  contentType: string;
  filename: string;
  s3Key: string;
  requester: string;
  createdAt: string;
}

/** The documents of one entity (a lead by its code), newest first. */
export function listEntityDocuments(
  accountIndex: number,
  query: { entityType: string; entityId: string; page?: number; pageSize: number },
  signal?: AbortSignal,
): Promise<Page<DocumentMeta>> {
  const params = listParams({
    pageSize: query.pageSize,
    ...(query.page !== undefined ? { page: query.page } : {}),
    filter: { entityType: query.entityType, entityId: query.entityId },
  });
  return fetchJson(`/api/${accountIndex}/documentservice/v1/documents?${params}`, { signal });
}
