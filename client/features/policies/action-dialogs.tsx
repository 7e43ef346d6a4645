import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { defaultTerminationDate, terminationDateRefusal } from '#common/policy-lifecycle.ts';
import { policyQueries } from '#client/api/policies-queries.ts';
import { useMoneyFormat } from '#client/ui/money.ts';
import { timesliceAt } from '#common/policy-timeline.ts';
import type {
  Policy,
  PolicyObject,
  PolicyObjectPatch,
  PolicyVersion,
} from '#client/api/policies-client.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import {
  ApplicationFields,
  useFieldTexts,
} from '#client/entities/application/application-fields.tsx';
import { FixFieldsAlert } from '#client/entities/application/application-form.tsx';
import {
  dataByName,
  initialValues,
  splitIssues,
  type ApplicationValues,
} from '#client/entities/application/application-values.ts';
import {
  useApplicationForm,
  useFieldFocus,
} from '#client/entities/application/use-application-form.ts';
import { Button } from '#client/ui/button.tsx';
import { DateInput, TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { formatUtcDate } from '#client/entities/policy/policy-display.ts';
import { draftObjects, draftPatch, editablePaths, isTermField } from './draft-form.ts';

/** How the dialog's last attempt ended, shown inside it (what was typed stays). */
export interface DialogOutcome {
  /** The service's verdict at the fields (a 400), by the service's paths. */
  issues: { path: string; code: string }[];
  /** A refusal, a failure or a conflict, rendered by the caller. */
  notice: ReactNode;
}

interface DialogProps {
  policy: Policy;
  busy: boolean;
  outcome: DialogOutcome | null;
  onCancel: () => void;
}

const REASON_MAX = 500;

/** The contract a termination date must fall in: the start and the current timeline's end. */
function contractOf(policy: Policy) {
  const current = policy.versions?.find((v) => v.id === policy.currentVersionId);
  const last = current?.timeline.at(-1);
  return {
    startMs: Date.parse(policy.policyStartDate),
    endMs: last?.to ? Date.parse(last.to) : null,
  };
}

function DialogButtons({
  busy,
  submitLabel,
  tone = 'primary',
  onCancel,
}: {
  busy: boolean;
  submitLabel: string;
  tone?: 'primary' | 'danger';
  onCancel: () => void;
}) {
  const { t } = useTranslation('policies');
  return (
    <div className="flex justify-end gap-3 pt-2">
      <Button variant="secondary" disabled={busy} onClick={onCancel}>
        {t('actions.cancel')}
      </Button>
      <Button type="submit" variant={tone} disabled={busy}>
        {busy ? t('actions.saving') : submitLabel}
      </Button>
    </div>
  );
}

export interface EndValues {
  terminationDate: string;
  reason: string;
}

/** Today, or the day within the contract nearest to it: a date the termination rule accepts. */
export const initialEndValues = (policy: Policy): EndValues => ({
  terminationDate: defaultTerminationDate(contractOf(policy), Date.now()),
  reason: '',
});

/**
 * The money of terminating on the chosen day, as the service computes it (its preview call, the
 * rule that the termination itself stores): shown before the user confirms. Nothing while the
 * date is one the rule refuses; that message shows at the field.
 */
function TerminationRefund({
  accountIndex,
  policy,
  terminationDate,
}: {
  accountIndex: number;
  policy: Policy;
  terminationDate: string;
}) {
  const { t } = useTranslation('policies');
  const money = useMoneyFormat();
  const accepted = terminationDateRefusal(terminationDate, contractOf(policy)) === null;
  const query = useQuery({
    ...policyQueries.terminationPreview(
      accountIndex,
      policy.code,
      policy.currentVersionId,
      terminationDate,
    ),
    enabled: accepted,
  });
  if (!accepted) return null;
  if (query.isPending) {
    return <p className="text-sm text-slate-600">{t('dialogs.refund_loading')}</p>;
  }
  if (query.isError) {
    return <p className="text-sm text-red-700">{t('dialogs.refund_failed')}</p>;
  }
  const figures = query.data;
  const cents = (amount: number) => money(amount / 100, figures.currency);
  return (
    <section aria-label={t('dialogs.refund_title')} className="rounded border border-slate-200 p-3">
      <h3 className="mb-2 text-sm font-medium text-slate-800">{t('dialogs.refund_title')}</h3>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt>{t('dialogs.paid', { days: figures.termDays })}</dt>
        <dd className="text-right tabular-nums">{cents(figures.paidPremiumCents)}</dd>
        <dt>{t('dialogs.earned', { days: figures.insuredDays })}</dt>
        <dd className="text-right tabular-nums">{cents(figures.earnedPremiumCents)}</dd>
        <dt className="font-medium">{t('dialogs.refund')}</dt>
        <dd className="text-right font-medium tabular-nums">{cents(figures.refundCents)}</dd>
      </dl>
    </section>
  );
}

/**
 * The end of a policy: terminate (from a date within the contract, checked here as the service
 * checks it) or withdraw (void from the start); both with an optional reason.
 */
export function EndPolicyDialog({
  accountIndex,
  kind,
  policy,
  busy,
  outcome,
  values,
  onChange,
  onSubmit,
  onCancel,
}: DialogProps & {
  accountIndex: number;
  kind: 'terminate' | 'withdraw';
  values: EndValues;
  onChange: (values: EndValues) => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('policies');
  const [shownError, setShownError] = useState<string | null>(null);
  const contract = contractOf(policy);
  const dateMessage = (code: string | null | undefined) =>
    code === 'before_start'
      ? t('refusals.termination.before_start', { date: formatUtcDate(policy.policyStartDate) })
      : code === 'after_end'
        ? t('refusals.termination.after_end', {
            date: contract.endMs ? formatUtcDate(new Date(contract.endMs).toISOString()) : '',
          })
        : code
          ? t('refusals.termination.invalid_date')
          : null;
  const serverDate = outcome?.issues.find((i) => i.path === 'terminationDate')?.code;
  const dateError = shownError ?? dateMessage(serverDate);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const refusal =
      kind === 'terminate' ? terminationDateRefusal(values.terminationDate, contract) : null;
    setShownError(dateMessage(refusal));
    if (!refusal) onSubmit();
  };
  const terminate = kind === 'terminate';
  return (
    <FormDialog
      title={t(terminate ? 'dialogs.terminate_title' : 'dialogs.withdraw_title', {
        number: policy.policyNumber,
      })}
      busy={busy}
      onDismiss={onCancel}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-busy={busy}>
        {terminate ? (
          <DateInput
            label={t('fields.termination_date')}
            required
            value={values.terminationDate}
            errors={dateError ? [dateError] : undefined}
            disabled={busy}
            onChange={(terminationDate) => {
              setShownError(null);
              onChange({ ...values, terminationDate });
            }}
          />
        ) : (
          <p className="text-sm text-slate-700">{t('dialogs.withdraw_text')}</p>
        )}
        {terminate ? (
          <TerminationRefund
            accountIndex={accountIndex}
            policy={policy}
            terminationDate={values.terminationDate}
          />
        ) : null}
        <TextInput
          label={t('fields.reason')}
          value={values.reason}
          maxLength={REASON_MAX}
          disabled={busy}
          onChange={(reason) => onChange({ ...values, reason })}
        />
        {outcome?.notice}
        <DialogButtons
          busy={busy}
          tone="danger"
          submitLabel={t(terminate ? 'actions.terminate' : 'actions.withdraw')}
          onCancel={onCancel}
        />
      </form>
    </FormDialog>
  );
}

const NO_OBJECTS: readonly PolicyObject[] = [];

/**
 * The form of a draft's policy objects: the data in force today in the generated application
 * form. It lives with the actions, not in the dialog, so that what was typed survives the
 * confirmation in between and a refusal. `start` fills it from the draft (once the product's
 * fields are known).
 */
export function useDraftForm(draft: PolicyVersion | null, tariff: readonly InsuredObject[] | null) {
  const { i18n } = useTranslation();
  const stored = useMemo(
    () => (draft ? timesliceAt(draft.timeline, new Date())?.policyObjects : null) ?? NO_OBJECTS,
    [draft],
  );
  const objects = useMemo(
    () => draftObjects(stored, tariff ?? [], i18n.language),
    [stored, tariff, i18n.language],
  );
  const form = useApplicationForm(objects, {});
  const { reset } = form;
  // Asked to start before the product's fields arrived: it starts when they do.
  const [waiting, setWaiting] = useState(false);
  const fill = useCallback(
    () => reset(initialValues(objects, dataByName(stored), new Date(), i18n.language)),
    [reset, objects, stored, i18n.language],
  );
  useEffect(() => {
    if (!waiting || objects.length === 0) return;
    fill();
    setWaiting(false);
  }, [waiting, objects, fill]);
  const start = useCallback(() => {
    if (objects.length) fill();
    else setWaiting(true);
  }, [objects, fill]);
  return { form, objects, stored, start };
}

export type DraftForm = ReturnType<typeof useDraftForm>;

/**
 * The draft's policy objects in the generated application form (the controls and checks of a
 * policy sale; the contract term shown, not changed). It edits the data in force today and sends
 * only what changed, from a day on when "effective from" is given, else for the whole timeline.
 */
export function DraftDialog({
  accountIndex,
  policy,
  draft,
  busy,
  outcome,
  effectiveFrom,
  onEffectiveFrom,
  onSubmit,
  onCancel,
}: DialogProps & {
  accountIndex: number;
  draft: DraftForm;
  effectiveFrom: string;
  onEffectiveFrom: (effectiveFrom: string) => void;
  onSubmit: (patch: PolicyObjectPatch[]) => void;
}) {
  const { t } = useTranslation('policies');
  const texts = useFieldTexts();
  const { form, objects, stored } = draft;
  const focusField = useFieldFocus(busy);
  // "Nothing was changed" holds for the values it was said about.
  const [unchangedAt, setUnchangedAt] = useState<ApplicationValues | null>(null);

  // The service's verdict: at the inputs it names, the rest (the term, an object) listed.
  const issues = outcome?.issues;
  const fieldIssues = useMemo(
    () => (issues ?? []).filter((i) => i.path !== 'effectiveFrom'),
    [issues],
  );
  const { atFields, others } = splitIssues(objects, fieldIssues);
  const atInputs = atFields.filter((i) => editablePaths(objects, [i.path]).length > 0);
  const listed = [...others, ...atFields.filter((i) => !atInputs.includes(i))];
  const { showServerIssues } = form;
  useEffect(() => {
    if (!fieldIssues.length) return;
    const shown = splitIssues(objects, fieldIssues).atFields;
    showServerIssues(shown.filter((i) => editablePaths(objects, [i.path]).length > 0));
    // Once per answer of the service (the issues come from the machine's context).
  }, [fieldIssues, objects, showServerIssues]);
  const effectiveFromIssue = issues?.find((i) => i.path === 'effectiveFrom')?.code;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = editablePaths(objects, form.revealAll());
    if (invalid.length) {
      focusField(invalid[0]!);
      return;
    }
    const patch = draftPatch(objects, stored, form.policyObjects);
    setUnchangedAt(patch.length ? null : form.values);
    if (patch.length) onSubmit(patch);
  };
  return (
    <FormDialog
      title={t('dialogs.draft_title', { number: policy.policyNumber })}
      busy={busy}
      wide
      onDismiss={onCancel}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-5" aria-busy={busy}>
        {objects.length === 0 ? (
          <p className="text-sm">{t('dialogs.draft_no_fields')}</p>
        ) : (
          <ApplicationFields
            accountIndex={accountIndex}
            form={form}
            disabled={busy}
            readOnly={isTermField}
          />
        )}
        <FixFieldsAlert form={form} />
        {listed.length ? (
          <AlertBar tone="danger" dismissible={false}>
            <ul className="list-disc pl-5">
              {listed.map((issue) => (
                <li key={`${issue.path} ${issue.code}`}>{texts.issueLine(objects, issue)}</li>
              ))}
            </ul>
          </AlertBar>
        ) : null}
        <DateInput
          label={t('fields.effective_from')}
          hint={t('fields.effective_from_hint')}
          value={effectiveFrom}
          errors={effectiveFromIssue ? [t('refusals.effective_from_outside')] : undefined}
          disabled={busy}
          onChange={onEffectiveFrom}
        />
        {unchangedAt !== null && unchangedAt === form.values ? (
          <AlertBar tone="info" dismissible={false}>
            {t('dialogs.draft_unchanged')}
          </AlertBar>
        ) : null}
        {outcome?.notice}
        <DialogButtons busy={busy} submitLabel={t('actions.save_draft')} onCancel={onCancel} />
      </form>
    </FormDialog>
  );
}
