import { describe, expect, it } from 'vitest';
import type { Lead } from '#client/api/leads-client.ts';
import type { InsuredObject, ProductField } from '#client/api/products-client.ts';
import {
  checkApplication,
  fieldKey,
  formObjects,
  initialValues,
  nextMonthStart,
  policyObjectsOf,
} from './application-form.ts';
import { extrasChangesOf, extrasConflictRows, extrasValuesOf } from './lead-extras.ts';

const audit = { createdAt: '', updatedAt: '', createdBy: '', updatedBy: '' };
const field = (id: number, name: string, extra: Partial<ProductField>): ProductField => ({
  id,
  code: `pfi_${id}`,
  insuredObjectId: 0,
  name,
  label: name,
  type: 'string',
  kind: null,
  isRequired: false,
  minimum: null,
  maximum: null,
  defaultValue: null,
  order: id,
  ...audit,
  ...extra,
});
const OBJECTS: InsuredObject[] = [
  {
    id: 2,
    code: 'ino_2',
    productVersionId: 9,
    name: 'household',
    label: 'Household',
    version: 1,
    insuredObjectTypeId: null,
    ...audit,
    productFields: [
      field(5, 'sumInsured', { type: 'number', isRequired: true, minimum: 5000, label: 'Sum' }),
      field(6, 'bicycleCover', { type: 'boolean' }),
      field(7, 'zipCode', { isRequired: true, defaultValue: '10115' }),
    ],
  },
  {
    id: 1,
    code: 'ino_1',
    productVersionId: 9,
    name: 'default',
    label: 'Policy',
    version: 1,
    insuredObjectTypeId: null,
    ...audit,
    productFields: [
      field(1, 'policyStartDate', { type: 'date', isRequired: true }),
      field(2, 'policyDurationUnit', { kind: 'durationUnit', isRequired: true }),
      field(3, 'policyDurationValue', { type: 'number', isRequired: true }),
    ],
  },
];

describe('application form', () => {
  it('puts the policy term first and prefills it, and the field defaults', () => {
    const objects = formObjects(OBJECTS);
    expect(objects.map((o) => o.name)).toEqual(['default', 'household']);
    expect(nextMonthStart(new Date('2026-01-31T12:00:00Z'))).toBe('2026-02-01');
    expect(initialValues(objects, null, { start: '2026-02-01', durationDays: 365 })).toEqual({
      '1.policyStartDate': '2026-02-01',
      '1.policyDurationUnit': 'day',
      '1.policyDurationValue': 365,
      '2.zipCode': '10115',
    });
    const saved = [
      {
        insuredObjectId: 2,
        insuredObjectName: 'household',
        insuredObjectLabel: '',
        data: { sumInsured: 9000 },
      },
    ];
    expect(initialValues(objects, saved, { start: '', durationDays: 0 })).toEqual({
      '2.sumInsured': 9000,
    });
  });

  it('types the inputs and shows the service rules at the fields', () => {
    const values = {
      [fieldKey(1, 'policyStartDate')]: '2026-02-01',
      [fieldKey(1, 'policyDurationUnit')]: 'day',
      [fieldKey(1, 'policyDurationValue')]: '365',
      [fieldKey(2, 'sumInsured')]: '4999,5',
      [fieldKey(2, 'bicycleCover')]: true,
      [fieldKey(2, 'zipCode')]: ' ',
    };
    expect(policyObjectsOf(formObjects(OBJECTS), values)).toEqual([
      {
        insuredObjectId: 1,
        data: {
          policyStartDate: '2026-02-01',
          policyDurationUnit: 'day',
          policyDurationValue: 365,
        },
      },
      { insuredObjectId: 2, data: { sumInsured: 4999.5, bicycleCover: true } },
    ]);
    const checked = checkApplication(OBJECTS, values);
    expect(checked.ok ? null : checked.errors).toEqual({
      '2.sumInsured': ['messages.numberMin?min=5000'],
      '2.zipCode': ['messages.fieldRequired?field=zipCode'],
    });
    const typo = checkApplication(OBJECTS, { ...values, [fieldKey(2, 'sumInsured')]: 'viel' });
    expect(typo.ok ? null : typo.errors['2.sumInsured']).toEqual(['messages.number_type']);
    const fine = checkApplication(OBJECTS, {
      ...values,
      [fieldKey(2, 'sumInsured')]: '6000',
      [fieldKey(2, 'zipCode')]: '20095',
    });
    expect(fine.ok).toBe(true);
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
