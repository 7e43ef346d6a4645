import * as v from 'valibot';
import { DocumentSchema } from './document.ts';

/**
 * Product documents of the documentservice (issue 19; docs/contracts.md, "Product documents"):
 * files of a product (terms, leaflets), uploaded through the same signed form as claim
 * documents; the spec's requester is the insuranceservice.
 */
export const PRODUCT_DOCUMENT_ENTITY_TYPE = 'ProductDocument';
export const PRODUCT_DOCUMENT_REQUESTER = 'insuranceservice';

/** A file's name as a user gives it (shared by the docx templates' upload). */
export const Filename = v.pipe(
  v.string('required'),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(200, 'too_long'),
  // No path, no control characters: the name is shown and sent back in a header.
  v.regex(/^[^\\/\u0000-\u001f\u007f"]+$/, 'invalid_filename'),
);
const Description = v.pipe(v.string(), v.maxLength(500, 'too_long'));

/**
 * A product document: a document with the slug of its product, and the product version an issued
 * IPID is of (null for an uploaded file).
 */
export const ProductDocumentSchema = v.strictObject({
  ...DocumentSchema.entries,
  productSlug: v.string(),
  productVersionId: v.nullable(v.number()),
});

/** POST /documents/product/{slug}: signs the upload of one file (pdf, png, jpeg). */
export const ProductDocumentUploadBody = v.object({
  filename: Filename,
  description: v.optional(Description, ''),
  requester: v.optional(
    v.literal(PRODUCT_DOCUMENT_REQUESTER, 'invalid_requester'),
    PRODUCT_DOCUMENT_REQUESTER,
  ),
});

/** POST /documents/product/{slug}/{code}: a new name (same kind of file) or description. */
export const ProductDocumentUpdateBody = v.object({
  filename: v.optional(Filename),
  description: v.optional(Description),
});

export type ProductDocument = v.InferOutput<typeof ProductDocumentSchema>;
