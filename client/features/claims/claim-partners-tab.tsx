import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  linkClaimPartner,
  removeClaimPartner,
  type ClaimPartner,
  type ClaimPartnerRole,
} from '#client/api/claims-client.ts';
import { claimQueries } from '#client/api/claims-queries.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { useFocusFirstInvalid } from '#client/ui/form/use-focus-first-invalid.ts';
import { PartnerSelector, type PartnerChoice } from '#client/entities/partner/partner-selector.tsx';
import { RowButton } from '#client/ui/row-button.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { allLoaded, loadStateOf, mapLoaded, retryFailed } from '#client/ui/load-state.ts';
import { canEditClaim } from '#common/claims.ts';
import { errorKey } from './claim-form.ts';
import type { ClaimTabProps } from './claim-page.tsx';
import { followRefusal, useClaimRefusal, useDialogRefusal } from './claim-refusal.ts';
import { PartsLoad, PartsTable, partCell } from './parts-table.tsx';
import { useClaimAbilities } from './use-claim-abilities.ts';
import { labelIn, withLabelNames } from '#common/name-labels.ts';

const cell = partCell;

/**
 * The partners of a claim (a workshop, an assessor, a witness...), each in a claim partner role
 * of the tenant; linked with the partner selector and a role, removed behind the confirm dialog,
 * while the claim is not closed and the user may update claims.
 */
