import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { canPerform, restoreRefusal, type PolicyAction } from '#common/policy-lifecycle.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import type { Policy, PolicyVersion } from '#client/api/policies-client.ts';
import type { LifecycleError } from '#machines/policy-lifecycle.machine.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { ChangesTable } from '#client/ui/changes-table.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { policyStatusKey } from '#client/entities/policy/policy-status-badge.tsx';
import { formatUtcDate } from '#client/entities/policy/policy-display.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import {
  DraftDialog,
  EndPolicyDialog,
  initialEndValues,
  useDraftForm,
  type DialogOutcome,
} from './action-dialogs.tsx';
import { formulaRefusalText } from '#client/entities/product/formula-issue.ts';
import { formRefusalOf, policyChanges, refusalOf, type Refusal } from './policy-outcome.ts';
import { usePolicyLifecycle } from './use-policy-lifecycle.ts';

/** Actions whose input comes from a form; the others are a confirmation only. */
const FORM_ACTIONS: readonly PolicyAction[] = ['terminate', 'withdraw', 'patchDraft'];

const ACTION_LABEL = {
  terminate: 'actions.terminate',
  withdraw: 'actions.withdraw',
  restoreVersion: 'actions.restore',
  createDraft: 'actions.create_draft',
  patchDraft: 'actions.edit_draft',
  deleteDraft: 'actions.delete_draft',
  applyDraft: 'actions.apply_draft',
} as const satisfies Record<PolicyAction, string>;

const DONE_MESSAGE = {
  terminate: 'messages.terminated',
  withdraw: 'messages.withdrawn',
  restoreVersion: 'messages.restored',
  createDraft: 'messages.draft_created',
  patchDraft: 'messages.draft_saved',
  deleteDraft: 'messages.draft_deleted',
  applyDraft: 'messages.draft_applied',
} as const satisfies Record<PolicyAction, string>;

/**
 * The lifecycle actions of a policy detail screen: terminate, withdraw, restore an earlier
 * version, and create, edit, delete or apply a draft. A button appears only when
 * `common/policy-lifecycle` allows the action for the policy's status and draft and the user may
 * update policies. Each action runs through `policyLifecycleMachine`: a form where it needs input,
 * the shared confirm dialog, the call; then a toast (done), the conflict with what changed and a
 * reload, or the service's refusal translated.
 */
