import { describe, expect, it } from 'vitest';
import { splitEmails, summarizeBatch } from './batch-summary.ts';

describe('summarizeBatch', () => {
  it('counts done and failed ids and keeps the reasons', () => {
    expect(
      summarizeBatch([
        { id: 1, ok: true },
        { id: 2, ok: false, error: 'cannot_disable_self' },
        { id: 3, ok: true },
      ]),
    ).toEqual({ done: 2, failed: 1, failures: [{ key: '2', error: 'cannot_disable_self' }] });
  });

  it('names invite results by e-mail', () => {
    expect(summarizeBatch([{ email: 'a@b.test', ok: false }]).failures).toEqual([
      { key: 'a@b.test', error: 'generic' },
    ]);
  });
});

describe('splitEmails', () => {
  it('splits on commas and new lines and drops blanks', () => {
    expect(splitEmails(' a@b.test,\n c@d.test ;\n\n')).toEqual(['a@b.test', 'c@d.test']);
  });
});
