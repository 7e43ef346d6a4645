import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrationLabels } from '#server/sandbox/platform/name-labels.ts';
import { sandboxFile } from '#server/sandbox/platform/paths.ts';
import { claimWorkflow } from './claim-workflow.ts';
import { CLAIM_PARTNER_ROLE_LABELS } from './seed-claims.ts';

/**
 * Migration 026 labels the rows seeded before the seed stored labels, with the seed's texts
 * written out in SQL: the two must say the same, or an old data directory shows other names than
 * a new one. (The lead statuses' are checked beside the lead workflow.)
 */
const sql = readFileSync(
  sandboxFile('services/claim/migrations/026-default-name-labels.sql'),
  'utf8',
);

describe('migration 026 (default name labels)', () => {
  it.each([
    ['claim_statuses', claimWorkflow.defaultLabels],
    ['claim_partner_roles', CLAIM_PARTNER_ROLE_LABELS],
  ])('gives %s the labels the seed gives', (table, labels) => {
    expect(migrationLabels(sql, table)).toEqual(labels);
  });

  it('never overwrites an admin’s labels', () => {
    expect(sql.match(/AND t\.labels IS NULL;/g)).toHaveLength(3);
  });
});
