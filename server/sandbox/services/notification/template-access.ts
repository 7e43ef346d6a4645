import * as v from 'valibot';
import { requireServicePermission } from '#server/sandbox/platform/auth-context.ts';
import { MAX_TEMPLATE_LENGTH } from './template-engine.ts';

/**
 * What e-mail and document templates share at their routes (issue 19): the permission
 * `document-management.templates.*` (or `eis.templates.*`) and the fields' limits.
 */
export const TEMPLATE_ACCESS = {
  view: requireServicePermission('document-management', 'templates', 'view'),
  create: requireServicePermission('document-management', 'templates', 'create'),
  update: requireServicePermission('document-management', 'templates', 'update'),
  delete: requireServicePermission('document-management', 'templates', 'delete'),
};

/** A layout's or template's name: given, at most 120 characters. */
export const templateName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(120),
);
/** A Liquid source; what it may be beyond its length the checks at save say. */
export const templateSource = v.pipe(v.string(), v.maxLength(MAX_TEMPLATE_LENGTH));
