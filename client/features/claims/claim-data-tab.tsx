import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  deleteClaim,
  moveClaim,
  updateClaim,
  type Claim,
  type ClaimFieldsBody,
} from '#client/api/claims-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { Button } from '#client/ui/button.tsx';
import { RecordEditForm } from '#client/entities/record/record-edit-form.tsx';
import { useFocusFirstInvalid } from '#client/ui/form/use-focus-first-invalid.ts';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { useCustomValueText } from '#client/ui/form/custom-value.ts';
import { formatDate, formatDateTime } from '#client/ui/form/dates.ts';
import { usePersonName } from '#client/entities/person/person-name.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useStatusMove } from '#client/ui/status-move.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import type { LoadState } from '#client/ui/load-state.ts';
import { useVersionedSave } from '#client/entities/record/use-record-edit.ts';
import { canEditClaim, isoToday } from '#common/claims.ts';
import { ClaimFields, useClaimFieldLabel } from './claim-fields.tsx';
import { CancelClaim, holdsMoney } from './cancel-claim.tsx';
import {
  CLAIM_FIELDS,
  claimChangesOf,
  conflictRows,
  serverFieldErrors,
  validateClaim,
  valuesOf,
  type ClaimField,
  type ClaimValues,
} from './claim-form.ts';
import type { ClaimTabProps, ClaimWorkflow } from './claim-page.tsx';
import {
  currentClaimOf,
  followRefusal,
  useClaimRefusal,
  useDialogRefusal,
} from './claim-refusal.ts';
import { claimRules, movesByName } from './claim-workflow.ts';
import { useClaimAbilities } from './use-claim-abilities.ts';
import { useClaimFormContext, type ClaimFormContext } from './use-claim-form-context.ts';

const dl = 'grid grid-cols-[minmax(10rem,max-content)_1fr] gap-x-6 gap-y-2 text-sm';

/**
 * The claim's data: its status and the moves the tenant's rules allow from it (behind the confirm
 * dialog), its fields (a form that saves on top of the version it loaded, with the conflict
 * panel; read-only without the permission or once the claim is closed), and deleting it.
 */
export function ClaimDataTab(
  props: ClaimTabProps & { workflow: LoadState<ClaimWorkflow>; onRetryWorkflow: () => void },
) {
  const { t } = useTranslation('claims');
  const { claim } = props;
  const { accountIndex, canUpdate, canDelete } = useClaimAbilities();
  const { state, context, retry } = useClaimFormContext(accountIndex);
  const editable = canEditClaim(claim.status);
  const savedBy = usePersonName(claim.updatedBy);

  return (
    <div className="flex max-w-3xl flex-col gap-8">
      {canUpdate ? <StatusMove {...props} /> : null}
      <section aria-labelledby="claim-data" className="flex flex-col gap-4">
        <h2 id="claim-data" className="text-lg font-semibold text-slate-900">
          {t('data.title')}
        </h2>
        {state === 'loading' ? <Spinner label={t('loading')} /> : null}
        {state === 'failed' ? (
          <RetryAlert
            message={t('errors.form_context_failed')}
            retryLabel={t('actions.retry')}
            onRetry={retry}
          />
        ) : null}
        {context && canUpdate && editable ? <ClaimEditForm {...props} context={context} /> : null}
        {context && !(canUpdate && editable) ? (
          <>
            <p className="text-sm text-slate-700" data-testid="read-only-note">
              {canUpdate ? t('data.closed_note') : t('data.read_only')}
            </p>
            <ClaimView claim={claim} context={context} />
          </>
        ) : null}
        <p className="text-xs text-slate-600" data-testid="claim-version" title={savedBy.title}>
          {t('data.audit', {
            version: claim.version,
            at: formatDateTime(claim.updatedAt),
            by: savedBy.label,
          })}
        </p>
      </section>
      {/* Money is never deleted: a claim holding some is cancelled with a reason instead. */}
      {holdsMoney(claim) ? (
        canUpdate && editable ? (
          <CancelClaim {...props} />
        ) : null
      ) : canDelete ? (
        <DeleteClaim {...props} />
      ) : null}
    </div>
  );
}

/**
 * The moves the rules allow from the claim's status, one chosen and confirmed, driven by
 * `statusMoveMachine` as a lead's moves are: a refusal (403, 404, 409) brings the page to the claim
 * as it is and says why in the dialog; a failure without an answer may be confirmed again.
 */
