import { describe, expect, it } from 'vitest';
import { displayNameOf, type Account } from '#client/api/accounts-client.ts';
import { conflictRows, inputOf, validateCustomer, valuesOf } from './customer-form.ts';

const ACCOUNT: Account = {
  id: 7,
  code: 'acc_1',
  accountNumber: 'K-100007',
  type: 'person',
  title: 'Dr.',
  firstName: 'Erika',
  lastName: 'Mustermann',
  companyName: null,
  email: 'erika@example.test',
  gender: 'female',
  street: 'Heidestraße',
  houseNumber: '17',
  zipCode: '51147',
  city: 'Köln',
  birthDate: '1964-08-12',
  phone: '+492214711234',
  brokerCode: null,
  customFields: {},
  policies: [],
  version: 3,
  ern: 'ern:account:account:acc_1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-02T00:00:00Z',
  createdBy: 'usr_1',
  updatedBy: 'usr_1',
  updatedByName: 'Anna Agent',
};

describe('customer form', () => {
  it('round-trips an account through the form values into the service input', () => {
    const input = inputOf(valuesOf(ACCOUNT));
    expect(input).toMatchObject({ companyName: null, brokerCode: null, birthDate: '1964-08-12' });
    expect(validateCustomer(valuesOf(ACCOUNT)).ok).toBe(true);
  });

  it('reports the service rules as keys of the customers namespace', () => {
    const result = validateCustomer({
      ...valuesOf(ACCOUNT),
      phone: '12',
      email: 'nope',
      lastName: '',
      birthDate: '2999-01-01',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      phone: ['customers:form.errors.invalid_phone'],
      email: ['customers:form.errors.invalid_email'],
      lastName: ['customers:form.errors.required'],
      birthDate: ['customers:form.errors.invalid_birth_date'],
    });
  });

  it('asks an organisation for its company name, not a personal name', () => {
    const org = { ...valuesOf(ACCOUNT), type: 'org' as const, firstName: '', lastName: '' };
    const result = validateCustomer(org);
    expect(result.ok ? {} : result.errors).toEqual({
      companyName: ['customers:form.errors.required'],
    });
    expect(validateCustomer({ ...org, companyName: 'Hansa Bau AG' }).ok).toBe(true);
  });

  it('lists only the fields the other save changed, with all three values', () => {
    const saved = { ...ACCOUNT, city: 'Bonn', phone: null, version: 4 };
    const mine = { ...valuesOf(ACCOUNT), street: 'Altweg', city: 'Aachen' };
    expect(conflictRows(ACCOUNT, mine, saved)).toEqual([
      { field: 'city', loaded: 'Köln', mine: 'Aachen', saved: 'Bonn' },
      { field: 'phone', loaded: '+492214711234', mine: '+492214711234', saved: '' },
    ]);
    expect(conflictRows(ACCOUNT, mine, ACCOUNT)).toEqual([]);
  });

  it('names persons and organisations', () => {
    expect(displayNameOf(ACCOUNT)).toBe('Dr. Erika Mustermann');
    expect(displayNameOf({ ...ACCOUNT, type: 'org', companyName: 'Hansa Bau AG' })).toBe(
      'Hansa Bau AG',
    );
  });
});
