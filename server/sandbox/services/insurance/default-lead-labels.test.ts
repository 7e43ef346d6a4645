import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrationLabels } from '#server/sandbox/platform/name-labels.ts';
import { sandboxFile } from '#server/sandbox/platform/paths.ts';
import { leadWorkflow } from './lead-workflow.ts';

// Migration 026 (in the claim service's folder) labels old lead statuses as the seed does.
describe('migration 026 for lead statuses', () => {
  it('gives lead_statuses the labels the seed gives', () => {
    const sql = readFileSync(
      sandboxFile('services/claim/migrations/026-default-name-labels.sql'),
      'utf8',
    );
    expect(migrationLabels(sql, 'lead_statuses')).toEqual(leadWorkflow.defaultLabels);
  });
});
