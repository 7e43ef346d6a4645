/**
 * The kinds the tenant's activity log shows (issue 16): who changed which user, user invitation,
 * role, organisation, organisation invitation, setting or name label (the Names tab). Without
 * imports, so that the screen's filter reads it without the contract schemas.
 */
export const ADMIN_ENTITY_TYPES = [
  'user',
  'user_invitation',
  'role',
  'organization',
  'organization_invitation',
  'setting',
  'name_label',
  // E-mail layouts and templates (issue 19): texts of the workspace, kept like its settings.
  'mail_layout',
  'notification_template',
  // Document layouts and templates (issue 19), kept alike.
  'document_layout',
  'doc_template',
  // A product's documents (issue 19): uploaded, renamed and deleted files of the product.
  'product_document',
] as const;
export type AdminEntityType = (typeof ADMIN_ENTITY_TYPES)[number];

export const isAdminEntityType = (kind: string): kind is AdminEntityType =>
  (ADMIN_ENTITY_TYPES as readonly string[]).includes(kind);
