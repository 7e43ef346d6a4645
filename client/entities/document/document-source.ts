import type { DocumentMeta } from '#client/api/documents-client.ts';

/**
 * Where a document came from, in the words a user of the back office reads (the `requester` of
 * the document service names a service, which says nothing to them). Decided (issue 19):
 * - `system`: the services made it themselves, from a template: the policy schedule the document
 *   service issues for every version in force (`documentservice`), the quotes and applications the
 *   insurance service writes for a lead (`insuranceservice`). "Issued by the system".
 * - `customer`: the customer sent it in (a lead's ID document, `customer`). "Sent by the customer".
 * - `upload`: anything else is a file a person of the back office uploaded (a claim's files,
 *   `claimservice`); a requester not known here reads the same, since only the services above
 *   write documents of their own. "Uploaded by a user".
 */
export type DocumentSource = 'system' | 'customer' | 'upload';

const SYSTEM_REQUESTERS: ReadonlySet<string> = new Set(['documentservice', 'insuranceservice']);

export function documentSourceOf(document: Pick<DocumentMeta, 'requester'>): DocumentSource {
  if (SYSTEM_REQUESTERS.has(document.requester)) return 'system';
  if (document.requester === 'customer') return 'customer';
  return 'upload';
}
