import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelClaim, type Claim } from '#client/api/claims-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { TextareaInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';
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
  const toast = useToast();
  const refusal = useClaimRefusal(statusName);
  const { accountIndex } = useClaimAbilities();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(ClaimReason, reason);
    if (!parsed.success) {
      setErrors([errorKey(parsed.issues[0].message)]);
      return;
    }
    setBusy(true);
    setErrors(undefined);
    setFailure(null);
    cancelClaim(accountIndex, claim.code, { version: claim.version, reason: parsed.output })
      .then((saved) => {
        toast({ message: t('cancel.done', { number: claim.claimNumber }), tone: 'success' });
        onDone(saved);
      })
      .catch((error: unknown) => {
        setBusy(false);
        const fields = serverFieldErrors(error, ['reason']);
        if (fields?.reason) {
          setErrors(fields.reason);
          return;
        }
        onRefused(error);
        setFailure(refusal(error));
      });
  };

  return (
    <FormDialog
      title={t('cancel.title', { number: claim.claimNumber })}
      busy={busy}
      onDismiss={() => onDone(null)}
    >
      <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
        <TextareaInput
          name="cancelReason"
          label={t('cancel.reason')}
          value={reason}
          required
          disabled={busy}
          errors={errors}
          onChange={setReason}
        />
        {failure ? (
          <AlertBar tone="danger" onDismiss={() => setFailure(null)}>
            {failure}
          </AlertBar>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => onDone(null)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? t('actions.saving') : t('cancel.confirm')}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
