import { describe, expect, it } from 'vitest';
import type { Policy } from '#client/api/policies-client.ts';
import {
  amountText,
  insuredObjectsOf,
  parseAmount,
  paymentErrors,
  settlementValuesOf,
  validateSettlement,
} from './settlement-form.ts';

describe('settlement amounts', () => {
  it("reads money as the user's language writes it, into cents", () => {
    expect(parseAmount('1.234,50', 'de')).toBe(123_450);
    expect(parseAmount('1.234,50 €', 'de')).toBe(123_450);
    expect(parseAmount('1234,5', 'de')).toBe(123_450);
    expect(parseAmount('1,234.50', 'en')).toBe(123_450);
    expect(parseAmount('€1,234.5', 'en')).toBe(123_450);
    expect(parseAmount('1\u00a0234,50 zł', 'pl')).toBe(123_450);
    expect(parseAmount('1 234,50', 'pl')).toBe(123_450);
    expect(parseAmount('', 'de')).toBe(0);
    expect(parseAmount('0', 'en')).toBe(0);
  });

  it('refuses what another language would read as another amount', () => {
    // "1.5" is one and a half in English, no German amount; "1,5" no English one.
    expect(parseAmount('1.5', 'de')).toBeNull();
    expect(parseAmount('1,5', 'en')).toBeNull();
    expect(parseAmount('1.23,5', 'de')).toBeNull();
    expect(parseAmount('12,345', 'de')).toBeNull();
    expect(parseAmount('-5', 'en')).toBeNull();
    expect(parseAmount('abc', 'en')).toBeNull();
  });

  it('shows cents to edit without digit groups', () => {
    expect(amountText(123_450, 'de')).toBe('1234,50');
    expect(amountText(5, 'en')).toBe('0.05');
    expect(parseAmount(amountText(987_654_321, 'pl'), 'pl')).toBe(987_654_321);
  });

  it("checks a settlement with the service's rules", () => {
    expect(
      validateSettlement(
        { insuredObject: 'household', reserve: '1.000', payment: '250,75', recourse: '' },
        'de',
      ),
    ).toEqual({
      ok: true,
      input: { insuredObject: 'household', reserve: 100_000, payment: 25_075, recourse: 0 },
    });
    expect(
      validateSettlement(
        { insuredObject: ' ', reserve: '1.5', payment: '100.000.001', recourse: '0,001' },
        'de',
      ),
    ).toEqual({
      ok: false,
      errors: {
        insuredObject: ['claims:form.errors.required'],
        reserve: ['claims:form.errors.invalid_amount'],
        // Over 10^10 cents: more than the service takes.
        payment: ['claims:form.errors.invalid_amount'],
        recourse: ['claims:form.errors.invalid_amount'],
      },
    });
  });

  it('edits a settlement in the language of the user', () => {
    expect(
      settlementValuesOf(
        {
          id: 1,
          code: 'stl_1',
          claimCode: 'clm_1',
          insuredObject: 'car',
          reserve: 100_000,
          payment: 0,
          recourse: 1,
          currency: 'EUR',
          version: 1,
          createdAt: '',
          updatedAt: '',
          createdBy: '',
          updatedBy: '',
        },
        'de',
      ),
    ).toEqual({ insuredObject: 'car', reserve: '1000,00', payment: '0,00', recourse: '0,01' });
    expect(settlementValuesOf(null, 'en', 'car')).toEqual({
      insuredObject: 'car',
      reserve: '',
      payment: '',
      recourse: '',
    });
  });
});

describe('insured objects of a claim', () => {
  it("lists the current version's objects once each, by label", () => {
    const object = (name: string, label: string) => ({
      insuredObjectName: name,
      insuredObjectLabel: label,
    });
    const policy = {
      versions: [
        {
          isCurrent: false,
          timeline: [{ policyObjects: [object('boat', 'Boat')] }],
        },
        {
          isCurrent: true,
          timeline: [
            { policyObjects: [object('car', 'Car'), object('default', '')] },
            { policyObjects: [object('car', 'Car'), object('trailer', 'Trailer')] },
          ],
        },
      ],
    } as unknown as Policy;
    expect(insuredObjectsOf(policy)).toEqual([
      { value: 'car', label: 'Car' },
      { value: 'default', label: 'default' },
      { value: 'trailer', label: 'Trailer' },
    ]);
    expect(insuredObjectsOf({ versions: [] } as unknown as Policy)).toEqual([]);
  });
});

describe('paymentErrors (issue 15)', () => {
  const euros = (cents: number) => `${(cents / 100).toFixed(2)} €`;
  it('refuses a payment before the claim is approved and one above the reserve, naming what is left', () => {
    expect(paymentErrors({ reserve: 1000, payment: 100 }, 'in-review', 0, euros)).toEqual({
      payment: ['claims:form.errors.payment_needs_approved_claim'],
    });
    expect(paymentErrors({ reserve: 1000, payment: 1200 }, 'approved', 300, euros)).toEqual({
      payment: [`claims:form.errors.payment_above_reserve?remaining=7.00+%E2%82%AC`],
    });
    expect(paymentErrors({ reserve: 1000, payment: 1000 }, 'approved', 300, euros)).toBeNull();
    // Lowering a payment is no payment: allowed whatever the status.
    expect(paymentErrors({ reserve: 1000, payment: 100 }, 'open', 300, euros)).toBeNull();
  });
});
