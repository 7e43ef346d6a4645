import { describe, expect, it } from 'vitest';
import type { Lead } from '#client/api/leads-client.ts';
import { applicantCheck, createBody, EMPTY_HOLDER, updateBody } from './application-applicant.ts';
import { extrasChangesOf, extrasConflictRows, extrasValuesOf } from './lead-extras.ts';

const OBJECTS = [{ insuredObjectId: 2, data: { sumInsured: 60000, bicycleCover: true } }];

describe('the applicant of an application', () => {
  it('wants a customer, or a prospect with a last name and a valid e-mail if any', () => {
    expect(applicantCheck({ kind: 'customer', accountCode: '' }, EMPTY_HOLDER)).toEqual({
      accountCode: ['leads:application.errors.customer_required'],
    });
    expect(applicantCheck({ kind: 'customer', accountCode: 'acc_1' }, EMPTY_HOLDER)).toEqual({});
    const prospect = { kind: 'prospect' as const, accountCode: '' };
    expect(applicantCheck(prospect, { ...EMPTY_HOLDER, lastName: ' ', email: 'x@' })).toEqual({
      lastName: ['leads:application.errors.last_name_required'],
      email: ['leads:application.errors.invalid_email'],
    });
    expect(applicantCheck(prospect, { ...EMPTY_HOLDER, lastName: 'Probe' })).toEqual({});
  });

  it('files a customer by code and a prospect as the holder, names trimmed', () => {
    expect(
      createBody(9, OBJECTS, { kind: 'customer', accountCode: 'acc_1' }, EMPTY_HOLDER),
    ).toEqual({ accountCode: 'acc_1', policy: { productVersionId: 9, policyObjects: OBJECTS } });
    const holder = { firstName: ' Pia ', lastName: ' Probe ', email: '' };
    expect(createBody(9, OBJECTS, { kind: 'prospect', accountCode: '' }, holder)).toEqual({
      policy: {
        productVersionId: 9,
        holder: { type: 'person', firstName: 'Pia', lastName: 'Probe' },
        policyObjects: OBJECTS,
      },
    });
  });

  it('keeps the applicant of an edited application', () => {
    const base = {
      accountCode: null,
      policy: { holder: { type: 'person', lastName: 'Probe' } },
    } as unknown as Lead;
    expect(updateBody(base, 3, 9, OBJECTS)).toEqual({
      version: 3,
      policy: {
        productVersionId: 9,
        accountCode: null,
        holder: { type: 'person', lastName: 'Probe' },
        policyObjects: OBJECTS,
      },
    });
  });
});

const LEAD = {
  paymentMethod: { type: 'sepa', sepa: { iban: 'DE89370400440532013000', holderName: 'Anna' } },
  customData: { source: 'website', score: 3 },
  version: 2,
} as unknown as Lead;

describe('payment and notes form', () => {
  it('reads a lead into the form and back, keeping values that are not text', () => {
    const values = extrasValuesOf(LEAD);
    expect(values).toEqual({
      paymentType: 'sepa',
      iban: 'DE89370400440532013000',
      holderName: 'Anna',
      custom: [{ key: 'source', value: 'website' }],
      kept: { score: 3 },
    });
    expect(extrasChangesOf({ ...values, iban: 'de89 3704 0044 0532 0130 00' })).toEqual({
      ok: true,
      input: {
        paymentMethod: {
          type: 'sepa',
          sepa: { iban: 'DE89370400440532013000', holderName: 'Anna' },
        },
        bankAccount: { iban: 'DE89370400440532013000' },
        customData: { score: 3, source: 'website' },
      },
    });
    expect(
      extrasChangesOf({ paymentType: 'invoice', iban: 'x', holderName: '', custom: [], kept: {} }),
    ).toEqual({
      ok: true,
      input: { paymentMethod: { type: 'invoice' }, bankAccount: null, customData: null },
    });
  });

  it('names what is wrong at the field', () => {
    const result = extrasChangesOf({
      paymentType: 'sepa',
      iban: 'DE00 1234',
      holderName: '',
      custom: [
        { key: 'a b', value: '1' },
        { key: 'ok', value: '2' },
        { key: 'ok', value: '3' },
        { key: '', value: '' },
        { key: '', value: 'orphan' },
      ],
      kept: {},
    });
    expect(result.ok ? null : result.errors).toEqual({
      iban: ['leads:form.errors.invalid_iban'],
      'custom.0': ['leads:form.errors.invalid_key'],
      'custom.2': ['leads:form.errors.duplicate_key'],
      'custom.4': ['leads:form.errors.required'],
    });
    const empty = extrasChangesOf({
      paymentType: 'sepa',
      iban: '',
      holderName: '',
      custom: [],
      kept: {},
    });
    expect(empty.ok ? null : empty.errors).toEqual({ iban: ['leads:form.errors.required'] });
  });

  it('lists only what the other save changed, beside this user’s input', () => {
    const saved = { ...LEAD, customData: { ...LEAD.customData, note: 'call' }, version: 3 } as Lead;
    const mine = { ...extrasValuesOf(LEAD), holderName: 'Anna B' };
    expect(extrasConflictRows(LEAD, mine, saved)).toEqual([
      {
        field: 'customData',
        loaded: 'source: website · score: 3',
        mine: 'source: website · score: 3',
        saved: 'source: website · note: call · score: 3',
      },
    ]);
  });
});