export function usePolicyActions({
  accountIndex,
  policy,
  tariff,
  canUpdate,
  onChanged,
}: {
  accountIndex: number;
  policy: Policy;
  /** The product version's insured objects with fields (the draft form); null when unknown. */
  tariff: readonly InsuredObject[] | null;
  canUpdate: boolean;
  onChanged: (policy: Policy) => void;
}) {
  const { t } = useTranslation(['policies', 'errors']);
  const { t: tErrors } = useTranslation('errors');
  const confirm = useConfirm();
  const toast = useToast();
  const { actor, state } = usePolicyLifecycle(accountIndex, policy, onChanged);
  const action = state.context.action;
  const idle = state.matches('idle');
  const busy = state.matches('submitting');

  // What the forms hold lives here, so that the confirmation in between and a refusal keep it.
  const [endValues, setEndValues] = useState(() => initialEndValues(policy));
  const draft = policy.versions?.find((v) => v.id === policy.draftVersionId) ?? null;
  const draftForm = useDraftForm(draft, tariff);
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [restoreTarget, setRestoreTarget] = useState<PolicyVersion | null>(null);
  // True while the confirm dialog asks: the form dialog steps aside (one modal at a time).
  const [asking, setAsking] = useState(false);
  // The refusal of a confirmation-only action, shown on the page after the machine moved on.
  const [pageNotice, setPageNotice] = useState<Refusal | null>(null);

  const lifecycleState = { status: policy.status, hasDraft: policy.draftVersionId !== null };
  const allowed = (a: PolicyAction) => canUpdate && canPerform(a, lifecycleState);
  const versionNumber = (id: number | null) =>
    policy.versions?.find((v) => v.id === id)?.versionNumber ?? 0;

  const choose = (next: PolicyAction, target: PolicyVersion | null = null) => {
    setPageNotice(null);
    setRestoreTarget(target);
    if (next === 'terminate' || next === 'withdraw') setEndValues(initialEndValues(policy));
    if (next === 'patchDraft') {
      draftForm.start();
      setEffectiveFrom('');
    }
    actor.send({ type: 'action.choose', action: next });
  };

  const confirmText = (a: PolicyAction, params: Record<string, unknown>) => {
    const number = policy.policyNumber;
    switch (a) {
      case 'terminate':
        return t('confirm.terminate', {
          number,
          date: formatUtcDate(String(params.terminationDate)),
        });
      case 'withdraw':
        return t('confirm.withdraw', { number });
      case 'restoreVersion':
        return t('confirm.restore', {
          number,
          version: restoreTarget?.versionNumber ?? '',
          next: versionNumber(policy.currentVersionId) + 1,
        });
      case 'createDraft':
        return t('confirm.create_draft', {
          number,
          version: versionNumber(policy.currentVersionId),
        });
      case 'patchDraft':
        return t('confirm.patch_draft', { number });
      case 'deleteDraft':
        return t('confirm.delete_draft', { number });
      case 'applyDraft':
        return t('confirm.apply_draft', { number, version: versionNumber(policy.draftVersionId) });
    }
  };

  /** The shared confirm dialog, then the machine submits (or the form comes back). */
  const confirmAndSubmit = async (a: PolicyAction, params: Record<string, unknown>) => {
    setAsking(true);
    const yes = await confirm({
      title: t(ACTION_LABEL[a]),
      message: confirmText(a, params),
      confirmLabel: t(ACTION_LABEL[a]),
      tone: ['terminate', 'withdraw', 'deleteDraft'].includes(a) ? 'danger' : 'primary',
    });
    setAsking(false);
    if (yes) actor.send({ type: 'action.confirm', params });
    // A form stays open to be changed or cancelled; a bare confirmation ends here.
    else if (!FORM_ACTIONS.includes(a)) actor.send({ type: 'action.cancel' });
  };

  // A confirmation-only action asks as soon as it is chosen.
  const asked = useRef<unknown>(null);
  const confirming = state.matches('confirming');
  useEffect(() => {
    if (!confirming || action === null || FORM_ACTIONS.includes(action)) return;
    if (asked.current === state.context) return;
    asked.current = state.context;
    if (state.context.error) {
      // The service refused the input of a bare confirmation (an unknown version): say so.
      setPageNotice(refusalOf(errorLike(state.context.error), action));
      actor.send({ type: 'action.cancel' });
      return;
    }
    void confirmAndSubmit(
      action,
      action === 'restoreVersion' ? { versionId: restoreTarget?.id } : {},
    );
    // Runs once per entry into `confirming` (guarded by `asked`).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [confirming, action, state.context]);

  // Done: a toast; the page already shows the policy the service answered.
  useEffect(() => {
    if (!state.matches('done') || action === null) return;
    toast({ message: t(DONE_MESSAGE[action], { number: policy.policyNumber }), tone: 'success' });
    actor.send({ type: 'action.dismiss' });
  }, [state, action, actor, toast, t, policy.policyNumber]);

  const outcomeRefusal: Refusal | null =
    state.matches('conflict') && state.context.conflict
      ? { kind: 'conflict', current: state.context.conflict as Policy }
      : state.matches('refused') || state.matches('failed')
        ? action
          ? refusalOf(errorLike(state.context.error), action)
          : { kind: 'failed' }
        : null;

  const reload = () => {
    const current = state.context.conflict as Policy | null;
    actor.send({ type: 'policy.reload' });
    if (current) onChanged(current);
  };
  const dismiss = () => actor.send({ type: 'action.dismiss' });
  const cancel = () => actor.send({ type: 'action.cancel' });
  const retry = () => actor.send({ type: 'action.retry' });

  const notice = (refusal: Refusal | null, onClose: () => void): ReactNode => {
    if (refusal === null) return null;
    if (refusal.kind === 'conflict') {
      return <ConflictNotice before={policy} after={refusal.current} onReload={reload} />;
    }
    if (refusal.kind === 'failed') {
      return (
        <AlertBar tone="danger" dismissible={false}>
          <p>{t('refusals.failed')}</p>
          {state.matches('failed') ? (
            <div className="mt-2 flex gap-2">
              <Button variant="secondary" onClick={retry}>
                {t('actions.retry')}
              </Button>
              <Button variant="ghost" onClick={cancel}>
                {t('actions.cancel')}
              </Button>
            </div>
          ) : null}
        </AlertBar>
      );
    }
    const text =
      refusal.kind === 'formula'
        ? (formulaRefusalText(tErrors, refusal.error) ?? t('refusals.failed'))
        : refusal.kind === 'issues'
          ? t('refusals.invalid')
          : refusal.kind === 'api'
            ? t(refusal.key)
            : refusal.key === 'refusals.illegal_status'
              ? t(refusal.key, { status: t(policyStatusKey(policy.status)) })
              : t(refusal.key);
    return (
      <AlertBar tone="danger" onDismiss={onClose}>
        {text}
      </AlertBar>
    );
  };

  // ---- what the screen shows ------------------------------------------------------------------

  const inForm = action !== null && FORM_ACTIONS.includes(action);
  const formOpen = inForm && !asking && !state.matches('idle') && !state.matches('done');
  // A refused submit goes back to the form: its issues at the fields, or one notice (a premium
  // formula that cannot be computed names itself there, not as "the value is invalid").
  const formRefusal =
    formOpen && action && state.matches('confirming')
      ? formRefusalOf(state.context.error, action)
      : null;
  const formOutcome: DialogOutcome | null = formOpen
    ? {
        issues: [...(formRefusal?.issues ?? [])],
        notice: formRefusal?.refusal
          ? notice(formRefusal.refusal, () => undefined)
          : notice(outcomeRefusal, dismiss),
      }
    : null;
  const closeForm = () => {
    if (state.matches('refused')) dismiss();
    else if (state.can({ type: 'action.cancel' })) cancel();
  };

  const button = (a: PolicyAction, variant: 'primary' | 'secondary' | 'danger' = 'secondary') =>
    allowed(a) ? (
      <Button key={a} variant={variant} disabled={!idle} onClick={() => choose(a)}>
        {t(ACTION_LABEL[a])}
      </Button>
    ) : null;

  const toolbar = canUpdate ? (
    <div className="flex flex-wrap items-center gap-2">
      {button('createDraft')}
      {button('withdraw')}
      {button('terminate', 'danger')}
    </div>
  ) : null;

  const draftPanel =
    draft && canUpdate ? (
      <div className="flex flex-wrap items-center gap-2">
        {button('patchDraft', 'primary')}
        {button('applyDraft')}
        {button('deleteDraft')}
      </div>
    ) : null;

  const restoreButton = (version: PolicyVersion) =>
    allowed('restoreVersion') && restoreRefusal(version) === null ? (
      <Button
        variant="secondary"
        disabled={!idle}
        aria-label={t('actions.restore_version', { version: version.versionNumber })}
        onClick={() => choose('restoreVersion', version)}
      >
        {t('actions.restore')}
      </Button>
    ) : null;

  const outlet = (
    <>
      {busy && !inForm ? <Spinner label={t('actions.saving')} /> : null}
      {!inForm ? notice(outcomeRefusal, dismiss) : null}
      {notice(pageNotice, () => setPageNotice(null))}
      {formOpen && (action === 'terminate' || action === 'withdraw') ? (
        <EndPolicyDialog
          accountIndex={accountIndex}
          kind={action}
          policy={policy}
          busy={busy}
          outcome={formOutcome}
          values={endValues}
          onChange={setEndValues}
          onSubmit={() =>
            void confirmAndSubmit(
              action,
              action === 'terminate' ? { ...endValues } : { reason: endValues.reason },
            )
          }
          onCancel={closeForm}
        />
      ) : null}
      {formOpen && action === 'patchDraft' && draft ? (
        <DraftDialog
          accountIndex={accountIndex}
          policy={policy}
          draft={draftForm}
          busy={busy}
          outcome={formOutcome}
          effectiveFrom={effectiveFrom}
          onEffectiveFrom={setEffectiveFrom}
          onSubmit={(patch) =>
            void confirmAndSubmit('patchDraft', {
              policyObjects: patch,
              effectiveFrom: effectiveFrom || null,
            })
          }
          onCancel={closeForm}
        />
      ) : null}
    </>
  );

  return { toolbar, draftPanel, restoreButton, outlet };
}

/** The machine's error record in the shape the refusal reader expects (an ApiError's fields). */
function errorLike(error: LifecycleError | null): ApiError | null {
  return error && new ApiError(error.status, error.code, error.message, { issues: error.issues });
}

/**
 * The conflict: somebody changed the policy since it was loaded; nothing was saved. Lists what
 * differs and offers to continue with the current policy.
 */
function ConflictNotice({
  before,
  after,
  onReload,
}: {
  before: Policy;
  after: Policy;
  onReload: () => void;
}) {
  const { t } = useTranslation('policies');
  const changes = policyChanges(before, after);
  const show = (field: string, value: unknown) => {
    if (value === null || value === undefined) return t('conflict.none');
    if (field === 'status') return t(policyStatusKey(value as Policy['status']));
    if (field === 'termination_date') return formatUtcDate(String(value));
    return t('detail.version_number', { version: value as number });
  };
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <p className="font-semibold">{t('conflict.title')}</p>
      <p>{t('conflict.message')}</p>
      {changes.length ? (
        <ChangesTable
          caption={t('conflict.caption')}
          headers={{
            field: t('conflict.field'),
            before: t('conflict.before'),
            after: t('conflict.now'),
          }}
          rows={changes.map((change) => ({
            id: change.field,
            label: t(`conflict.fields.${change.field}`),
            before: show(change.field, change.before),
            after: show(change.field, change.after),
          }))}
        />
      ) : (
        <p>{t('conflict.draft_changed')}</p>
      )}
      <div>
        <Button variant="secondary" onClick={onReload}>
          {t('conflict.reload')}
        </Button>
      </div>
    </div>
  );
}
