import * as v from 'valibot';
import type { Settlement, SettlementFieldsBody } from '#client/api/claims-client.ts';
import type { Policy } from '#client/api/policies-client.ts';
import { conflictRowsOf, type ConflictRow } from '#client/ui/conflict-rows.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SettlementFields, paymentIssues } from '#common/claims.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { errorKey } from './claim-form.ts';
import { amountSeparators, amountText, parseAmount } from '#client/ui/money-input.ts';

/**
 * The settlement dialog's values: amounts are typed as the user's language writes money
 * (`1.234,50` in German, `1,234.50` in English, `1 234,50` in Polish; a currency sign may stand
 * beside) and travel as cents, the service's integers. The checks are the service's own
 * (`SettlementFields` of `#common/claims.ts`).
 */

export const AMOUNT_FIELDS = ['reserve', 'payment', 'recourse'] as const;
export type AmountField = (typeof AMOUNT_FIELDS)[number];

export interface SettlementValues {
  insuredObject: string;
  reserve: string;
  payment: string;
  recourse: string;
}

// Typed money: one reading for every amount input (client/ui/money-input.ts).
export { amountSeparators, amountText, parseAmount };

export function settlementValuesOf(
  settlement: Settlement | null,
  language: string,
  insuredObject = '',
): SettlementValues {
  if (!settlement) return { insuredObject, reserve: '', payment: '', recourse: '' };
  return {
    insuredObject: settlement.insuredObject,
    reserve: amountText(settlement.reserve, language),
    payment: amountText(settlement.payment, language),
    recourse: amountText(settlement.recourse, language),
  };
}

export function validateSettlement(
  values: SettlementValues,
  language: string,
): { ok: true; input: SettlementFieldsBody } | { ok: false; errors: FieldErrors } {
  const amount = (field: AmountField) => parseAmount(values[field], language) ?? Number.NaN;
  const parsed = v.safeParse(SettlementFields, {
    insuredObject: values.insuredObject,
    reserve: amount('reserve'),
    payment: amount('payment'),
    recourse: amount('recourse'),
  });
  if (parsed.success) return { ok: true, input: parsed.output };
  const errors: FieldErrors = {};
  for (const issue of parsed.issues) {
    const field = v.getDotPath(issue) ?? 'form';
    errors[field] ??= [errorKey(issue.message)];
  }
  return { ok: false, errors };
}

/**
 * The insured objects a settlement may name: those of the policy's current version (the service
 * accepts no other), once each, by their label, in the order the timeline shows them.
 */
export function insuredObjectsOf(policy: Policy): { value: string; label: string }[] {
  const current = policy.versions?.find((version) => version.isCurrent);
  const objects = (current?.timeline ?? []).flatMap((slice) => slice.policyObjects);
  const seen = new Map<string, string>();
  for (const object of objects) {
    if (!seen.has(object.insuredObjectName)) {
      seen.set(object.insuredObjectName, object.insuredObjectLabel || object.insuredObjectName);
    }
  }
  return [...seen].map(([value, label]) => ({ value, label }));
}

const SETTLEMENT_FIELDS = ['insuredObject', ...AMOUNT_FIELDS] as const;
export type SettlementField = (typeof SETTLEMENT_FIELDS)[number];

/** The fields another save changed since the dialog was opened (see conflictRowsOf). */
export function settlementConflictRows(
  loaded: Settlement,
  mine: SettlementValues,
  saved: Settlement,
  language: string,
): ConflictRow<SettlementField>[] {
  return conflictRowsOf(
    SETTLEMENT_FIELDS,
    settlementValuesOf(loaded, language),
    mine,
    settlementValuesOf(saved, language),
  );
}

/** The field message of a payment above the reserve, naming the reserve left (formatted money). */
export const aboveReserveMessage = (remaining: string): string =>
  `${errorKey('payment_above_reserve')}?${new URLSearchParams({ remaining }).toString()}`;

/**
 * The service's payment rules before sending (common/claims.ts `paymentIssues`): a payment only
 * on an approved claim, never above the reserve. `paidBefore` is what the settlement paid so far;
 * `format` writes cents as the user's money.
 */
export function paymentErrors(
  input: { reserve: number; payment: number },
  claimStatus: string,
  paidBefore: number,
  format: (cents: number) => string,
): FieldErrors | null {
  const [issue] = paymentIssues(input, claimStatus, paidBefore);
  if (!issue) return null;
  return {
    payment: [
      issue.code === 'payment_above_reserve'
        ? aboveReserveMessage(format(Math.max(0, input.reserve - paidBefore)))
        : errorKey(issue.code),
    ],
  };
}

/** The reserve left that a refusal `payment_above_reserve` of the service names, else null. */
export function remainingReserveOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'validation_error') return null;
  const remaining = (error.body as { remainingReserve?: unknown } | undefined)?.remainingReserve;
  return typeof remaining === 'number' ? remaining : null;
}
