import * as v from 'valibot';
import { CustomSchemaBody, type CustomSchemaFieldInput } from '#common/custom-schema-field.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { isWidgetVersion, type ChatWidgetSetting } from '#machines/chat-widget.machine.ts';
import { maxLengthRule, requiredMessage } from '#client/ui/form/rules.ts';
import { BRANDING_NAME_MAX } from '#common/contracts/tenant.ts';
import { BRAINTREE_ENVIRONMENTS, PAYMENT_PROVIDERS } from '#common/payment-settings.ts';
import { parseNumberInput } from '#client/ui/form/values.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';

/**
 * The rules of the settings forms, apart from React so they are unit-tested. Messages are the
 * form kit's encoded keys: `messages.*` of the `ui` namespace, or `tenant_settings:*` keys.
 */

export const SETTING_KEYS = {
  dashboardAlert: 'dashboardAlert',
  brokerVersion: 'brokermanagement_version',
  braintreeConfig: 'braintree_config',
  activePsp: 'active_psp',
  chatWidget: 'chatWidget',
} as const;

export const BROKER_VERSIONS = ['v1', 'v2'] as const;
// The payment keys' lists are the tenant service's (common/payment-settings.ts): one rule.
export { BRAINTREE_ENVIRONMENTS, PAYMENT_PROVIDERS };
export const DASHBOARD_ALERT_MAX = 500;

