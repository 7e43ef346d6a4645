import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxFile } from '#server/sandbox/platform/paths.ts';
import { leadWorkflow } from '../insurance/lead-workflow.ts';
import { claimWorkflow } from './claim-workflow.ts';
import { CLAIM_PARTNER_ROLE_LABELS } from './seed-claims.ts';

/**
 * Migration 026 labels the rows seeded before the seed stored labels, with the seed's texts
 * written out in SQL: the two must say the same, or an old data directory shows other names than
 * a new one.
 */
const sql = readFileSync(
  sandboxFile('services/claim/migrations/026-default-name-labels.sql'),
  'utf8',
);

function migrationLabels(table: string): Record<string, unknown> {
  const statement = sql.split(`UPDATE ${table} `)[1]?.split(';')[0] ?? '';
  const rows = [...statement.matchAll(/\('([^']+)', '([^']+)'\)/g)];
  return Object.fromEntries(rows.map(([, slug, labels]) => [slug, JSON.parse(labels!)]));
}

describe('migration 026 (default name labels)', () => {
  it.each([
    ['claim_statuses', claimWorkflow.defaultLabels],
    ['lead_statuses', leadWorkflow.defaultLabels],
    ['claim_partner_roles', CLAIM_PARTNER_ROLE_LABELS],
  ])('gives %s the labels the seed gives', (table, labels) => {
    expect(migrationLabels(table)).toEqual(labels);
  });

  it('never overwrites an admin’s labels', () => {
    expect(sql.match(/AND t\.labels IS NULL;/g)).toHaveLength(3);
  });
});
