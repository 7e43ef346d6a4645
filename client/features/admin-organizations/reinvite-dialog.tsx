import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import {
  reinviteOrganization,
  type OrganizationInvitation,
} from '#client/api/organizations-client.ts';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { emailRule, requiredString } from '#client/ui/form/rules.ts';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { InvitationEmailInput } from './address-fields.tsx';
import { useServiceCall } from './use-service-call.ts';

/**
 * Re-invite: the service makes a new link (the old one stops working), renews the expiry and
 * e-mails it. The address can be corrected here, e.g. when the first e-mail bounced.
 */
export function ReinviteDialog({
  accountIndex,
  invitation,
  onClose,
}: {
  accountIndex: number;
  invitation: OrganizationInvitation;
  onClose: (sentTo: string | null) => void;
}) {
  const { t } = useTranslation(['admin_organizations', 'common']);
  const label = t('fields.email');
  const [email, setEmail] = useState(invitation.email);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, failure, run } = useServiceCall();
  const schema = useMemo(
    () => v.object({ email: v.pipe(requiredString(label), v.trim(), emailRule('invalidEmail')) }),
    [label],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(schema, { email });
    setErrors(result.errors);
    if (!result.success) return;
    const { email: to } = result.output;
    const sent = await run(() => reinviteOrganization(accountIndex, invitation.id, to));
    if (sent.ok) onClose(to);
  };

  return (
    <FormDialog
      title={t('reinvite_dialog.title', { name: invitation.name })}
      busy={busy}
      onDismiss={() => onClose(null)}
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <p className="text-sm text-slate-700">{t('reinvite_dialog.text')}</p>
        <InvitationEmailInput
          value={email}
          errors={errors.email}
          disabled={busy}
          onChange={setEmail}
        />
        <FormDialogFooter
          failure={failure}
          busy={busy}
          cancelLabel={t('common:actions.cancel')}
          submitLabel={t('reinvite_dialog.send')}
          // The button keeps its text while the link is sent (it was never said otherwise).
          busyLabel={t('reinvite_dialog.send')}
          onCancel={() => onClose(null)}
        />
      </form>
    </FormDialog>
  );
}
