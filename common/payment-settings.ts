import * as v from 'valibot';

/**
 * The tenant's payment settings (spec: key/value pairs `braintree_config` and `active_psp`),
 * checked by the tenant service on save and by the settings' payment tab with the same lists.
 * `braintree_config` holds a secret: its `privateKey` is stored but never answered whole, only
 * masked (`••••1234`); a save that sends it left out or still masked keeps the stored one.
 */

export const PAYMENT_SETTING_KEYS = {
  braintreeConfig: 'braintree_config',
  activePsp: 'active_psp',
} as const;

export const PAYMENT_PROVIDERS = ['none', 'braintree'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export const BRAINTREE_ENVIRONMENTS = ['sandbox', 'production'] as const;

/** A merchant id or public key: letters, digits, `_` and `-`; empty while no provider is set. */
export const BRAINTREE_CREDENTIAL = /^[A-Za-z0-9_-]{0,100}$/;

const credential = v.pipe(
  v.string('invalid_credential'),
  v.regex(BRAINTREE_CREDENTIAL, 'invalid_credential'),
);

export const BraintreeConfig = v.nullable(
  v.strictObject(
    {
      environment: v.picklist(BRAINTREE_ENVIRONMENTS, 'invalid_environment'),
      merchantId: credential,
      publicKey: credential,
      privateKey: v.optional(
        v.nullable(v.pipe(v.string('invalid_credential'), v.maxLength(200, 'too_long'))),
      ),
    },
    'invalid_braintree_config',
  ),
);
export type BraintreeConfigValue = v.InferOutput<typeof BraintreeConfig>;

export const ActivePsp = v.picklist(PAYMENT_PROVIDERS, 'invalid_provider');

/** A secret as answers show it: only its last four characters. */
export const maskSecret = (secret: string): string =>
  `••••${secret.length > 8 ? secret.slice(-4) : ''}`;

export const isPaymentSettingKey = (key: string): boolean =>
  key === PAYMENT_SETTING_KEYS.braintreeConfig || key === PAYMENT_SETTING_KEYS.activePsp;

/** A stored payment setting as answers show it: the Braintree private key masked. */
export function maskPaymentSetting(key: string, value: unknown): unknown {
  if (key !== PAYMENT_SETTING_KEYS.braintreeConfig || !value || typeof value !== 'object') {
    return value;
  }
  const config = value as Record<string, unknown>;
  if (typeof config.privateKey !== 'string' || !config.privateKey) return value;
  return { ...config, privateKey: maskSecret(config.privateKey) };
}

export type PaymentSettingCheck =
  { ok: true; value: unknown; isSensitive: boolean } | { ok: false; path: string; code: string };

/**
 * A payment setting's value to store, from the value sent and what is stored: the schema's
 * check, the private key kept when the save sends none or its mask, and the provider refused
 * while its access is missing (`braintree` needs a merchant id and a public key saved first).
 */
export function checkPaymentSetting(
  key: string,
  value: unknown,
  stored: { braintreeConfig: unknown },
): PaymentSettingCheck {
  if (key === PAYMENT_SETTING_KEYS.activePsp) {
    const parsed = v.safeParse(ActivePsp, value);
    if (!parsed.success) return { ok: false, path: 'value', code: 'invalid_provider' };
    const config = v.safeParse(BraintreeConfig, stored.braintreeConfig);
    if (
      parsed.output === 'braintree' &&
      !(config.success && config.output?.merchantId && config.output.publicKey)
    ) {
      return { ok: false, path: 'value', code: 'psp_not_configured' };
    }
    return { ok: true, value: parsed.output, isSensitive: false };
  }
  const parsed = v.safeParse(BraintreeConfig, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    return {
      ok: false,
      path: where ? `value.${where}` : 'value',
      code: issue?.message ?? 'invalid',
    };
  }
  const config = parsed.output;
  if (config === null) return { ok: true, value: null, isSensitive: true };
  const before = stored.braintreeConfig as { privateKey?: unknown } | null;
  const storedKey = typeof before?.privateKey === 'string' ? before.privateKey : null;
  const keep =
    config.privateKey === undefined || (storedKey && config.privateKey === maskSecret(storedKey));
  const privateKey = keep ? storedKey : config.privateKey || null;
  const { privateKey: _, ...rest } = config;
  return { ok: true, value: privateKey ? { ...rest, privateKey } : rest, isSensitive: true };
}
