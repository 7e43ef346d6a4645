import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelClaim, type Claim } from '#client/api/claims-client.ts';
import { Button } from '#client/ui/button.tsx';
import { TextareaInput } from '#client/ui/form/fields.tsx';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { useVersionedSave } from '#client/entities/record/use-record-edit.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { ClaimReason } from '#common/claims.ts';
import * as v from 'valibot';
import { errorKey, serverFieldErrors } from './claim-form.ts';
import type { ClaimTabProps } from './claim-page.tsx';
import { followRefusal, useClaimRefusal } from './claim-refusal.ts';
import { useClaimAbilities } from './use-claim-abilities.ts';

/** Money on a claim: what its settlements reserved, paid or recovered (integer cents). */
export const holdsMoney = (claim: Claim): boolean =>
  claim.totals.reserve > 0 || claim.totals.payment > 0 || claim.totals.recourse > 0;

/**
 * Cancelling a claim with a reason (issue 15): what a claim holding money offers instead of
 * deleting it. The service closes the claim and keeps its settlements; the reason, who and when
 * show on the claim.
 */
export function CancelClaim({ claim, onChanged, onReload, statusName }: ClaimTabProps) {
  const { t } = useTranslation('claims');
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="claim-cancel" className="flex flex-col items-start gap-2">
      <h2 id="claim-cancel" className="text-lg font-semibold text-slate-900">
        {t('cancel.heading')}
      </h2>
      <p className="text-sm text-slate-700">{t('cancel.hint')}</p>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('cancel.button')}
      </Button>
      {open ? (
        <CancelDialog
          claim={claim}
          statusName={statusName}
          onRefused={(error) => followRefusal(error, onChanged, onReload)}
          onDone={(saved) => {
            setOpen(false);
            if (saved) onChanged(saved);
          }}
        />
      ) : null}
    </section>
  );
}

function CancelDialog({
  claim,
  statusName,
  onRefused,
  onDone,
}: {
  claim: Claim;
  statusName: (slug: string) => string;
  /** The page follows a refusal (the claim a conflict carries) while the dialog says why. */
  onRefused: (error: unknown) => void;
  onDone: (saved: Claim | null) => void;
}) {
  const { t } = useTranslation('claims');
  const refusal = useClaimRefusal(statusName);
  const { accountIndex } = useClaimAbilities();
  // The record-edit flow (validating, saving, refused with what was typed kept), without its
  // conflict panel: a cancel is no field edit to merge, so a 409 is a refusal the page follows.
  const form = useVersionedSave({
    record: claim,
    valuesOf: (): CancelValues => ({ reason: '' }),
    validate: (values: CancelValues) => {
      const parsed = v.safeParse(ClaimReason, values.reason);
      return parsed.success
        ? { ok: true as const, input: parsed.output }
        : { ok: false as const, errors: { reason: [errorKey(parsed.issues[0].message)] } };
    },
    send: (reason: string, version) => cancelClaim(accountIndex, claim.code, { version, reason }),
    conflictRows: () => [],
    conflictOf: () => null,
    ...useSaveOutcome({
      fieldErrors: (error) => serverFieldErrors(error, ['reason']),
      failure: (error) => {
        onRefused(error);
        return refusal(error);
      },
      onSaved: onDone,
      savedMessage: () => t('cancel.done', { number: claim.claimNumber }),
    }),
  });
  const { values, setValues, errors, busy, failure } = form;

  return (
    <FormDialog
      title={t('cancel.title', { number: claim.claimNumber })}
      busy={busy}
      onDismiss={() => onDone(null)}
    >
      <form noValidate className="flex flex-col gap-4" onSubmit={form.onSubmit}>
        <TextareaInput
          name="cancelReason"
          label={t('cancel.reason')}
          value={values.reason}
          required
          disabled={busy}
          errors={errors.reason}
          onChange={(reason) => setValues({ reason })}
        />
        <FormDialogFooter
          failure={failure}
          onDismissFailure={form.dismissFailure}
          busy={busy}
          cancelLabel={t('actions.cancel')}
          submitLabel={t('cancel.confirm')}
          busyLabel={t('actions.saving')}
          tone="danger"
          onCancel={() => onDone(null)}
        />
      </form>
    </FormDialog>
  );
}

interface CancelValues {
  reason: string;
}
