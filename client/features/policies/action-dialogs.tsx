import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { terminationDateRefusal } from '#common/policy-lifecycle.ts';
import { timesliceAt } from '#common/policy-timeline.ts';
import type { Policy, PolicyVersion } from '#client/api/policies-client.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { CustomFormFields } from '#client/ui/form/custom-form-fields.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { DateInput, TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { formatUtcDate } from '#client/ui/policy-display.ts';
import {
  checkDraft,
  draftSections,
  errorsOfIssues,
  initialValues,
  type DraftCheck,
  type ObjectValues,
} from './draft-form.ts';
import { valueText } from './tariff-labels.ts';

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

/** Today in UTC as an ISO day: the policies' dates are UTC days. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

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

export const initialEndValues = (): EndValues => ({ terminationDate: todayUtc(), reason: '' });

/**
 * The end of a policy: terminate (from a date within the contract, checked here as the service
 * checks it) or withdraw (void from the start); both with an optional reason.
 */
export function EndPolicyDialog({
  kind,
  policy,
  busy,
  outcome,
  values,
  onChange,
  onSubmit,
  onCancel,
}: DialogProps & {
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

export interface DraftValues {
  objects: Record<string, ObjectValues>;
  effectiveFrom: string;
}

/**
 * The draft's policy objects, a simple form per field type (the rich application form comes
 * later). It edits the data in force today and sends only what changed, from a day on when
 * "effective from" is given, else for the whole timeline.
 */
export function DraftDialog({
  policy,
  draft,
  tariff,
  busy,
  outcome,
  values,
  onChange,
  onSubmit,
  onCancel,
}: DialogProps & {
  draft: PolicyVersion;
  tariff: readonly InsuredObject[];
  values: DraftValues;
  onChange: (values: DraftValues) => void;
  onSubmit: (check: DraftCheck) => void;
}) {
  const { t, i18n } = useTranslation('policies');
  const slice = timesliceAt(draft.timeline, new Date());
  const sections = draftSections(slice?.policyObjects ?? [], tariff);
  const [checked, setChecked] = useState<{ errors: FieldErrors; nothing: boolean } | null>(null);
  const serverErrors = errorsOfIssues(
    sections,
    (outcome?.issues ?? []).filter((i) => i.path !== 'effectiveFrom'),
  );
  const errors = checked?.errors ?? serverErrors;
  const effectiveFromIssue = outcome?.issues.find((i) => i.path === 'effectiveFrom')?.code;
  const texts = { language: i18n.language, yes: t('values.yes'), no: t('values.no') };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkDraft(sections, values.objects);
    const nothing = Object.keys(check.errors).length === 0 && check.patch.length === 0;
    setChecked({ errors: check.errors, nothing });
    if (Object.keys(check.errors).length === 0 && !nothing) onSubmit(check);
  };
  return (
    <FormDialog
      title={t('dialogs.draft_title', { number: policy.policyNumber })}
      busy={busy}
      wide
      onDismiss={onCancel}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-5" aria-busy={busy}>
        {sections.length === 0 ? <p className="text-sm">{t('dialogs.draft_no_fields')}</p> : null}
        {sections.map((section) => {
          const { object } = section;
          const own = values.objects[object.code] ?? initialValues(section);
          const prefix = `${object.insuredObjectName}.`;
          return (
            <fieldset key={object.code} className="flex flex-col gap-3">
              <legend className="mb-1 font-semibold text-slate-900">
                {object.insuredObjectLabel || object.insuredObjectName}
              </legend>
              {section.readOnly.length ? (
                <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
                  {section.readOnly.map((field) => (
                    <div key={field.name} className="contents">
                      <dt className="text-slate-700">{field.label}</dt>
                      <dd>{valueText(field.value, field.type, texts)}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              <CustomFormFields
                fields={section.editable}
                values={own}
                errors={Object.fromEntries(
                  Object.entries(errors)
                    .filter(([path]) => path.startsWith(prefix))
                    .map(([path, list]) => [path.slice(prefix.length), list]),
                )}
                disabled={busy}
                onChange={(name, value) => {
                  setChecked(null);
                  onChange({
                    ...values,
                    objects: { ...values.objects, [object.code]: { ...own, [name]: value } },
                  });
                }}
              />
            </fieldset>
          );
        })}
        <DateInput
          label={t('fields.effective_from')}
          hint={t('fields.effective_from_hint')}
          value={values.effectiveFrom}
          errors={effectiveFromIssue ? [t('refusals.effective_from_outside')] : undefined}
          disabled={busy}
          onChange={(effectiveFrom) => onChange({ ...values, effectiveFrom })}
        />
        {checked?.nothing ? (
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
