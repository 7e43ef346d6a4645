import { describe, expect, it } from 'vitest';
import {
  checkBrandingName,
  checkChatWidget,
  checkColor,
  checkGeneral,
  checkOptions,
  checkPayment,
  checkSchemaDrafts,
  emptyFieldDraft,
  isWebhookAddress,
  paymentDraft,
  toFieldDraft,
} from './settings-forms.ts';

const generalLabels = {
  time_zone: 'Time zone',
  language: 'Language',
  currency: 'Currency',
  format_hours: 'Time format',
  format_dates: 'Date format',
};

describe('general settings', () => {
  it('accepts a complete form', () => {
    const general = {
      time_zone: 'Europe/Berlin',
      language: 'de',
      currency: 'EUR',
      format_hours: 'HH:mm',
      format_dates: 'DD.MM.YYYY',
    };
    expect(checkGeneral(general, generalLabels)).toEqual({ ok: true, value: general });
  });

  it('names every missing field and a malformed currency', () => {
    const result = checkGeneral(
      { time_zone: ' ', language: 'fr', currency: 'euro', format_hours: '', format_dates: '' },
      generalLabels,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        time_zone: ['messages.fieldRequired?field=Time+zone'],
        language: ['messages.fieldRequired?field=Language'],
        currency: ['tenant_settings:general.errors.currency'],
        format_hours: ['messages.fieldRequired?field=Time+format'],
        format_dates: ['messages.fieldRequired?field=Date+format'],
      },
    });
  });
});

describe('branding colour', () => {
  it('takes six-digit hex colours, lower-cased', () => {
    expect(checkColor('#1DC4E9')).toEqual({ ok: true, value: '#1dc4e9' });
    for (const bad of ['1dc4e9', '#fff', '#12345g', 'red']) expect(checkColor(bad).ok).toBe(false);
  });
});

describe('branding name', () => {
  it('is required and at most as long as the service takes (200), with a translatable message', () => {
    expect(checkBrandingName(' Demo ', 'Name')).toEqual({ ok: true, value: 'Demo' });
    expect(checkBrandingName('x'.repeat(200), 'Name').ok).toBe(true);
    expect(checkBrandingName('x'.repeat(201), 'Name')).toEqual({
      ok: false,
      errors: { name: ['messages.string_max?max=200'] },
    });
    expect(checkBrandingName('  ', 'Name')).toEqual({
      ok: false,
      errors: { name: ['messages.fieldRequired?field=Name'] },
    });
  });
});

describe('chat widget setting', () => {
  const labels = { webhookUrl: 'Webhook address', version: 'Version' };

  it('an enabled widget needs a webhook and a version', () => {
    expect(checkChatWidget({ enabled: true, webhookUrl: '', version: '' }, labels)).toEqual({
      ok: false,
      errors: {
        webhookUrl: ['messages.fieldRequired?field=Webhook+address'],
        version: ['messages.fieldRequired?field=Version'],
      },
    });
  });

  it('a disabled widget may be empty; filled values must still be well-formed', () => {
    expect(checkChatWidget({ enabled: false, webhookUrl: '', version: '' }, labels).ok).toBe(true);
    expect(checkChatWidget({ enabled: false, webhookUrl: 'x', version: '../1' }, labels)).toEqual({
      ok: false,
      errors: {
        webhookUrl: ['tenant_settings:chat_widget.errors.webhook'],
        version: ['tenant_settings:chat_widget.errors.version'],
      },
    });
  });

  it('trims what it keeps', () => {
    expect(
      checkChatWidget(
        { enabled: true, webhookUrl: ' /chat-widget/webhook ', version: '1.0' },
        labels,
      ),
    ).toEqual({
      ok: true,
      value: { enabled: true, webhookUrl: '/chat-widget/webhook', version: '1.0' },
    });
  });

  it('webhooks are paths of this site or https addresses', () => {
    for (const ok of ['/hook', 'https://chat.example/hook'])
      expect(isWebhookAddress(ok)).toBe(true);
    for (const bad of ['//evil.example', 'http://chat.example', 'javascript:alert(1)', 'hook']) {
      expect(isWebhookAddress(bad)).toBe(false);
    }
  });
});