/** Date and time formats offered (spec, section 9), plus whatever the tenant has already. */
export const DATE_FORMATS = ['DD.MM.YYYY', 'YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
// `hh:mm:ss` is the spec's demo default (read as a 24-hour clock, see common/date-display.ts):
// offered always, so that it can be chosen again once another format was saved.
export const HOUR_FORMATS = ['hh:mm:ss', 'HH:mm', 'HH:mm:ss', 'hh:mm A'] as const;
export const CURRENCIES = ['EUR', 'CHF', 'PLN', 'GBP', 'USD'] as const;

const issueKey = (key: string) => `tenant_settings:${key}`;

/** Valibot issues -> encoded messages per dot path (`''` for the whole form). */
export function collectErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '';
    const message = issue.message.startsWith('messages.') ? issue.message : issueKey(issue.message);
    const list = (errors[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

function check<T>(schema: v.GenericSchema<unknown, T>, input: unknown): Checked<T> {
  const result = v.safeParse(schema, input, { abortPipeEarly: false });
  return result.success
    ? { ok: true, value: result.output }
    : { ok: false, errors: collectErrors(result.issues) };
}

const required = (label: string) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty(requiredMessage(label)));

export interface GeneralLabels {
  time_zone: string;
  language: string;
  currency: string;
  format_hours: string;
  format_dates: string;
}

export function checkGeneral(input: unknown, labels: GeneralLabels) {
  return check(
    v.object({
      time_zone: required(labels.time_zone),
      language: v.picklist(['de', 'en', 'pl'], requiredMessage(labels.language)),
      currency: v.pipe(required(labels.currency), v.regex(/^[A-Z]{3}$/, 'general.errors.currency')),
      format_hours: required(labels.format_hours),
      format_dates: required(labels.format_dates),
    }),
    input,
  );
}

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** The branding name: required, at most as long as the service takes, trimmed. */
export function checkBrandingName(value: string, label: string): Checked<string> {
  const checked = check(
    v.object({ name: v.pipe(required(label), maxLengthRule(BRANDING_NAME_MAX)) }),
    { name: value },
  );
  return checked.ok ? { ok: true, value: checked.value.name } : checked;
}

export function checkColor(value: string): Checked<string> {
  return HEX_COLOR.test(value.trim())
    ? { ok: true, value: value.trim().toLowerCase() }
    : { ok: false, errors: { main_color: [issueKey('branding.errors.color')] } };
}

/** Where the widget may post: a path of this site or an https address (the CSP decides more). */
export function isWebhookAddress(value: string): boolean {
  if (/^\/(?![/\\])\S*$/.test(value)) return true;
  try {
    return new URL(value).protocol === 'https:' && !/\s/.test(value);
  } catch {
    return false;
  }
}

export function checkChatWidget(
  input: ChatWidgetSetting,
  labels: { webhookUrl: string; version: string },
): Checked<ChatWidgetSetting> {
  const value = { ...input, webhookUrl: input.webhookUrl.trim(), version: input.version.trim() };
  const errors: FieldErrors = {};
  // A disabled widget may keep half-filled values; an enabled one needs both, well-formed.
  if (value.enabled || value.webhookUrl !== '') {
    if (value.webhookUrl === '') errors.webhookUrl = [requiredMessage(labels.webhookUrl)];
    else if (!isWebhookAddress(value.webhookUrl)) {
      errors.webhookUrl = [issueKey('chat_widget.errors.webhook')];
    }
  }
  if (value.enabled || value.version !== '') {
    if (value.version === '') errors.version = [requiredMessage(labels.version)];
    else if (!isWidgetVersion(value.version)) {
      errors.version = [issueKey('chat_widget.errors.version')];
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}

export interface PaymentDraft {
  active_psp: string;
  environment: string;
  merchantId: string;
  publicKey: string;
  /**
   * A new Braintree private key as typed; empty keeps the saved one. The saved key never comes
   * back whole (the service masks it), so the box starts empty and `savedPrivateKey` says whether
   * one is stored (`••••1234`).
   */
  privateKey: string;
  savedPrivateKey: string;
}

/** The private key's limit, as the tenant service has it (common/payment-settings.ts). */
export const PRIVATE_KEY_MAX = 200;

export interface PaymentSettings {
  active_psp: (typeof PAYMENT_PROVIDERS)[number];
  braintree_config: {
    environment: string;
    merchantId: string;
    publicKey: string;
    /** Only when a new one was typed: left out, the service keeps the saved key. */
    privateKey?: string;
  };
}

/**
 * The spec: payment settings validation is stubbed locally and never errors, so nothing is
 * checked against the provider; the form still insists on what Braintree cannot work without.
 */
export function checkPayment(
  draft: PaymentDraft,
  labels: { merchantId: string; publicKey: string; active_psp: string },
): Checked<PaymentSettings> {
  const errors: FieldErrors = {};
  const psp = (PAYMENT_PROVIDERS as readonly string[]).includes(draft.active_psp)
    ? (draft.active_psp as PaymentSettings['active_psp'])
    : null;
  if (psp === null) errors.active_psp = [requiredMessage(labels.active_psp)];
  const merchantId = draft.merchantId.trim();
  const publicKey = draft.publicKey.trim();
  if (psp === 'braintree') {
    if (!merchantId) errors.merchantId = [requiredMessage(labels.merchantId)];
    if (!publicKey) errors.publicKey = [requiredMessage(labels.publicKey)];
  }
  for (const [name, text] of [
    ['merchantId', merchantId],
    ['publicKey', publicKey],
  ] as const) {
    if (text && !/^[A-Za-z0-9_-]{1,100}$/.test(text)) {
      (errors[name] ??= []).push(issueKey('payment.errors.credential'));
    }
  }
  const privateKey = draft.privateKey.trim();
  if (privateKey.length > PRIVATE_KEY_MAX) {
    errors.privateKey = [`messages.string_max?max=${PRIVATE_KEY_MAX}`];
  }
  const environment = (BRAINTREE_ENVIRONMENTS as readonly string[]).includes(draft.environment)
    ? draft.environment
    : 'sandbox';
  if (psp === null || Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      active_psp: psp,
      braintree_config: {
        environment,
        merchantId,
        publicKey,
        ...(privateKey ? { privateKey } : {}),
      },
    },
  };
}

/** A stored braintree_config value back into the form. */
export function paymentDraft(activePsp: unknown, config: unknown): PaymentDraft {
  const c = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    active_psp: typeof activePsp === 'string' && activePsp ? activePsp : 'none',
    environment: text(c.environment) || 'sandbox',
    merchantId: text(c.merchantId),
    publicKey: text(c.publicKey),
    privateKey: '',
    savedPrivateKey: text(c.privateKey),
  };
}

export function checkOptions(draft: { dashboardAlert: string; brokerVersion: string }) {
  const errors: FieldErrors = {};
  const dashboardAlert = draft.dashboardAlert.trim();
  if (dashboardAlert.length > DASHBOARD_ALERT_MAX) {
    errors.dashboardAlert = [`messages.string_max?max=${DASHBOARD_ALERT_MAX}`];
  }
  if (!(BROKER_VERSIONS as readonly string[]).includes(draft.brokerVersion)) {
    errors.brokerVersion = [issueKey('options.errors.broker_version')];
  }
  return Object.keys(errors).length
    ? ({ ok: false, errors } as const)
    : ({ ok: true, value: { dashboardAlert, brokerVersion: draft.brokerVersion } } as const);
}

/** One row of the custom schema editor: numbers and options as typed. */
export interface FieldDraft {
  name: string;
  label: string;
  /** The label per language as typed; an empty one falls back to `label`. */
  labels: NameLabels;
  type: CustomSchemaFieldInput['type'];
  isRequired: boolean;
  minLength: string;
  maxLength: string;
  minimum: string;
  maximum: string;
  /** Comma-separated. */
  options: string;
}

export function emptyFieldDraft(): FieldDraft {
  return {
    name: '',
    label: '',
    labels: {},
    type: 'string',
    isRequired: false,
    minLength: '',
    maxLength: '',
    minimum: '',
    maximum: '',
    options: '',
  };
}

export function toFieldDraft(field: CustomSchemaFieldInput): FieldDraft {
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  return {
    name: field.name,
    label: field.label,
    labels: { ...field.labels },
    type: field.type,
    isRequired: field.isRequired,
    minLength: text(field.minLength),
    maxLength: text(field.maxLength),
    minimum: text(field.minimum),
    maximum: text(field.maximum),
    options: (field.options ?? []).join(', '),
  };
}

/**
 * Drafts -> the body of `PUT /custom-schemas/{entity}`, checked with the rules the sandbox uses
 * (shared in common/). Errors are keyed `{row}.{field}`, `{row}` or `''`. Unparsable numbers
 * are an error here rather than silently dropped.
 */
export function checkSchemaDrafts(
  drafts: readonly FieldDraft[],
): Checked<CustomSchemaFieldInput[]> {
  const numberErrors: FieldErrors = {};
  const fields = drafts.map((draft, row) => {
    const field: Record<string, unknown> = {
      name: draft.name.trim(),
      label: draft.label,
      type: draft.type,
      isRequired: draft.isRequired,
    };
    // Sent only when one language has a text: schemas without translations stay as they were.
    if (Object.values(draft.labels).some((text) => text?.trim())) field.labels = draft.labels;
    for (const key of ['minLength', 'maxLength', 'minimum', 'maximum'] as const) {
      if (draft[key].trim() === '') continue;
      const number = parseNumberInput(draft[key]);
      if (number === null) numberErrors[`${row}.${key}`] = ['messages.number_type'];
      else field[key] = number;
    }
    const options = draft.options
      .split(',')
      .map((option) => option.trim())
      .filter(Boolean);
    if (options.length) field.options = options;
    return field;
  });
  const result = v.safeParse(CustomSchemaBody, { fields }, { abortPipeEarly: false });
  if (result.success && Object.keys(numberErrors).length === 0) {
    return { ok: true, value: result.output.fields };
  }
  const errors: FieldErrors = { ...numberErrors };
  if (!result.success) {
    for (const [path, messages] of Object.entries(collectErrors(result.issues))) {
      // `fields.2.name` -> `2.name`; `fields` (the list) -> ''.
      const key = path === 'fields' ? '' : path.replace(/^fields\./, '');
      errors[key] = [...(errors[key] ?? []), ...messages];
    }
  }
  return { ok: false, errors };
}
