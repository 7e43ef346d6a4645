import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { createClaim, type Claim, type ClaimFieldsBody } from '#client/api/claims-client.ts';
import type { Policy } from '#client/api/policies-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { Button, buttonClass } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { CheckboxInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { useRecordSave } from '#client/entities/record/use-record-edit.ts';
import { isoToday } from '#common/claims.ts';
import { ClaimForm } from './claim-fields.tsx';
import {
  CLAIM_FIELDS,
  COVER_CODES,
  conflictRows,
  emptyValues,
  errorKey,
  serverFieldErrors,
  validateClaim,
  valuesOf,
} from './claim-form.ts';
import { PolicyPicker } from './policy-picker.tsx';
import { useClaimAbilities } from './use-claim-abilities.ts';
import { useClaimFormContext, type ClaimFormContext } from './use-claim-form-context.ts';
import { BackLink } from '#client/ui/record-page.tsx';

/**
 * A new claim (spec route /claims/new): the policy it is made on (picked by search), title,
 * type, the day of the damage and of the notice (today unless changed), a description and the
 * tenant's claim custom fields. The form checks the service's rules first; a refusal of the
 * service shows at its field, and everything typed stays. The new claim opens.
 *
 * When the service refuses for want of cover (no cover on the loss date, a loss the product does
 * not cover), a holder of the override permission may register it anyway with a reason: the
 * override is sent with the claim and the service records who, when and why.
 */
export default function NewClaimPage() {
  const { t } = useTranslation('claims');
  usePageTitle(t('new.title'));
  const { accountIndex } = useClaimAbilities();
  const { state, context, retry } = useClaimFormContext(accountIndex);
  const listPath = `/u/${accountIndex}/claims`;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink to={listPath}>{t('detail.back')}</BackLink>
      <h1 className="text-2xl font-bold text-slate-900">{t('new.title')}</h1>
      {state === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state === 'failed' ? (
        // Without the schema the required custom fields are unknown: the save would only fail.
        <RetryAlert
          message={t('errors.form_context_failed')}
          retryLabel={t('actions.retry')}
          onRetry={retry}
        />
      ) : null}
      {context ? <NewClaimForm context={context} listPath={listPath} /> : null}
    </div>
  );
}

function NewClaimForm({ context, listPath }: { context: ClaimFormContext; listPath: string }) {
  const { t } = useTranslation('claims');
  const navigate = useNavigate();
  const { accountIndex, canViewPolicies, canOverrideCover } = useClaimAbilities();
  const [policy, setPolicy] = useState<Policy | null>(null);
  // Offered once the service refused for want of cover; the reason is said in words.
  const [coverRefused, setCoverRefused] = useState(false);
  const [override, setOverride] = useState({ wanted: false, reason: '' });
  const policyStart = policy?.policyStartDate
    ? isoToday(context.timeZone, new Date(policy.policyStartDate))
    : null;
  const form = useRecordSave({
    record: null,
    valuesOf,
    emptyValues: () => emptyValues(context.today()),
    validate: (values) => {
      const checked = validateClaim(values, {
        today: context.today(),
        policyStart,
        customSchema: context.custom.schema,
      });
      if (policy) return checked;
      // The policy is chosen outside the values; its absence joins the other messages.
      return {
        ok: false as const,
        errors: { ...(checked.ok ? {} : checked.errors), policyCode: [errorKey('required')] },
      };
    },
    send: (input: ClaimFieldsBody) =>
      createClaim(accountIndex, {
        ...input,
        policyCode: policy?.code ?? '',
        ...(override.wanted ? { coverOverride: { reason: override.reason } } : {}),
      }),
    conflictRows,
    // A new claim has no version to conflict with.
    conflictOf: () => null,
    ...useSaveOutcome({
      fieldErrors: (error) => {
        const errors = serverFieldErrors(error, [
          ...CLAIM_FIELDS,
          'policyCode',
          'coverOverride.reason',
        ]);
        const codes = Object.values(errors ?? {}).flat();
        if ([...COVER_CODES].some((code) => codes.includes(errorKey(code)))) {
          setCoverRefused(true);
        }
        return errors;
      },
      failure: () => t('forms.messages.error'),
      onSaved: (claim: Claim) => {
        void navigate(`${listPath}/${encodeURIComponent(claim.code)}`);
      },
      savedMessage: (claim) => t('messages.created', { number: claim.claimNumber }),
    }),
  });
  const policyError = form.errors.policyCode?.[0];
  const overrideSection =
    coverRefused && canOverrideCover ? (
      <div
        className="flex flex-col gap-3 rounded border border-amber-300 bg-amber-50 p-3"
        data-testid="cover-override"
      >
        <CheckboxInput
          name="coverOverride"
          label={t('override.label')}
          checked={override.wanted}
          disabled={form.busy}
          onChange={(wanted) => setOverride((current) => ({ ...current, wanted }))}
        />
        {override.wanted ? (
          <TextareaInput
            name="coverOverrideReason"
            label={t('override.reason')}
            value={override.reason}
            required
            disabled={form.busy}
            hint={t('override.hint')}
            errors={form.errors['coverOverride.reason']}
            onChange={(reason) => setOverride((current) => ({ ...current, reason }))}
          />
        ) : null}
      </div>
    ) : null;

  return (
    <ClaimForm
      label={t('new.title')}
      form={form}
      customFields={context.custom.fields}
      before={
        canViewPolicies ? (
          <PolicyPicker
            accountIndex={accountIndex}
            value={policy}
            onChange={setPolicy}
            disabled={form.busy}
            error={policyError ? t(policyError as 'form.errors.required') : undefined}
          />
        ) : (
          <AlertBar tone="warning" dismissible={false}>
            {t('new.no_policy_permission')}
          </AlertBar>
        )
      }
      after={overrideSection}
      actions={
        <>
          <Button type="submit" disabled={form.busy || !canViewPolicies}>
            {form.busy ? t('actions.saving') : t('new.create')}
          </Button>
          <Link to={listPath} className={buttonClass('secondary')}>
            {t('actions.cancel')}
          </Link>
        </>
      }
    />
  );
}
