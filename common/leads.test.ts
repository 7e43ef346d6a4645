import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PaymentMethod, ibanCheckDigits, isValidIban, normalizeIban } from './leads.ts';

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
