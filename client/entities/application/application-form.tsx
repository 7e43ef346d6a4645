import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { ApplicationFields, ApplicationSummary } from './application-fields.tsx';
import { PremiumPanel } from './premium-panel.tsx';
import type { ApplicationTariff } from './use-application-tariff.ts';
import type { ApplicationFormState } from './use-application-form.ts';
import { usePremiumQuote } from './use-premium-quote.ts';

/**
 * An application generated from a product version: its sections and fields (or, in view mode,
 * their values read-only) beside the live premium. The caller owns the form state
 * (`useApplicationForm`) and what a submit does, so that a policy sale and a lead's application
 * (create, edit, view) share one form; what only one of them needs comes in as content (the
 * lead's applicant above the fields, its stored premium instead of the live one).
 */
export function ApplicationForm({
  accountIndex,
  tariff,
  form,
  mode = 'edit',
  disabled = false,
  intro,
  premium,
  children,
}: {
  accountIndex: number;
  tariff: ApplicationTariff;
  form: ApplicationFormState;
  mode?: 'edit' | 'view';
  disabled?: boolean;
  /** Above the fields: the caller's own part of the application (who applies). */
  intro?: ReactNode;
  /** Beside the fields instead of the live premium (a premium that is stored, not computed). */
  premium?: ReactNode;
  /** Below the fields: the caller's buttons and messages. */
  children?: ReactNode;
}) {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="flex flex-col gap-4">
        {intro}
        {mode === 'view' ? (
          <ApplicationSummary
            accountIndex={accountIndex}
            objects={tariff.objects}
            values={form.values}
          />
        ) : (
          <ApplicationFields accountIndex={accountIndex} form={form} disabled={disabled} />
        )}
        {mode === 'edit' ? <FixFieldsAlert form={form} /> : null}
        {children}
      </div>
      <aside className="lg:sticky lg:top-4">
        {premium ?? <LivePremium accountIndex={accountIndex} tariff={tariff} form={form} />}
      </aside>
    </div>
  );
}

/** The premium of what the form holds, asked again whenever it changes. */
function LivePremium({
  accountIndex,
  tariff,
  form,
}: {
  accountIndex: number;
  tariff: ApplicationTariff;
  form: ApplicationFormState;
}) {
  const quote = usePremiumQuote(accountIndex, tariff.productVersionId, form.policyObjects);
  return <PremiumPanel quote={quote} objects={tariff.objects} formulas={tariff.formulas} />;
}

/** After a submit the form's own check refused: how many fields are marked, until none is. */
export function FixFieldsAlert({ form }: { form: ApplicationFormState }) {
  const { t } = useTranslation('applications');
  return form.revealed && form.issueCount > 0 ? (
    <AlertBar tone="danger" dismissible={false}>
      {t('fix_fields', { count: form.issueCount })}
    </AlertBar>
  ) : null;
}
