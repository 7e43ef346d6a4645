import { describe, expect, it } from 'vitest';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { issuerFor } from './record-facts.ts';

const as = (permissions: string[]): AuthContext => ({
  userId: 1,
  userCode: 'usr_1',
  email: 'someone@demo.test',
  tenantId: 1,
  tenantSlug: 'demo',
  tenantGroupId: 1,
  permissions,
});

describe('who may print a record’s facts', () => {
  const documents = ['document-management.documents.create', 'document-management.templates.view'];

  it('needs the record’s own view permission, in its current or legacy form', () => {
    expect(() => issuerFor(as(documents), 'policy')).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    expect(issuerFor(as([...documents, 'policy-management.policies.view']), 'policy').on).toContain(
      'policy.created',
    );
    expect(issuerFor(as(['eis.claims.view']), 'claim').template.kind).toBe('claim');
    expect(() => issuerFor(as(['eis.claims.view']), 'invoice')).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });

  it('refuses kinds whose templates belong to no record', () => {
    for (const kind of ['terms', 'static', 'unknown'])
      expect(() => issuerFor(as(['*.*.*']), kind)).toThrow(
        expect.objectContaining({ status: 400, code: 'not_issuable' }),
      );
  });
});
