import { describe, expect, it } from 'vitest';
import { applicantName, partyName } from './party-name.ts';

describe('partyName', () => {
  it('names a person by title, first and last name, an organisation by its company', () => {
    expect(
      partyName({ type: 'person', title: 'Dr.', firstName: 'Erika', lastName: 'Mustermann' }),
    ).toBe('Dr. Erika Mustermann');
    expect(partyName({ type: 'person', title: '', firstName: 'Stefan', lastName: 'Braun' })).toBe(
      'Stefan Braun',
    );
    expect(
      partyName({ type: 'org', companyName: 'Kornblume e.K.', firstName: 'Jan', lastName: 'x' }),
    ).toBe('Kornblume e.K.');
  });

  it('prefers the company of a holder without a type, and lets either name stand in', () => {
    // A holder given with a policy or a lead may leave out its type.
    expect(partyName({ companyName: 'Hansa Bau AG', lastName: 'Berg' })).toBe('Hansa Bau AG');
    expect(partyName({ firstName: 'Anna', lastName: 'Berg', companyName: null })).toBe('Anna Berg');
    // A person whose only name is a company, an organisation without a company name.
    expect(partyName({ type: 'person', companyName: 'Berg & Söhne' })).toBe('Berg & Söhne');
    expect(partyName({ type: 'org', companyName: '', lastName: 'Berg' })).toBe('Berg');
  });

  it('leaves out blank parts and gives "" for no party or no name', () => {
    expect(partyName({ type: 'person', title: ' ', firstName: ' Anna ', lastName: 'Berg' })).toBe(
      'Anna Berg',
    );
    expect(partyName(null)).toBe('');
    expect(partyName(undefined)).toBe('');
    expect(partyName({ type: 'org', companyName: null })).toBe('');
  });
});

describe('applicantName', () => {
  const account = { type: 'person', title: 'Prof.', firstName: 'Ida', lastName: 'Kowalska' };
  const holder = { firstName: 'Edda', lastName: 'Lind' };

  it('is the customer when the lead has one, else the holder the prospect gave', () => {
    expect(applicantName({ account, policy: { holder } })).toBe('Prof. Ida Kowalska');
    expect(applicantName({ account: null, policy: { holder } })).toBe('Edda Lind');
    expect(applicantName({ account: null, policy: { holder: null } })).toBe('');
    expect(applicantName({})).toBe('');
  });
});
