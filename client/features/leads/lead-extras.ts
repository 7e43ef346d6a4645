import * as v from 'valibot';
import type { Lead, LeadChanges } from '#client/api/leads-client.ts';
import { conflictRowsOf, type ConflictRow } from '#client/ui/conflict-rows.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { CUSTOM_DATA_KEY, LeadExtras, type PaymentMethodType } from '#common/leads.ts';

/**
 * The values of the lead's payment and custom data form, kept apart from React so that they are
 * tested on their own. Validation is the service's own schema (`#common/leads.ts`), so the form
 * refuses what the service would refuse; messages become `leads:form.errors.{code}`.
 */

export interface CustomEntry {
  key: string;
  value: string;
}

export interface ExtrasValues {
  paymentType: '' | PaymentMethodType;
  iban: string;
  holderName: string;
  /** The text entries of the custom data, in their saved order. */
  custom: CustomEntry[];
  /** Entries that are not text (numbers, yes/no from other systems): kept as they are. */
  kept: Record<string, number | boolean | null>;
}

export const EXTRAS_FIELDS = ['paymentType', 'iban', 'holderName', 'customData'] as const;
export type ExtrasField = (typeof EXTRAS_FIELDS)[number];

export function extrasValuesOf(lead: Pick<Lead, 'paymentMethod' | 'customData'>): ExtrasValues {
  const method = lead.paymentMethod;
  const custom: CustomEntry[] = [];
  const kept: ExtrasValues['kept'] = {};
  for (const [key, value] of Object.entries(lead.customData ?? {})) {
    if (typeof value === 'string') custom.push({ key, value });
    else kept[key] = value;
  }
  return {
    paymentType: method?.type ?? '',
    iban: method?.type === 'sepa' ? method.sepa.iban : '',
    holderName: method?.type === 'sepa' ? (method.sepa.holderName ?? '') : '',
    custom,
    kept,
  };
}

const errorKey = (code: string) => `leads:form.errors.${/^[a-z_]+$/.test(code) ? code : 'invalid'}`;

export type ExtrasInput = Required<
  Pick<LeadChanges, 'paymentMethod' | 'bankAccount' | 'customData'>
>;

/**
 * The changes to send, or the errors per field (`iban`, `holderName`, `custom.{row}`). The bank
 * account follows the SEPA mandate's IBAN, and goes with any other payment method.
 */
export function extrasChangesOf(
  values: ExtrasValues,
): { ok: true; input: ExtrasInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, code: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(errorKey(code))) list.push(errorKey(code));
  };
  const customData: Record<string, string | number | boolean | null> = { ...values.kept };
  values.custom.forEach((entry, row) => {
    const key = entry.key.trim();
    if (key === '' && entry.value.trim() === '') return;
    if (key === '') add(`custom.${row}`, 'required');
    else if (!CUSTOM_DATA_KEY.test(key)) add(`custom.${row}`, 'invalid_key');
    else if (Object.hasOwn(customData, key)) add(`custom.${row}`, 'duplicate_key');
    else customData[key] = entry.value;
  });
  const paymentMethod =
    values.paymentType === 'sepa'
      ? {
          type: 'sepa' as const,
          sepa: { iban: values.iban, holderName: values.holderName.trim() || null },
        }
      : values.paymentType === 'invoice'
        ? { type: 'invoice' as const }
        : null;
  if (values.paymentType === 'sepa' && values.iban.trim() === '') add('iban', 'required');
  const input = {
    paymentMethod,
    bankAccount: paymentMethod?.type === 'sepa' ? { iban: values.iban } : null,
    customData: Object.keys(customData).length ? customData : null,
  };
  const result = v.safeParse(LeadExtras, input, { abortPipeEarly: false });
  if (!result.success) {
    for (const issue of result.issues) {
      const path = v.getDotPath(issue) ?? '';
      if (path.endsWith('.iban')) {
        if (!errors.iban) add('iban', issue.message);
      } else if (path.endsWith('.holderName')) add('holderName', issue.message);
      else if (path.startsWith('customData.')) {
        const key = path.slice('customData.'.length);
        const row = values.custom.findIndex((e) => e.key.trim() === key);
        add(row === -1 ? 'customData' : `custom.${row}`, issue.message);
      } else add('customData', issue.message);
    }
  }
  if (Object.keys(errors).length || !result.success) return { ok: false, errors };
  return {
    ok: true,
    input: {
      paymentMethod: result.output.paymentMethod ?? null,
      bankAccount: result.output.bankAccount ?? null,
      customData: result.output.customData ?? null,
    },
  };
}

/** The form as text per conflict field: what the other save changed is compared this way. */
function comparable(values: ExtrasValues): Record<ExtrasField, string> {
  const custom = [
    ...values.custom.filter((e) => e.key.trim() !== '').map((e) => `${e.key.trim()}: ${e.value}`),
    ...Object.entries(values.kept).map(([key, value]) => `${key}: ${String(value)}`),
  ];
  return {
    paymentType: values.paymentType,
    iban: values.paymentType === 'sepa' ? values.iban.replace(/\s+/g, '').toUpperCase() : '',
    holderName: values.paymentType === 'sepa' ? values.holderName.trim() : '',
    customData: custom.join(' · '),
  };
}

export function extrasConflictRows(
  loaded: Lead,
  mine: ExtrasValues,
  saved: Lead,
): ConflictRow<ExtrasField>[] {
  return conflictRowsOf(
    EXTRAS_FIELDS,
    comparable(extrasValuesOf(loaded)),
    comparable(mine),
    comparable(extrasValuesOf(saved)),
  );
}

/**
 * The part of the input the user changed (`changed`: the form's fields that differ from the
 * loaded lead): the payment method with its bank account when any payment field changed, the
 * custom data when an entry did. What another user saved in the other part stays.
 */
export function changedExtras(input: ExtrasInput, changed: readonly string[]): LeadChanges {
  const payment = ['paymentType', 'iban', 'holderName'].some((f) => changed.includes(f));
  const custom = changed.includes('custom') || changed.includes('kept');
  return {
    ...(payment ? { paymentMethod: input.paymentMethod, bankAccount: input.bankAccount } : {}),
    ...(custom ? { customData: input.customData } : {}),
  };
}
