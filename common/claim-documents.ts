/**
 * The files a claim document may be (spec: png, jpeg, jpg, pdf), shared by the documents panel
 * (which refuses other names before asking anything) and the sandbox's storage (which checks the
 * declared type and the bytes themselves, since a name or a header is whatever the sender says).
 */

export const CLAIM_DOCUMENT_ENTITY_TYPE = 'ClaimDocument';
export const CLAIM_DOCUMENT_TEMPLATE_SLUG = 'ClaimDoc';
export const CLAIM_DOCUMENT_REQUESTER = 'claimservice';

/** Spec section 9: list page size, row height, rows before scrolling, scrolled height. */
export const CLAIM_DOCUMENTS_PAGE_SIZE = 100;
export const DOCUMENT_ROW_HEIGHT_PX = 55;
export const DOCUMENT_ROWS_WITHOUT_SCROLL = 4;
export const DOCUMENT_LIST_SCROLL_HEIGHT_PX = 335;
/** Spec: the download page tries to close its window this long after navigating. */
export const DOWNLOAD_WINDOW_CLOSE_DELAY_MS = 2000;

/** Decided (the spec names no limit): 10 MiB a file, which holds a phone photo or a scan. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** How long a signed upload or download address holds. */
export const UPLOAD_POLICY_SECONDS = 15 * 60;
export const DOWNLOAD_URL_SECONDS = 5 * 60;

export type DocumentContentType = 'application/pdf' | 'image/png' | 'image/jpeg';

const BY_EXTENSION: Record<string, DocumentContentType> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};
export const ACCEPTED_EXTENSIONS = Object.keys(BY_EXTENSION);
/** For the file input's accept attribute (a hint to the picker, not a check). */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.map((e) => `.${e}`).join(',');

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** The content type a file name stands for, or null when the name is not one of the four. */
export function contentTypeOfName(filename: string): DocumentContentType | null {
  return BY_EXTENSION[extensionOf(filename)] ?? null;
}

/** The short type the pre-signed request carries (spec: jpeg shortened to jpg). */
export function shortContentType(type: DocumentContentType): 'pdf' | 'png' | 'jpg' {
  return type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg';
}

export function isDocumentContentType(value: unknown): value is DocumentContentType {
  return value === 'application/pdf' || value === 'image/png' || value === 'image/jpeg';
}

const MAGIC: Record<DocumentContentType, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

/** True when the bytes begin as a file of that type does (an .exe renamed .pdf does not). */
export function hasMagicOf(bytes: Uint8Array, type: DocumentContentType): boolean {
  const magic = MAGIC[type];
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/** Spec: who may upload or delete a claim document (any spelling of each: dots, colons, `_`). */
export const CLAIM_DOCUMENT_UPLOAD_PERMISSIONS = [
  'eis.claims.create',
  'eis.claims.update',
  'document-management.documents.create',
] as const;
export const CLAIM_DOCUMENT_DELETE_PERMISSIONS = [
  'eis.claims.delete',
  'document-management.documents.delete',
] as const;
/** Reading claim documents: the documents permission or the claims one (decided). */
export const CLAIM_DOCUMENT_VIEW_PERMISSIONS = [
  'document-management.documents.view',
  'claim-management.claims.view',
  'eis.documents.view',
  'eis.claims.view',
] as const;