describe('payment settings', () => {
  /** No new private key typed: the saved one stays. */
  const KEPT = { privateKey: '', savedPrivateKey: '' };
  const labels = { merchantId: 'Merchant id', publicKey: 'Public key', active_psp: 'Provider' };

  it('braintree needs its merchant id and public key', () => {
    const draft = { ...paymentDraft('braintree', null), merchantId: '', publicKey: '' };
    expect(checkPayment(draft, labels)).toEqual({
      ok: false,
      errors: {
        merchantId: ['messages.fieldRequired?field=Merchant+id'],
        publicKey: ['messages.fieldRequired?field=Public+key'],
      },
    });
  });

  it('saves the provider and the config; no provider needs no credentials', () => {
    expect(
      checkPayment(
        {
          ...KEPT,
          active_psp: 'braintree',
          environment: 'production',
          merchantId: 'm1',
          publicKey: 'k1',
        },
        labels,
      ),
    ).toEqual({
      ok: true,
      value: {
        active_psp: 'braintree',
        braintree_config: { environment: 'production', merchantId: 'm1', publicKey: 'k1' },
      },
    });
    expect(
      checkPayment(
        { ...KEPT, active_psp: 'none', environment: '', merchantId: '', publicKey: '' },
        labels,
      ).ok,
    ).toBe(true);
  });

  it('refuses credentials with odd characters and an unknown provider', () => {
    const result = checkPayment(
      { ...KEPT, active_psp: 'paypal', environment: 'sandbox', merchantId: 'a b', publicKey: '' },
      labels,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        active_psp: ['messages.fieldRequired?field=Provider'],
        merchantId: ['tenant_settings:payment.errors.credential'],
      },
    });
  });

  it('reads stored values back into the form', () => {
    expect(paymentDraft(null, null)).toEqual({
      active_psp: 'none',
      environment: 'sandbox',
      merchantId: '',
      publicKey: '',
      privateKey: '',
      savedPrivateKey: '',
    });
    expect(
      paymentDraft('braintree', {
        merchantId: 'm',
        publicKey: 'k',
        environment: 'production',
        privateKey: '••••9876',
      }),
    ).toEqual({
      active_psp: 'braintree',
      environment: 'production',
      merchantId: 'm',
      publicKey: 'k',
      // The saved key only as the service masks it; the box for a new one starts empty.
      privateKey: '',
      savedPrivateKey: '••••9876',
    });
  });

  it('sends a private key only when a new one was typed, up to 200 characters', () => {
    const draft = { ...paymentDraft('braintree', null), merchantId: 'm1', publicKey: 'k1' };
    const sent = (privateKey: string) => checkPayment({ ...draft, privateKey }, labels);
    expect(sent('')).toMatchObject({ ok: true, value: { braintree_config: { merchantId: 'm1' } } });
    const kept = sent('');
    expect(kept.ok && 'privateKey' in kept.value.braintree_config).toBe(false);
    expect(sent(' new-secret ')).toMatchObject({
      ok: true,
      value: { braintree_config: { privateKey: 'new-secret' } },
    });
    expect(sent('x'.repeat(201))).toEqual({
      ok: false,
      errors: { privateKey: ['messages.string_max?max=200'] },
    });
  });
});

describe('dashboard alert and broker management version', () => {
  it('limits the alert and knows v1 and v2 only', () => {
    expect(checkOptions({ dashboardAlert: ' Wartung ', brokerVersion: 'v2' })).toEqual({
      ok: true,
      value: { dashboardAlert: 'Wartung', brokerVersion: 'v2' },
    });
    expect(checkOptions({ dashboardAlert: 'x'.repeat(501), brokerVersion: 'v3' })).toEqual({
      ok: false,
      errors: {
        dashboardAlert: ['messages.string_max?max=500'],
        brokerVersion: ['tenant_settings:options.errors.broker_version'],
      },
    });
  });
});

describe('custom schema drafts', () => {
  it('turns drafts into fields with numbers and options', () => {
    const result = checkSchemaDrafts([
      { ...emptyFieldDraft(), name: 'code', label: 'Code', maxLength: '8', options: 'a, b' },
      { ...emptyFieldDraft(), name: 'amount', label: 'Amount', type: 'number', minimum: '0,5' },
    ]);
    expect(result).toEqual({
      ok: true,
      value: [
        {
          name: 'code',
          label: 'Code',
          type: 'string',
          isRequired: false,
          maxLength: 8,
          options: ['a', 'b'],
        },
        { name: 'amount', label: 'Amount', type: 'number', isRequired: false, minimum: 0.5 },
      ],
    });
  });

  it('keys errors by row and field, with the shared rules of the sandbox', () => {
    const result = checkSchemaDrafts([
      { ...emptyFieldDraft(), name: '1x', label: '' },
      { ...emptyFieldDraft(), name: 'n', label: 'N', type: 'number', minimum: 'abc' },
      { ...emptyFieldDraft(), name: 't', label: 'T', minLength: '5', maxLength: '2' },
    ]);
    expect(result).toEqual({
      ok: false,
      errors: {
        '0.name': ['tenant_settings:custom_schemas.errors.name_format'],
        '0.label': ['tenant_settings:custom_schemas.errors.label_required'],
        '1.minimum': ['messages.number_type'],
        '2': ['tenant_settings:custom_schemas.errors.length_order'],
      },
    });
  });

  it('finds a name used twice', () => {
    const row = { ...emptyFieldDraft(), name: 'a', label: 'A' };
    expect(checkSchemaDrafts([row, row])).toEqual({
      ok: false,
      errors: { '': ['tenant_settings:custom_schemas.errors.name_unique'] },
    });
  });

  it('round-trips a stored field', () => {
    const field = {
      name: 'x',
      label: 'X',
      type: 'number' as const,
      isRequired: true,
      minimum: 1,
      maximum: 9,
    };
    expect(checkSchemaDrafts([toFieldDraft(field)])).toEqual({ ok: true, value: [field] });
  });
});
