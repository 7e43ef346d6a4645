import { describe, expect, it } from 'vitest';
import { describeIssues, isIsoCalendarDate, policyDataIssues } from './policy-data.ts';
import { PaymentMethod, ibanCheckDigits, isValidIban, normalizeIban } from './leads.ts';
import * as v from 'valibot';

const objects = [
  {
    id: 1,
    name: 'default',
    fields: [
      { name: 'policyStartDate', type: 'date', isRequired: true, minimum: null, maximum: null },
    ],
  },
  {
    id: 2,
    name: 'vehicle',
    fields: [
      { name: 'value', type: 'number', isRequired: true, minimum: 1000, maximum: 250000 },
      { name: 'commercial', type: 'boolean', isRequired: false, minimum: null, maximum: null },
      { name: 'type', type: 'string', isRequired: false, minimum: null, maximum: null },
    ],
  },
] as const;

describe('policy data against the product fields', () => {
  it('accepts fitting data with optional fields left out', () => {
    expect(
      policyDataIssues(objects, [
        { insuredObjectId: 1, data: { policyStartDate: '2026-01-31' } },
        { insuredObjectId: 2, data: { value: 1000, type: '' } },
      ]),
    ).toEqual([]);
  });

  it('names every issue by object and field, with the crossed limit', () => {
    const issues = policyDataIssues(objects, [
      { insuredObjectId: 2, data: { value: 250001, commercial: 'no', colour: 'red' } },
      { insuredObjectId: 2, data: {} },
      { insuredObjectId: 9, data: {} },
    ]);
    expect(describeIssues(issues)).toBe(
      'vehicle.colour: unknown_field; vehicle.value: above_maximum (250000); ' +
        'vehicle.commercial: invalid_boolean; vehicle: duplicate_insured_object; ' +
        '9: unknown_insured_object; default: missing_insured_object',
    );
    expect(
      policyDataIssues(objects, [
        { insuredObjectId: 1, data: { policyStartDate: '31.01.2026' } },
        { insuredObjectId: 2, data: { value: '5000' } },
      ]).map((i) => `${i.path} ${i.code}`),
    ).toEqual(['default.policyStartDate invalid_date', 'vehicle.value invalid_number']);
    expect(
      policyDataIssues(objects, [
        { insuredObjectId: 1, data: { policyStartDate: null } },
        { insuredObjectId: 2, data: { value: 999 } },
      ]).map((i) => `${i.path} ${i.code} ${i.limit ?? ''}`.trim()),
    ).toEqual(['default.policyStartDate required', 'vehicle.value below_minimum 1000']);
  });

  it('takes a required yes/no field only as yes', () => {
    const consent = [
      {
        id: 3,
        name: 'consent',
        fields: [
          { name: 'agreed', type: 'boolean', isRequired: true, minimum: null, maximum: null },
        ],
      },
    ] as const;
    expect(policyDataIssues(consent, [{ insuredObjectId: 3, data: { agreed: true } }])).toEqual([]);
    expect(
      policyDataIssues(consent, [{ insuredObjectId: 3, data: { agreed: false } }])[0]?.code,
    ).toBe('required');
  });

  it('knows calendar dates', () => {
    expect(isIsoCalendarDate('2024-02-29')).toBe(true);
    expect(isIsoCalendarDate('2023-02-29')).toBe(false);
    expect(isIsoCalendarDate('2024-2-1')).toBe(false);
  });
});

describe('lead payment data', () => {
  it('checks IBANs by their check digits and computes them', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('GB82WEST12345698765432')).toBe(true);
    expect(isValidIban('DE89')).toBe(false);
    expect(ibanCheckDigits('DE', '370400440532013000')).toBe('89');
    expect(normalizeIban(' de89 3704 ')).toBe('DE893704');
  });

  it('takes a SEPA mandate with a valid IBAN or an invoice, nothing else', () => {
    const sepa = v.parse(PaymentMethod, {
      type: 'sepa',
      sepa: { iban: 'de89 3704 0044 0532 0130 00' },
    });
    expect(sepa).toEqual({
      type: 'sepa',
      sepa: { iban: 'DE89370400440532013000', holderName: null },
    });
    expect(
      v.safeParse(PaymentMethod, { type: 'sepa', sepa: { iban: 'DE00' } }).issues?.[0]?.message,
    ).toBe('invalid_iban');
    expect(v.safeParse(PaymentMethod, { type: 'cash' }).success).toBe(false);
    expect(v.parse(PaymentMethod, { type: 'invoice' })).toEqual({ type: 'invoice' });
  });
});