export function ClaimPartnersTab({ claim, onChanged, onReload, statusName }: ClaimTabProps) {
  const { t, i18n } = useTranslation('claims');
  const { accountIndex, canUpdate, canViewPartners } = useClaimAbilities();
  const confirm = useConfirm();
  const toast = useToast();
  const refusal = useClaimRefusal(statusName);
  const refused = useDialogRefusal({ onChanged, onReload, statusName });
  const writable = canUpdate && canEditClaim(claim.status);

  const queryClient = useQueryClient();
  const partsQueries = useQueries({
    queries: [
      claimQueries.partners(accountIndex, claim.code),
      claimQueries.partnerRoles(accountIndex),
    ],
  });
  const [linksQuery, rolesQuery] = partsQueries;
  const state = mapLoaded(
    allLoaded<[ClaimPartner[], ClaimPartnerRole[]]>([
      loadStateOf(linksQuery),
      loadStateOf(rolesQuery),
    ]),
    // The roles named in the user's language (the tenant's labels), in the list and the dialog.
    ([links, roles]) => ({ links, roles: withLabelNames(roles, i18n.language) }),
  );
  const retry = () => retryFailed(partsQueries);
  // A link made or removed (or refused because the claim moved on): the links as they are now.
  const refresh = () =>
    void queryClient.invalidateQueries({
      queryKey: claimQueries.partners(accountIndex, claim.code).queryKey,
    });
  const roleName = (link: ClaimPartner) =>
    (link.role ? labelIn(link.role, i18n.language) : undefined) ??
    (state.kind === 'ready'
      ? state.value.roles.find((r) => r.id === link.claimPartnerRoleId)?.name
      : undefined) ??
    String(link.claimPartnerRoleId);
  const partnerName = (link: ClaimPartner) => link.partner?.displayName ?? link.partnerCode;

  const remove = (link: ClaimPartner) =>
    void confirm({
      title: t('partners.remove_title'),
      message: t('partners.remove_message', { partner: partnerName(link), role: roleName(link) }),
      confirmLabel: t('partners.remove_confirm'),
      tone: 'danger',
      action: () => removeClaimPartner(accountIndex, link.id).catch(refused(refresh)),
    }).then((done) => {
      if (!done) return;
      toast({ message: t('partners.removed', { partner: partnerName(link) }), tone: 'success' });
      refresh();
    });

  return (
    <section aria-labelledby="claim-partners" className="flex flex-col gap-4">
      <h2 id="claim-partners" className="text-lg font-semibold text-slate-900">
        {t('partners.title')}
      </h2>
      {canUpdate && !writable ? (
        <p className="text-sm text-slate-700">{t('partners.closed_note')}</p>
      ) : null}
      <PartsLoad state={state} onRetry={retry}>
        {({ links, roles }) => (
          <>
            {writable && canViewPartners ? (
              <LinkPartnerForm
                claimCode={claim.code}
                roles={roles}
                onLinked={(link) => {
                  toast({
                    message: t('partners.linked', {
                      partner: link.partnerName,
                      role: link.roleName,
                    }),
                    tone: 'success',
                  });
                  refresh();
                }}
                onRefused={(error) => {
                  followRefusal(error, onChanged, onReload);
                  return refusal(error);
                }}
              />
            ) : null}
            <PartsTable
              caption={t('partners.caption', { number: claim.claimNumber })}
              testId="claim-partners"
              minWidth="min-w-[36rem]"
              columns={[
                { label: t('partners.partner') },
                { label: t('partners.number') },
                { label: t('partners.role') },
                { label: t('partners.linked_at') },
              ]}
              actionsLabel={writable ? t('partners.actions') : null}
              empty={links.length === 0 ? t('partners.empty') : null}
            >
              {links.map((link) => (
                <tr key={link.id} className="border-b border-slate-200">
                  <td className={cell}>
                    {/* The partner's own page, for whoever may read partners (as the menu). */}
                    {canViewPartners ? (
                      <Link
                        to={`/u/${accountIndex}/partners/${encodeURIComponent(link.partnerCode)}`}
                        className="font-medium text-blue-800 underline-offset-2 hover:underline"
                      >
                        {partnerName(link)}
                      </Link>
                    ) : (
                      partnerName(link)
                    )}
                  </td>
                  <td className={cell}>{link.partner?.partnerNumber ?? ''}</td>
                  <td className={cell}>{roleName(link)}</td>
                  <td className={cell}>{formatDateTime(link.createdAt)}</td>
                  {writable ? (
                    <td className={`${cell} text-right`}>
                      <RowButton
                        label={t('partners.remove')}
                        name={t('partners.remove_named', {
                          partner: partnerName(link),
                          role: roleName(link),
                        })}
                        onClick={() => remove(link)}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </PartsTable>
          </>
        )}
      </PartsLoad>
    </section>
  );
}

/** A partner and a role, linked to the claim. */
function LinkPartnerForm({
  claimCode,
  roles,
  onLinked,
  onRefused,
}: {
  claimCode: string;
  roles: readonly { id: number; name: string }[];
  onLinked: (link: { partnerName: string; roleName: string }) => void;
  /** The refusal's text; the caller also brings the page up to date. */
  onRefused: (error: unknown) => string;
}) {
  const { t } = useTranslation('claims');
  const { accountIndex } = useClaimAbilities();
  const [partner, setPartner] = useState<PartnerChoice | null>(null);
  const [roleId, setRoleId] = useState('');
  // Which of the two is missing after a submit.
  const [missing, setMissing] = useState({ partner: false, role: false });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useFocusFirstInvalid(missing, busy);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMissing({ partner: !partner, role: !roleId });
    setFailure(null);
    if (!partner || !roleId) return;
    setBusy(true);
    try {
      await linkClaimPartner(accountIndex, claimCode, {
        partnerCode: partner.code,
        claimPartnerRoleId: Number(roleId),
      });
      onLinked({
        partnerName: partner.displayName,
        roleName: roles.find((r) => String(r.id) === roleId)?.name ?? roleId,
      });
      setPartner(null);
      setRoleId('');
    } catch (error) {
      setFailure(onRefused(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      noValidate
      aria-label={t('partners.link_title')}
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-3 rounded-md border border-slate-200 bg-slate-50 p-4"
    >
      <div className="grid items-start gap-4 sm:grid-cols-[2fr_1fr]">
        <PartnerSelector
          accountIndex={accountIndex}
          name="partner"
          value={partner}
          onChange={setPartner}
          required
          disabled={busy}
          error={missing.partner ? t('form.errors.required') : undefined}
          texts={{
            label: t('partners.partner'),
            placeholder: t('partner_selector.placeholder'),
            open: t('partner_selector.open'),
            loading: t('partner_selector.loading'),
            noOptions: t('partner_selector.no_options'),
            loadMore: t('partner_selector.load_more'),
            clear: t('partner_selector.clear'),
            error: t('forms.messages.error'),
          }}
        />
        <SelectInput
          name="role"
          label={t('partners.role')}
          value={roleId}
          required
          disabled={busy}
          errors={missing.role ? [errorKey('required')] : undefined}
          options={roles.map((r) => ({ value: String(r.id), label: r.name }))}
          onChange={setRoleId}
        />
      </div>
      {failure ? (
        <AlertBar tone="danger" onDismiss={() => setFailure(null)}>
          {failure}
        </AlertBar>
      ) : null}
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? t('actions.saving') : t('partners.link')}
        </Button>
      </div>
    </form>
  );
}
