import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Claim, ClaimErrorBody } from '#client/api/claims-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';

/**
 * Why the claim service refused a write, in the user's words: the refusals the contract names
 * get their own sentence (`illegal_transition` with the two status names), anything else the
 * generic error. `nameOf` turns a status slug into the tenant's name for it.
 */
export function useClaimRefusal(nameOf: (slug: string) => string) {
  const { t } = useTranslation('claims');
  return useCallback(
    (error: unknown, to?: string): string => {
      if (!(error instanceof ApiError)) return t('forms.messages.error');
      const body = error.body as ClaimErrorBody | undefined;
      switch (error.code) {
        case 'illegal_transition':
          return t('errors.illegal_transition', {
            from: nameOf(body?.claim?.status ?? ''),
            to: nameOf(to ?? ''),
          });
        case 'version_conflict':
          return t('errors.version_conflict');
        case 'claim_closed':
          return t('errors.claim_closed');
        case 'duplicate':
          return t('errors.duplicate_partner');
        // Issue 15: money is never deleted nor lowered, and payments above a limit wait for a second
        // person.
        case 'claim_has_settlements':
        case 'settlement_has_payment':
        case 'payment_already_booked':
        case 'recourse_already_booked':
        case 'payment_already_reversed':
        case 'payment_not_booked':
        case 'payment_awaiting_approval':
        case 'approver_is_requester':
        case 'no_pending_payment':
          return t(`errors.${error.code}`);
      }
      if (error.status === 403) return t('errors.forbidden');
      if (error.status === 404) return t('errors.not_found');
      return t('forms.messages.error');
    },
    [t, nameOf],
  );
}

/** A 409 of the claim service carries the claim as it is now: the page shows that one. */
export function currentClaimOf(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  return (error.body as ClaimErrorBody | undefined)?.claim ?? null;
}

/**
 * After a refused write the page shows the claim as it is: the one a 409 carries, or, when the
 * claim is gone (404), the reload that then says so. Other failures leave the page as it was.
 */
export function followRefusal(
  error: unknown,
  onChanged: (claim: Claim) => void,
  onReload: () => void,
): void {
  const current = currentClaimOf(error);
  if (current) onChanged(current);
  else if (error instanceof ApiError && error.status === 404) onReload();
}

/**
 * The refusal of a write behind the confirm dialog: the page follows it (the claim as it is, or
 * `also`: a list read again), and the dialog shows why, in the user's words. Use as the write's
 * `.catch(...)`.
 */
export function useDialogRefusal({
  onChanged,
  onReload,
  statusName,
}: {
  onChanged: (claim: Claim) => void;
  onReload: () => void;
  statusName: (slug: string) => string;
}) {
  const text = useClaimRefusal(statusName);
  return useCallback(
    (also?: () => void, to?: string) =>
      (error: unknown): never => {
        followRefusal(error, onChanged, onReload);
        also?.();
        throw new Error(text(error, to));
      },
    [onChanged, onReload, text],
  );
}
