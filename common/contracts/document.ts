import * as v from 'valibot';
import { ACCOUNT_TYPES } from '#common/account-fields.ts';
import {
  CLAIM_DOCUMENT_ENTITY_TYPE,
  CLAIM_DOCUMENT_REQUESTER,
  CLAIM_DOCUMENT_TEMPLATE_SLUG,
} from '#common/claim-documents.ts';
import { AuditEntries, Id, Timestamp } from './shared.ts';

/**
 * The documentservice's records and bodies (docs/contracts.md, "Insurance: leads", "Claims and
 * documents", "Document search").
 */

/** A document's metadata: the contract's fields, then the spec's claim document fields. */
export const DocumentSchema = v.strictObject({
  id: Id,
  code: v.string(),
  policyCode: v.nullable(v.string()),
  leadCode: v.nullable(v.string()),
  entityType: v.string(),
  entityId: v.string(),
  description: v.string(),
  contentType: v.string(),
  filename: v.string(),
  s3Key: v.string(),
  requester: v.string(),
  ...AuditEntries,
  accountCode: v.nullable(v.string()),
  templateSlug: v.nullable(v.string()),
  sizeBytes: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
  documentId: Id,
  documentUpdatedAt: Timestamp,
  cashedUser: v.string(),
});

/** A customer whose documents belong to the product searched. */
export const DocumentOwnerSchema = v.strictObject({
  code: v.string(),
  accountNumber: v.string(),
  type: v.picklist(ACCOUNT_TYPES),
  title: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  companyName: v.nullable(v.string()),
});

export const SearchableDocumentSchema = v.strictObject({
  ...DocumentSchema.entries,
  productSlug: v.string(),
  owner: DocumentOwnerSchema,
});

/** The answer of a signed upload: where to post the form and the signed fields it carries. */
export const PresignedPostSchema = v.strictObject({
  url: v.string(),
  fields: v.record(v.string(), v.string()),
});

/** The answer of a download: a signed address of the file. */
export const DownloadUrlSchema = v.strictObject({ url: v.string() });

/** POST /documents/pre-signed-post: a claim document (the only upload the sandbox signs). */
export const PreSignedPostBody = v.object({
  accountCode: v.pipe(v.string('required'), v.minLength(1, 'required')),
  policyCode: v.pipe(v.string('required'), v.minLength(1, 'required')),
  description: v.optional(v.pipe(v.string(), v.maxLength(500, 'too_long')), ''),
  contentType: v.picklist(['pdf', 'png', 'jpg'], 'invalid_type'),
  isoContentType: v.picklist(['application/pdf', 'image/png', 'image/jpeg'], 'invalid_type'),
  entityType: v.literal(CLAIM_DOCUMENT_ENTITY_TYPE, 'unsupported_entity'),
  entityId: v.pipe(v.number('required'), v.integer('required'), v.minValue(1, 'required')),
  requester: v.optional(
    v.literal(CLAIM_DOCUMENT_REQUESTER, 'invalid_requester'),
    CLAIM_DOCUMENT_REQUESTER,
  ),
  templateSlug: v.optional(
    v.literal(CLAIM_DOCUMENT_TEMPLATE_SLUG, 'invalid_template'),
    CLAIM_DOCUMENT_TEMPLATE_SLUG,
  ),
  filename: v.pipe(
    v.string('required'),
    v.trim(),
    v.minLength(1, 'required'),
    v.maxLength(200, 'too_long'),
    // No path, no control characters: the name is shown and sent back in a header.
    v.regex(/^[^\\/\u0000-\u001f\u007f"]+$/, 'invalid_filename'),
  ),
});

export type Document = v.InferOutput<typeof DocumentSchema>;
export type DocumentOwner = v.InferOutput<typeof DocumentOwnerSchema>;
export type SearchableDocument = v.InferOutput<typeof SearchableDocumentSchema>;
export type PresignedPost = v.InferOutput<typeof PresignedPostSchema>;
export type PreSignedPostInput = v.InferInput<typeof PreSignedPostBody>;
