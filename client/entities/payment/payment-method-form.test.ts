import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  checkBankAccount,
  checkPaymentMethod,
  emptyPaymentMethodDraft,
  serverPaymentErrors,
} from './payment-method-form.ts';

const TODAY = '2026-11-27';
const draft = (extra: Partial<ReturnType<typeof emptyPaymentMethodDraft>>) => ({
  ...emptyPaymentMethodDraft(TODAY),
  ...extra,
});

describe('the add payment method form', () => {
  it('sends a SEPA method with the IBAN normalised and empty optional fields as null', () => {
    const checked = checkPaymentMethod(
      'acc_1',
      draft({ iban: 'de89 3704 0044 0532 0130 00', holderName: 'Erika' }),
      TODAY,
    );
    expect(checked).toEqual({
      ok: true,
      input: {
        accountCode: 'acc_1',
        type: 'sepa',
        sepa: {
          iban: 'de89 3704 0044 0532 0130 00',
          bic: null,
          holderName: 'Erika',
          mandateReference: null,
          mandateSignedAt: TODAY,
        },
      },
    });
  });

  it('names the fields at fault by the service paths, in the feature namespace', () => {
    const checked = checkPaymentMethod('acc_1', draft({ iban: 'DE00', bic: 'X' }), TODAY);
    expect(checked).toEqual({
      ok: false,
      errors: {
        'sepa.iban': ['payment_methods:errors.invalid_iban'],
        'sepa.bic': ['payment_methods:errors.invalid_bic'],
        'sepa.holderName': ['payment_methods:errors.required'],
      },
    });
    expect(
      checkPaymentMethod(
        'acc_1',
        draft({ iban: 'DE89370400440532013000', holderName: 'E', mandateSignedAt: '2027-01-01' }),
        TODAY,
      ),
    ).toEqual({
      ok: false,
      errors: { 'sepa.mandateSignedAt': ['payment_methods:errors.date_in_future'] },
    });
  });

  it('refuses a full card number before anything is sent', () => {
    const checked = checkPaymentMethod(
      'acc_1',
      draft({
        type: 'card',
        brand: 'visa',
        last4: '1234',
        expiryMonth: '1',
        expiryYear: '2030',
        holderName: '4111 1111 1111 1111',
      }),
      TODAY,
    );
    expect(checked).toEqual({
      ok: false,
      errors: { 'card.holderName': ['payment_methods:errors.card_number_refused'] },
    });
    expect(
      checkPaymentMethod(
        'acc_1',
        draft({
          type: 'card',
          brand: 'visa',
          last4: '1234',
          expiryMonth: '13',
          expiryYear: '2030',
        }),
        TODAY,
      ),
    ).toMatchObject({
      ok: false,
      errors: { 'card.expiryMonth': ['payment_methods:errors.invalid_expiry'] },
    });
  });

  it('reads the service refusals at the fields, the 409 of a mandate reference too', () => {
    const invalid = new ApiError(400, 'validation_error', '', {
      error: 'validation_error',
      message: 'x',
      issues: [{ path: 'sepa.bic', code: 'bic_country_mismatch' }],
    });
    expect(serverPaymentErrors(invalid)).toEqual({
      'sepa.bic': ['payment_methods:errors.bic_country_mismatch'],
    });
    const taken = new ApiError(409, 'mandate_reference_taken', '', {
      error: 'mandate_reference_taken',
      message: 'x',
      issues: [{ path: 'sepa.mandateReference', code: 'mandate_reference_taken' }],
    });
    expect(serverPaymentErrors(taken)).toEqual({
      'sepa.mandateReference': ['payment_methods:errors.mandate_reference_taken'],
    });
    expect(serverPaymentErrors(new Error('offline'))).toBe(null);
  });
});

describe('a bank account on its own', () => {
  it('sends the IBAN as typed, no BIC as null, and names bad fields', () => {
    expect(
      checkBankAccount('acc_1', {
        iban: 'DE89 3704 0044 0532 0130 00',
        bic: ' ',
        holderName: 'Erika',
      }),
    ).toEqual({
      ok: true,
      input: {
        accountCode: 'acc_1',
        iban: 'DE89 3704 0044 0532 0130 00',
        bic: null,
        holderName: 'Erika',
      },
    });
    const refused = checkBankAccount('acc_1', { iban: 'DE00', bic: 'X', holderName: '' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.errors.iban).toEqual(['payment_methods:errors.invalid_iban']);
    expect(refused.errors.bic).toEqual(['payment_methods:errors.invalid_bic']);
  });
});
