import type { ReactNode } from 'react';
import { ApplicationFields, ApplicationSummary } from './application-fields.tsx';
import { PremiumPanel } from './premium-panel.tsx';
import type { ApplicationTariff } from './use-application-tariff.ts';
import type { ApplicationFormState } from './use-application-form.ts';
import { usePremiumQuote } from './use-premium-quote.ts';

/**
 * An application generated from a product version: its sections and fields (or, in view mode,
 * their values read-only) beside the live premium. The caller owns the form state
 * (`useApplicationForm`) and what a submit does, so that a policy sale and a lead's application
 * (create, edit, view) share one form.
 */
export function ApplicationForm({
  accountIndex,
  tariff,
  form,
  mode = 'edit',
  disabled = false,
  children,
}: {
  accountIndex: number;
  tariff: ApplicationTariff;
  form: ApplicationFormState;
  mode?: 'edit' | 'view';
  disabled?: boolean;
  /** Below the fields: the caller's buttons and messages. */
  children?: ReactNode;
}) {
  const quote = usePremiumQuote(accountIndex, tariff.productVersionId, form.policyObjects);
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="flex flex-col gap-4">
        {mode === 'view' ? (
          <ApplicationSummary
            accountIndex={accountIndex}
            objects={tariff.objects}
            values={form.values}
          />
        ) : (
          <ApplicationFields accountIndex={accountIndex} form={form} disabled={disabled} />
        )}
        {children}
      </div>
      <aside className="lg:sticky lg:top-4">
        <PremiumPanel quote={quote} objects={tariff.objects} formulas={tariff.formulas} />
      </aside>
    </div>
  );
}
