import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BankAccountCreateBody,
  PaymentMethodCreateBody,
  bicMatchesIban,
  cardExpired,
  cardNumberPath,
  holdsCardNumber,
  isValidBic,
  maskIban,
} from './payment-methods.ts';
import { isValidIban } from './leads.ts';
import { checkPaymentSetting, maskPaymentSetting, maskSecret } from './payment-settings.ts';

const codes = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((i) => `${v.getDotPath(i)}:${i.message}`);
};

describe('IBAN and BIC (ibantools)', () => {
  it('checks IBANs by country length and check digits, spaces and case aside', () => {
    expect(isValidIban('de89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
    expect(isValidIban('NL91ABNA0417164300')).toBe(true);
  });

  it('checks BICs and their country against the IBAN', () => {
    expect(isValidBic('COBADEFFXXX')).toBe(true);
    expect(isValidBic('cobade ff')).toBe(true);
    expect(isValidBic('COBAD3FF')).toBe(false);
    expect(bicMatchesIban('COBADEFF', 'DE89370400440532013000')).toBe(true);
    expect(bicMatchesIban('ABNANL2A', 'DE89370400440532013000')).toBe(false);
  });

  it('masks an IBAN but the country and the last four', () => {
    expect(maskIban('DE89 3704 0044 0532 0130 00')).toBe('DE•• •••• •••• •••• ••30 00');
    expect(maskIban('NL91ABNA0417164300')).toBe('NL•• •••• •••• ••43 00');
  });
});

describe('card numbers are never accepted', () => {
  it('finds a Luhn-valid 13–19 digit run, typed with spaces or dashes', () => {
    expect(holdsCardNumber('4111111111111111')).toBe(true);
    expect(holdsCardNumber('card 4111 1111 1111 1111 please')).toBe(true);
    expect(holdsCardNumber('5500-0000-0000-0004')).toBe(true);
    expect(holdsCardNumber('4111111111111112')).toBe(false);
    expect(holdsCardNumber('4242')).toBe(false);
    // Part of a longer account number: not a card number.
    expect(holdsCardNumber('89370400440532013000')).toBe(false);
  });

  it('names the field holding one, skipping IBANs', () => {
    expect(cardNumberPath({ card: { holderName: '4111111111111111' } })).toBe('card.holderName');
    expect(cardNumberPath({ card: { last4: 4111111111111111 } })).toBe('card.last4');
    expect(cardNumberPath({ sepa: { iban: '4111111111111111' } })).toBe(null);
    expect(cardNumberPath({ type: 'invoice' })).toBe(null);
  });
});

describe('payment method bodies', () => {
  const sepa = (extra: Record<string, unknown>) => ({
    accountCode: 'acc_1',
    type: 'sepa',
    sepa: {
      iban: 'DE89 3704 0044 0532 0130 00',
      holderName: 'Erika',
      mandateSignedAt: '2025-01-15',
      ...extra,
    },
  });

  it('normalises a SEPA method and leaves the mandate reference to the service', () => {
    const out = v.parse(PaymentMethodCreateBody, sepa({ bic: 'cobadeffxxx' }));
    expect(out).toMatchObject({
      type: 'sepa',
      sepa: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', mandateReference: null },
    });
  });

  it('names each bad field with its code', () => {
    expect(codes(PaymentMethodCreateBody, sepa({ iban: 'DE00' }))).toEqual([
      'sepa.iban:invalid_iban',
    ]);
    expect(codes(PaymentMethodCreateBody, sepa({ bic: 'X' }))).toContain('sepa.bic:invalid_bic');
    expect(codes(PaymentMethodCreateBody, sepa({ mandateSignedAt: '1.1.2025' }))).toEqual([
      'sepa.mandateSignedAt:invalid_date',
    ]);
    expect(codes(PaymentMethodCreateBody, { accountCode: 'acc_1', type: 'cash' })).toEqual([
      'type:invalid_payment_method',
    ]);
    expect(
      codes(PaymentMethodCreateBody, {
        accountCode: 'acc_1',
        type: 'card',
        card: { brand: 'visa', last4: '12345', expiryMonth: 0, expiryYear: 2030 },
      }),
    ).toEqual(['card.last4:invalid_last4', 'card.expiryMonth:invalid_expiry']);
    expect(
      codes(BankAccountCreateBody, {
        accountCode: 'x',
        iban: 'DE89370400440532013000',
        holderName: 'A',
      }),
    ).toEqual(['accountCode:invalid_account']);
  });

  it('knows an expired card by month', () => {
    expect(cardExpired(10, 2026, '2026-11-27')).toBe(true);
    expect(cardExpired(11, 2026, '2026-11-27')).toBe(false);
    expect(cardExpired(1, 2027, '2026-11-27')).toBe(false);
  });
});

describe('payment settings', () => {
  const config = { environment: 'sandbox', merchantId: 'm1', publicKey: 'pk_1' };

  it('masks the private key and keeps it when a save sends it masked or not at all', () => {
    const stored = { ...config, privateKey: 'secret-private-9876' };
    expect(maskPaymentSetting('braintree_config', stored)).toEqual({
      ...config,
      privateKey: '••••9876',
    });
    expect(maskPaymentSetting('active_psp', 'braintree')).toBe('braintree');
    expect(maskSecret('short')).toBe('••••');
    for (const sent of [config, { ...config, privateKey: '••••9876' }]) {
      expect(checkPaymentSetting('braintree_config', sent, { braintreeConfig: stored })).toEqual({
        ok: true,
        value: stored,
        isSensitive: true,
      });
    }
    expect(
      checkPaymentSetting(
        'braintree_config',
        { ...config, privateKey: '' },
        { braintreeConfig: stored },
      ),
    ).toEqual({ ok: true, value: config, isSensitive: true });
  });

  it('refuses an unknown provider, bad access, and a provider without its access', () => {
    const none = { braintreeConfig: null };
    expect(checkPaymentSetting('active_psp', 'stripe', none)).toMatchObject({
      ok: false,
      code: 'invalid_provider',
    });
    expect(checkPaymentSetting('active_psp', 'braintree', none)).toMatchObject({
      ok: false,
      code: 'psp_not_configured',
    });
    expect(
      checkPaymentSetting('active_psp', 'braintree', { braintreeConfig: config }),
    ).toMatchObject({ ok: true });
    expect(
      checkPaymentSetting('braintree_config', { ...config, merchantId: 'a b' }, none),
    ).toMatchObject({ ok: false, path: 'value.merchantId', code: 'invalid_credential' });
    expect(
      checkPaymentSetting('braintree_config', { ...config, environment: 'live' }, none),
    ).toMatchObject({ ok: false, path: 'value.environment', code: 'invalid_environment' });
  });
});
