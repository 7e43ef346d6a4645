import { describe, expect, it } from 'vitest';
import { PartnerSchema } from './partner.ts';
import { contractProblems } from './drift.ts';

const partner = {
  id: 7,
  code: 'ptn_1340b05f8ac57dd3',
  displayName: 'Alpenblick Versicherungsmakler GmbH',
  partnerTypeId: 4,
  partnerType: { id: 4, code: 'ptt_db7857ed8d1a7654', name: 'Organisation', slug: 'organization' },
  partnerNumber: 'P-20000',
  accountCode: null,
  customFields: {},
  version: 1,
  ern: 'ern:partner:partner:ptn_1340b05f8ac57dd3',
  createdAt: '2026-11-26T01:16:30.616Z',
  updatedAt: '2026-11-26T01:16:30.616Z',
  createdBy: 'system',
  updatedBy: 'system',
};

describe('contractProblems', () => {
  it('finds nothing wrong with an answer as the contract says', () => {
    expect(contractProblems(PartnerSchema, partner)).toEqual([]);
  });

  it('names both ends of a renamed field', () => {
    const { displayName, ...rest } = partner;
    const problems = contractProblems(PartnerSchema, { ...rest, display_name: displayName });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^displayName: /);
    expect(problems[1]).toMatch(/^display_name: /);
  });

  it('refuses a field the contract does not name, also deep inside', () => {
    const drifted = { ...partner, partnerType: { ...partner.partnerType, label: 'Organisation' } };
    expect(contractProblems(PartnerSchema, drifted)).toEqual([
      expect.stringMatching(/^partnerType\.label: /),
    ]);
  });

  it('refuses a value of another type and a timestamp without its zone', () => {
    const problems = contractProblems(PartnerSchema, {
      ...partner,
      version: '1',
      createdAt: '2026-11-26 01:16',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^version: .*number/),
      expect.stringMatching(/^createdAt: .*[Tt]imestamp/),
    ]);
  });
});
