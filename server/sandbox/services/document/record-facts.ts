import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { hasPermission } from '#common/permissions.ts';
import { ISSUERS } from './issuers.ts';
import { commonValues } from './document-output.ts';
import type { Issuer } from './issued-documents.ts';

/**
 * The records a person prints a document of (a docx fill, a preview with a real record, a
 * document issued on request): their facts are read as the sandbox's own documents print them,
 * and only for who may read that kind of record, whatever the template permissions allow.
 */
const RECORD_VIEW: Readonly<Record<string, readonly string[]>> = {
  policy: ['policy-management.policies.view', 'eis.policies.view'],
  claim: ['claim-management.claims.view', 'eis.claims.view'],
  invoice: ['billing-management.invoices.view', 'eis.finance.invoices.view'],
};

/**
 * The issuer of a kind's documents, once the caller may read such records: 400 `not_issuable`
 * for a kind without records (terms, static), 403 without the record's view permission.
 */
export function issuerFor(auth: AuthContext, kind: string): Issuer {
  const issuer = ISSUERS.find((i) => i.template.kind === kind);
  const view = RECORD_VIEW[kind];
  if (!issuer || !view) {
    throw new HttpError(400, 'not_issuable', `a ${kind} template belongs to no record`);
  }
  if (!view.some((permission) => hasPermission(auth.permissions, permission))) {
    throw new HttpError(403, 'forbidden', `missing permission ${view[0]}`);
  }
  return issuer;
}

/**
 * What a template prints for one record of its kind: the workspace, the day, the title and the
 * record's facts. 404 (the issue names `field`) for a record the workspace does not have.
 */
export async function recordValues(
  db: Queryable,
  auth: AuthContext,
  kind: string,
  entityCode: string,
  { title, now, field }: { title: string; now: Date; field: string },
): Promise<Record<string, unknown>> {
  const issuer = issuerFor(auth, kind);
  const facts = await issuer.read(db, {
    tenantId: auth.tenantId,
    entityCode,
    by: auth.userCode,
  });
  if (!facts) {
    throw new HttpError(404, 'not_found', `${kind} ${entityCode} does not exist`, undefined, [
      { path: field, code: 'not_found' },
    ]);
  }
  return { ...(await commonValues(db, auth.tenantId, title, now)), ...facts.values };
}
