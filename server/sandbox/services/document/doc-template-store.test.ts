import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_LAYOUT_VARIABLES,
  checkTemplate,
  documentVariablesOf,
} from '#server/sandbox/services/notification/index.ts';
import { DEFAULT_LAYOUT, SYSTEM_TEMPLATES } from './doc-template-store.ts';

// The seed writes these without the routes' checks: they must pass them as any save would.
describe('the seeded document sources', () => {
  it('pass the checks at save', () => {
    expect(checkTemplate(DEFAULT_LAYOUT.header, DOCUMENT_LAYOUT_VARIABLES)).toEqual([]);
    expect(checkTemplate(DEFAULT_LAYOUT.footer, DOCUMENT_LAYOUT_VARIABLES)).toEqual([]);
    for (const t of SYSTEM_TEMPLATES) {
      expect([t.slug, checkTemplate(t.body, documentVariablesOf(t.kind))]).toEqual([t.slug, []]);
    }
  });
});
