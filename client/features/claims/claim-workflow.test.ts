import { describe, expect, it } from 'vitest';
import { allowedTargets } from '#machines/status-move.machine.ts';
import { claimRules, movesByName, statusesByName } from './claim-workflow.ts';

const statuses = [
  { id: 1, code: 'c1', slug: 'open', name: 'Open', labels: {}, order: 1 },
  { id: 2, code: 'c2', slug: 'in-review', name: 'In review', labels: {}, order: 2 },
  { id: 3, code: 'c3', slug: 'rejected', name: 'Rejected', labels: {}, order: 6 },
  { id: 4, code: 'c4', slug: 'approved', name: 'Approved', labels: {}, order: 4 },
];
/** The moves offered on a claim's page: the machine's allowed targets of the claim rules, by name. */
const allowedMoves = (
  rules: ReturnType<typeof rule>[],
  from: string,
  list: typeof statuses,
  language: string,
) => movesByName(allowedTargets(claimRules(rules), from), list, language);

const rule = (fromStatus: string, toStatus: string, entityType = 'claim') => ({
  fromStatus,
  toStatus,
  entityType,
});

describe('claim status moves', () => {
  it('offers the moves the rules allow from the status, by name', () => {
    const rules = [
      rule('open', 'rejected'),
      rule('open', 'in-review'),
      rule('in-review', 'approved'),
      // Lead rules and repeated or standing-still rules offer nothing more.
      rule('open', 'approved', 'lead'),
      rule('open', 'in-review'),
      rule('open', 'open'),
    ];
    expect(allowedMoves(rules, 'open', statuses, 'en')).toEqual([
      { slug: 'in-review', name: 'In review' },
      { slug: 'rejected', name: 'Rejected' },
    ]);
    expect(allowedMoves(rules, 'approved', statuses, 'en')).toEqual([]);
  });

  it('still offers a move to a status the tenant no longer lists, under its slug', () => {
    expect(allowedMoves([rule('open', 'archived')], 'open', statuses, 'en')).toEqual([
      { slug: 'archived', name: 'archived' },
    ]);
  });

  it('sorts statuses by name in the language of the user', () => {
    const names = statusesByName(
      [{ name: 'Zurückgewiesen' }, { name: 'Änderung' }, { name: 'Offen' }],
      'de',
    ).map((s) => s.name);
    expect(names).toEqual(['Änderung', 'Offen', 'Zurückgewiesen']);
  });
});