function StatusMove({
  claim,
  onChanged,
  onReload,
  statusName,
  workflow,
  onRetryWorkflow,
}: ClaimTabProps & { workflow: LoadState<ClaimWorkflow>; onRetryWorkflow: () => void }) {
  const { t, i18n } = useTranslation('claims');
  const { accountIndex } = useClaimAbilities();
  const toast = useToast();
  const reason = useClaimRefusal(statusName);
  const selectId = useId();
  const [chosen, setChosen] = useState('');
  const selectRef = useRef<HTMLSelectElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The move's call reads the claim as shown when it runs, not as it was when the hook began.
  const shown = useRef(claim);
  useEffect(() => {
    shown.current = claim;
  });
  const rules = useMemo(
    () => (workflow.kind === 'ready' ? claimRules(workflow.value.rules) : null),
    [workflow],
  );
  const statusMove = useStatusMove({
    status: claim.status,
    rules,
    move: async (to) => {
      const current = shown.current;
      const moved = await moveClaim(accountIndex, current.code, to, current.version);
      onChanged(moved);
      return moved.status;
    },
    onMoved: (to) => {
      setChosen('');
      toast({ message: t('messages.status_changed', { status: statusName(to) }), tone: 'success' });
    },
    // The submit button the dialog returns focus to is disabled by the reset choice: the choice
    // of the next status takes focus, or the heading when the new status has no moves.
    focusAfterMove: () => selectRef.current ?? headingRef.current,
    // The claim a 409 carries (or the reload after a 404) is shown behind the dialog.
    onRefused: (_, error) => followRefusal(error, onChanged, onReload),
    reason: (_, error, to) => reason(error, to),
    dialog: (to) => ({
      title: t('move.title', { status: statusName(to) }),
      message: t('move.message', {
        number: shown.current.claimNumber,
        from: statusName(shown.current.status),
        to: statusName(to),
      }),
      confirmLabel: t('move.confirm', { status: statusName(to) }),
      tone: to === 'rejected' ? 'danger' : 'primary',
    }),
  });
  const statuses = workflow.kind === 'ready' ? workflow.value.statuses : [];
  const moves = movesByName(statusMove.allowed, statuses, i18n.language);
  // A choice that is no longer a move (the claim moved meanwhile) is no choice.
  const target = moves.some((m) => m.slug === chosen) ? chosen : '';

  return (
    <section aria-labelledby="claim-status-move" className="flex flex-col gap-2">
      <h2
        id="claim-status-move"
        ref={headingRef}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900"
      >
        {t('move.heading')}
      </h2>
      {workflow.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {workflow.kind === 'failed' ? (
        <RetryAlert
          message={t('errors.statuses_failed')}
          retryLabel={t('actions.retry')}
          onRetry={onRetryWorkflow}
        />
      ) : null}
      {workflow.kind === 'ready' && moves.length === 0 ? (
        <p className="text-sm text-slate-700">
          {t('move.none', { status: statusName(claim.status) })}
        </p>
      ) : null}
      {moves.length ? (
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            if (target) statusMove.choose(target);
          }}
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
              {t('move.label')}
            </label>
            <select
              ref={selectRef}
              id={selectId}
              value={target}
              onChange={(event) => setChosen(event.target.value)}
              className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
            >
              <option value="">{t('move.placeholder')}</option>
              {moves.map((m) => (
                <option key={m.slug} value={m.slug}>
                  {m.name}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={!target}>
            {t('move.submit')}
          </Button>
        </form>
      ) : null}
      {statusMove.dialog}
    </section>
  );
}

/** The policy's first day in the workspace's days, when the policy was read. */
function policyStartOf(policy: ClaimTabProps['policy'], timeZone: string): string | null {
  if (policy.kind !== 'ready' || !policy.value?.policyStartDate) return null;
  return isoToday(timeZone, new Date(policy.value.policyStartDate));
}

function ClaimEditForm({
  claim,
  onChanged,
  onReload,
  policy,
  context,
}: ClaimTabProps & { context: ClaimFormContext }) {
  const { t } = useTranslation('claims');
  const { accountIndex } = useClaimAbilities();
  const label = useClaimFieldLabel();
  const customFields = context.custom.fields;
  const customLabel = useCallback(
    (name: string) => customFields.find((field) => field.name === name)?.label || name,
    [customFields],
  );
  const form = useVersionedSave({
    record: claim,
    valuesOf,
    validate: (values: ClaimValues) =>
      validateClaim(values, {
        today: context.today(),
        policyStart: policyStartOf(policy, context.timeZone),
        customSchema: context.custom.schema,
      }),
    // Only the fields this user changed, on top of the version the form built on.
    send: (input: ClaimFieldsBody, version, changed) =>
      updateClaim(accountIndex, claim.code, {
        ...claimChangesOf(
          input,
          changed,
          context.custom.fields.map((field) => field.name),
        ),
        version,
      }),
    // Custom fields under their labels in the reader's language, as the form shows them.
    conflictRows: (loaded: Claim, mine: ClaimValues, saved: Claim) =>
      conflictRows(loaded, mine, saved, customLabel),
    conflictOf: (error) =>
      error instanceof ApiError && error.code === 'version_conflict' ? currentClaimOf(error) : null,
    ...useSaveOutcome({
      fieldErrors: (error) => serverFieldErrors(error, CLAIM_FIELDS),
      failure: (error) => {
        const current = currentClaimOf(error);
        // Closed meanwhile: the page shows the claim as it is, read-only.
        if (current) {
          onChanged(current);
          return t('errors.claim_closed');
        }
        return t('forms.messages.error');
      },
      onSaved: onChanged,
      savedMessage: () => t('messages.saved'),
    }),
  });
  const { base, setBase, values, busy } = form;
  const formRef = useFocusFirstInvalid(form.errors, busy);

  // A newer claim from the page (this user moved its status): the form builds on it. What is
  // typed stays; an untouched form shows the newer fields.
  // In an effect: the form's state lives in its statechart, which must not change in a render.
  const seen = useRef(claim);
  useEffect(() => {
    if (claim === seen.current) return;
    seen.current = claim;
    if (claim.version > base.version) {
      const untouched = JSON.stringify(values) === JSON.stringify(valuesOf(base));
      if (untouched) form.loadSaved(claim);
      else if (!conflictRows(base, values, claim).length) setBase(claim);
    }
  }, [claim, base, values, form, setBase]);

  const shown = (field: ClaimField, value: string) => {
    if (value === '') return t('values.empty');
    if (field === 'claimType') return t(`types.${value as 'damage'}`);
    if (field === 'damageDate' || field === 'notificationDate') return formatDate(value) || value;
    return value;
  };

  return (
    <RecordEditForm
      form={form}
      translate={(key, v) => t(key, v)}
      label={label}
      shown={shown}
      onLoadSaved={onChanged}
      ariaLabel={t('data.form')}
      submitLabel={busy ? t('actions.saving') : t('actions.save')}
      formRef={formRef}
      actions={
        <Button variant="secondary" disabled={busy} onClick={onReload}>
          {t('actions.reload')}
        </Button>
      }
    >
      <ClaimFields form={form} customFields={context.custom.fields} />
    </RecordEditForm>
  );
}

/** The claim's fields to read: custom fields by their label, in the schema's order. */
function ClaimView({ claim, context }: { claim: Claim; context: ClaimFormContext }) {
  const { t, i18n } = useTranslation('claims');
  const label = useClaimFieldLabel();
  const text = (value: unknown): string => {
    if (value === undefined || value === null || value === '') return t('values.empty');
    if (typeof value === 'boolean') return value ? t('values.yes') : t('values.no');
    if (typeof value === 'number') return new Intl.NumberFormat(i18n.language).format(value);
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  // Custom values by their field's type: lists, yes/no, dates in the tenant's display.
  const shown = useCustomValueText();
  const fields = context.custom.fields;
  const names = [
    ...fields.map((f) => f.name),
    ...Object.keys(claim.customFields).filter((name) => !fields.some((f) => f.name === name)),
  ];
  return (
    <dl className={dl} data-testid="claim-fields">
      <dt className="font-medium text-slate-800">{label('title')}</dt>
      <dd>{claim.title}</dd>
      <dt className="font-medium text-slate-800">{label('claimType')}</dt>
      <dd>{t(`types.${claim.claimType}`)}</dd>
      <dt className="font-medium text-slate-800">{label('damageDate')}</dt>
      <dd>{formatDate(claim.damageDate)}</dd>
      <dt className="font-medium text-slate-800">{label('notificationDate')}</dt>
      <dd>{formatDate(claim.notificationDate)}</dd>
      <dt className="font-medium text-slate-800">{label('description')}</dt>
      <dd className="whitespace-pre-line">{text(claim.description)}</dd>
      {names.map((name) => (
        <div key={name} className="contents">
          <dt className="font-medium text-slate-800">
            {fields.find((f) => f.name === name)?.label ?? name}
          </dt>
          <dd>
            {shown(
              claim.customFields[name],
              fields.find((f) => f.name === name),
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Deletes the claim with all that hangs on it, on top of the version shown. */
function DeleteClaim({ claim, onChanged, onReload, statusName }: ClaimTabProps) {
  const { t } = useTranslation('claims');
  const { accountIndex } = useClaimAbilities();
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const refused = useDialogRefusal({ onChanged, onReload, statusName });
  const remove = () =>
    void confirm({
      title: t('delete.title', { number: claim.claimNumber }),
      message: t('delete.message', { number: claim.claimNumber }),
      confirmLabel: t('delete.confirm'),
      tone: 'danger',
      action: () => deleteClaim(accountIndex, claim.code, claim.version).catch(refused()),
    }).then((done) => {
      if (!done) return;
      toast({ message: t('messages.deleted', { number: claim.claimNumber }), tone: 'success' });
      void navigate(`/u/${accountIndex}/claims`, { replace: true });
    });
  return (
    <section aria-labelledby="claim-delete" className="flex flex-col items-start gap-2">
      <h2 id="claim-delete" className="text-lg font-semibold text-slate-900">
        {t('delete.heading')}
      </h2>
      <p className="text-sm text-slate-700">{t('delete.hint')}</p>
      <Button variant="danger" onClick={remove}>
        {t('delete.button')}
      </Button>
    </section>
  );
}
