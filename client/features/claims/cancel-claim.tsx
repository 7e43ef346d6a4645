import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelClaim, type Claim } from '#client/api/claims-client.ts';
import { Button } from '#client/ui/button.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
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
  return (
    <ReasonDialog
      record={claim}
      title={t('cancel.title', { number: claim.claimNumber })}
      reasonLabel={t('cancel.reason')}
      submitLabel={t('cancel.confirm')}
      name="cancelReason"
      send={(reason, version) => cancelClaim(accountIndex, claim.code, { version, reason })}
      refusal={(error) => {
        onRefused(error);
        return refusal(error);
      }}
      onDone={(saved) => {
        if (saved) {
          toast({ message: t('cancel.done', { number: claim.claimNumber }), tone: 'success' });
        }
        onDone(saved);
      }}
    />
  );
}
