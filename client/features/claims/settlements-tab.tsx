import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createSettlement,
  decidePayment,
  deleteSettlement,
  reversePayment,
  updateSettlement,
  type Settlement,
  type SettlementFieldsBody,
} from '#client/api/claims-client.ts';
import { claimQueries } from '#client/api/claims-queries.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { Button } from '#client/ui/button.tsx';
import { ConflictPanel } from '#client/entities/record/conflict-panel.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { NumberInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { useFocusFirstInvalid } from '#client/ui/form/use-focus-first-invalid.ts';
import { useMoneyFormat } from '#client/ui/money.ts';
import { RowButton } from '#client/ui/row-button.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useRecordSave } from '#client/entities/record/use-record-edit.ts';
import { canSettleClaim } from '#common/claims.ts';
import { useRouteAccount } from '#client/entities/person/person-name.ts';
import { serverFieldErrors } from './claim-form.ts';
import type { ClaimTabProps } from './claim-page.tsx';
import {
  currentClaimOf,
  followRefusal,
  useClaimRefusal,
  useDialogRefusal,
} from './claim-refusal.ts';
import { ReasonDialog } from './reason-dialog.tsx';
import {
  AMOUNT_FIELDS,
  insuredObjectsOf,
  settlementConflictRows,
  aboveReserveMessage,
  paymentErrors,
  remainingReserveOf,
  settlementValuesOf,
  validateSettlement,
  type AmountField,
  type SettlementField,
  type SettlementValues,
} from './settlement-form.ts';
import { PartsLoad, PartsTable, partCell } from './parts-table.tsx';
import { useClaimAbilities } from './use-claim-abilities.ts';

const cell = partCell;
const amountCell = `${cell} text-right tabular-nums`;

/**
 * The claim's settlements: per insured object of its policy a reserve, a payment and a recourse,
 * with the claim's totals below (the service sums them). Added, changed and deleted in a dialog
 * while the claim takes settlements (not when closed or rejected) and the user may update claims.
 *
 * Payment control (issue 15): a payment above the user's authority limit is saved as awaiting
 * approval and shown so in its row; another user holding the approval permission approves it
 * (then it counts as paid) or rejects it, each behind the confirm dialog. A settlement holding
 * money has no delete. A booked payment is never edited down: a holder of the reversal permission
 * reverses it (a counter-entry with a reason, shown under the payment with who and when).
 */
export function SettlementsTab(props: ClaimTabProps) {
  const { claim, policy, onChanged, onReload, statusName, objectTitle } = props;
  const { t } = useTranslation('claims');
  const money = useMoneyFormat();
  const confirm = useConfirm();
  const toast = useToast();
  const refused = useDialogRefusal({ onChanged, onReload, statusName });
  const { accountIndex, canUpdate, canApprovePayments, canReversePayments } = useClaimAbilities();
  const refusal = useClaimRefusal(statusName);
  const me = useRouteAccount()?.userCode;
  const writable = canUpdate && canSettleClaim(claim.status);
  const [dialog, setDialog] = useState<{ settlement: Settlement | null } | null>(null);
  const [reversing, setReversing] = useState<Settlement | null>(null);
  /** What of a settlement's booked payment is not reversed yet, in cents. */
  const reversible = (s: Settlement) => s.payment - (s.reversedPayment ?? 0);

  const queryClient = useQueryClient();
  const settlements = claimQueries.settlements(accountIndex, claim.code);
  const query = useQuery(settlements);
  const state = loadStateOf(query);
  const retry = () => void query.refetch();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: settlements.queryKey });

  // The policy's objects by name, titled in the reader's language; without the policy the names
  // stand for themselves.
  const objects = useMemo(
    () =>
      (policy.kind === 'ready' && policy.value ? insuredObjectsOf(policy.value) : []).map((o) => ({
        value: o.value,
        label: objectTitle(o.value),
      })),
    [policy, objectTitle],
  );
  const objectLabel = objectTitle;
  const { currency } = claim.totals;
  const amount = (cents: number) => money(cents / 100, currency);

  /** After a change: the list and the claim's totals as the service has them now. */
  const changed = () => {
    refresh();
    onReload();
  };

  const remove = (settlement: Settlement) =>
    void confirm({
      title: t('settlements.delete_title'),
      message: t('settlements.delete_message', { object: objectLabel(settlement.insuredObject) }),
      confirmLabel: t('settlements.delete_confirm'),
      tone: 'danger',
      action: () => deleteSettlement(accountIndex, settlement.code).catch(refused(refresh)),
    }).then((done) => {
      if (!done) return;
      toast({ message: t('settlements.deleted'), tone: 'success' });
      changed();
    });

  /** Approves or rejects the pending payment, on top of the version shown. */
  const decide = (settlement: Settlement, decision: 'approve' | 'reject') => {
    const object = objectLabel(settlement.insuredObject);
    const pending = amount(settlement.pendingPayment?.payment ?? 0);
    void confirm({
      title: t(`settlements.${decision}_title`),
      message: t(`settlements.${decision}_message`, { object, amount: pending }),
      confirmLabel: t(`settlements.${decision}_confirm`),
      tone: decision === 'reject' ? 'danger' : 'primary',
      action: () =>
        decidePayment(accountIndex, settlement.code, {
          version: settlement.version,
          decision,
        }).catch(refused(refresh)),
    }).then((done) => {
      if (!done) return;
      toast({
        message: t(decision === 'approve' ? 'settlements.approved' : 'settlements.rejected'),
        tone: 'success',
      });
      changed();
    });
  };

  return (
    <section aria-labelledby="claim-settlements" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="claim-settlements" className="text-lg font-semibold text-slate-900">
          {t('settlements.title')}
        </h2>
        {writable ? (
          <Button onClick={() => setDialog({ settlement: null })}>{t('settlements.add')}</Button>
        ) : null}
      </div>
      {canUpdate && !writable ? (
        <p className="text-sm text-slate-700" data-testid="settlements-note">
          {t('settlements.not_settleable', { status: statusName(claim.status) })}
        </p>
      ) : null}
      <PartsLoad state={state} onRetry={retry}>
        {(list) => (
          <PartsTable
            caption={t('settlements.caption', { number: claim.claimNumber })}
            testId="settlements"
            minWidth="min-w-[44rem]"
            columns={[
              { label: t('settlements.insured_object') },
              ...AMOUNT_FIELDS.map((field) => ({
                label: t(`settlements.${field}`),
                numeric: true,
              })),
              { label: t('settlements.updated') },
            ]}
            actionsLabel={writable ? t('settlements.actions') : null}
            empty={list.length === 0 ? t('settlements.empty') : null}
            footer={
              <tfoot className="border-t-2 border-slate-300 font-semibold">
                <tr data-testid="settlement-totals">
                  <th scope="row" className={cell}>
                    {t('settlements.totals')}
                  </th>
                  {AMOUNT_FIELDS.map((field) => (
                    <td key={field} className={amountCell}>
                      {amount(claim.totals[field])}
                    </td>
                  ))}
                  <td className={cell} colSpan={writable ? 2 : 1} />
                </tr>
              </tfoot>
            }
          >
            {list.map((s) => (
              <tr key={s.code} className="border-b border-slate-200">
                <td className={cell}>{objectLabel(s.insuredObject)}</td>
                {AMOUNT_FIELDS.map((field) => (
                  <td key={field} className={amountCell}>
                    {money(s[field] / 100, s.currency)}
                    {field === 'payment' && s.pendingPayment ? (
                      <PendingPayment
                        amount={money(s.pendingPayment.payment / 100, s.currency)}
                        object={objectLabel(s.insuredObject)}
                        mine={s.pendingPayment.requestedBy === me}
                        canDecide={canApprovePayments && canSettleClaim(claim.status)}
                        onDecide={(decision) => decide(s, decision)}
                      />
                    ) : null}
                    {field === 'payment' ? (
                      <PaymentReversal
                        settlement={s}
                        amount={(cents) => money(cents / 100, s.currency)}
                        object={objectLabel(s.insuredObject)}
                        canReverse={
                          canReversePayments &&
                          canSettleClaim(claim.status) &&
                          !s.pendingPayment &&
                          reversible(s) > 0
                        }
                        onReverse={() => setReversing(s)}
                      />
                    ) : null}
                  </td>
                ))}
                <td className={cell}>{formatDateTime(s.updatedAt)}</td>
                {writable ? (
                  <td className={`${cell} whitespace-nowrap text-right`}>
                    <span className="inline-flex gap-2">
                      <RowButton
                        label={t('settlements.edit')}
                        name={t('settlements.edit_named', {
                          object: objectLabel(s.insuredObject),
                        })}
                        onClick={() => setDialog({ settlement: s })}
                      />
                      {/* Money is never deleted: only a settlement without any may go. */}
                      {s.payment === 0 && s.recourse === 0 && !s.pendingPayment ? (
                        <RowButton
                          label={t('settlements.delete')}
                          name={t('settlements.delete_named', {
                            object: objectLabel(s.insuredObject),
                          })}
                          onClick={() => remove(s)}
                        />
                      ) : null}
                    </span>
                  </td>
                ) : null}
              </tr>
            ))}
          </PartsTable>
        )}
      </PartsLoad>
      {reversing ? (
        <ReasonDialog
          record={reversing}
          title={t('settlements.reverse_title')}
          message={t('settlements.reverse_message', {
            object: objectLabel(reversing.insuredObject),
            amount: amount(-reversible(reversing)),
          })}
          reasonLabel={t('settlements.reverse_reason')}
          submitLabel={t('settlements.reverse_confirm')}
          name="reversalReason"
          send={(reason, version) =>
            reversePayment(accountIndex, reversing.code, { version, reason })
          }
          refusal={(error) => {
            // The page follows (the claim a conflict carries, the list as it is now).
            followRefusal(error, onChanged, onReload);
            refresh();
            return refusal(error);
          }}
          onDone={(saved) => {
            setReversing(null);
            if (!saved) return;
            toast({ message: t('settlements.reversed'), tone: 'success' });
            changed();
          }}
        />
      ) : null}
      {dialog ? (
        <SettlementDialog
          {...props}
          settlement={dialog.settlement}
          objects={objects}
          onDone={(saved) => {
            setDialog(null);
            if (!saved) return;
            toast({
              message: t(saved.pendingPayment ? 'settlements.pending_saved' : 'settlements.saved'),
              tone: 'success',
            });
            changed();
          }}
        />
      ) : null}
    </section>
  );
}

/** Adds a settlement, or changes one on top of the version it showed (with the conflict panel). */
function SettlementDialog({
  claim,
  settlement,
  objects,
  onChanged,
  statusName,
  onDone,
}: ClaimTabProps & {
  settlement: Settlement | null;
  objects: { value: string; label: string }[];
  onDone: (saved: Settlement | null) => void;
}) {
  const { t, i18n } = useTranslation('claims');
  const money = useMoneyFormat();
  const refusal = useClaimRefusal(statusName);
  const { accountIndex } = useClaimAbilities();
  const language = i18n.language;
  const form = useRecordSave({
    record: settlement,
    valuesOf: (s: Settlement) => settlementValuesOf(s, language),
    // One insured object only: nothing to choose.
    emptyValues: () =>
      settlementValuesOf(null, language, objects.length === 1 ? objects[0]!.value : ''),
    validate: (values: SettlementValues) => {
      const checked = validateSettlement(values, language);
      if (!checked.ok) return checked;
      // The service's payment rules, with the reserve left in the user's money format.
      const errors = paymentErrors(checked.input, claim.status, settlement?.payment ?? 0, (cents) =>
        money(cents / 100, claim.totals.currency),
      );
      return errors ? { ok: false as const, errors } : checked;
    },
    send: (input: SettlementFieldsBody, version) =>
      settlement && version !== null
        ? updateSettlement(accountIndex, settlement.code, { ...input, version })
        : createSettlement(accountIndex, { ...input, claimCode: claim.code }),
    conflictRows: (loaded, mine, saved) => settlementConflictRows(loaded, mine, saved, language),
    conflictOf: (error) =>
      error instanceof ApiError && error.code === 'version_conflict'
        ? ((error.body as { settlement?: Settlement } | undefined)?.settlement ?? null)
        : null,
    ...useSaveOutcome({
      fieldErrors: (error) => {
        const remaining = remainingReserveOf(error);
        if (remaining === null)
          return serverFieldErrors(error, ['insuredObject', ...AMOUNT_FIELDS]);
        return { payment: [aboveReserveMessage(money(remaining / 100, claim.totals.currency))] };
      },
      failure: (error) => {
        const current = currentClaimOf(error);
        if (current) onChanged(current);
        return refusal(error);
      },
      onSaved: onDone,
    }),
  });
  const { values, setValues, errors, busy, failure, conflict } = form;
  const formRef = useFocusFirstInvalid(errors, busy);
  const set = (field: SettlementField, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));
  // The object a settlement names stays choosable even when the policy no longer has it.
  const options =
    values.insuredObject && !objects.some((o) => o.value === values.insuredObject)
      ? [...objects, { value: values.insuredObject, label: values.insuredObject }]
      : objects;
  const label = (field: SettlementField) =>
    field === 'insuredObject' ? t('settlements.insured_object') : t(`settlements.${field}`);

  return (
    <FormDialog
      title={settlement ? t('settlements.edit_title') : t('settlements.add_title')}
      busy={busy}
      onDismiss={() => onDone(null)}
    >
      <form
        ref={formRef}
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          form.save();
        }}
      >
        {conflict ? (
          <ConflictPanel
            translate={(key, v) => t(key, v)}
            conflict={conflict}
            label={label}
            shown={(field, value) =>
              field === 'insuredObject'
                ? (options.find((o) => o.value === value)?.label ?? value)
                : value || t('values.empty')
            }
            busy={busy}
            onLoadSaved={form.loadSaved}
            onOverwrite={form.overwrite}
            onMerge={form.merge}
            testIdPrefix="settlement-conflict"
          />
        ) : null}
        {options.length ? (
          <SelectInput
            name="insuredObject"
            label={label('insuredObject')}
            value={values.insuredObject}
            required
            disabled={busy}
            errors={errors.insuredObject}
            options={options}
            onChange={(value) => set('insuredObject', value)}
          />
        ) : (
          // Without the policy (no permission to read it) the object is named by hand.
          <TextInput
            name="insuredObject"
            label={label('insuredObject')}
            value={values.insuredObject}
            required
            disabled={busy}
            errors={errors.insuredObject}
            hint={t('settlements.insured_object_hint')}
            onChange={(value) => set('insuredObject', value)}
          />
        )}
        {AMOUNT_FIELDS.map((field: AmountField) => (
          <NumberInput
            key={field}
            name={field}
            label={label(field)}
            value={values[field]}
            disabled={busy}
            errors={errors[field]}
            hint={t('settlements.amount_hint', {
              example: money(1234.5, claim.totals.currency),
            })}
            onChange={(value) => set(field, value)}
          />
        ))}
        <FormDialogFooter
          failure={failure}
          onDismissFailure={form.dismissFailure}
          busy={busy}
          cancelLabel={t('actions.cancel')}
          submitLabel={t('actions.save')}
          busyLabel={t('actions.saving')}
          onCancel={() => onDone(null)}
        />
      </form>
    </FormDialog>
  );
}

/** A payment awaiting a second person: its amount, and the decision for those who may take it. */
function PendingPayment({
  amount,
  object,
  mine,
  canDecide,
  onDecide,
}: {
  amount: string;
  object: string;
  /** Requested by the signed-in user: another person decides (the service refuses the same). */
  mine: boolean;
  canDecide: boolean;
  onDecide: (decision: 'approve' | 'reject') => void;
}) {
  const { t } = useTranslation('claims');
  return (
    <div className="mt-1 flex flex-col items-end gap-1 font-normal" data-testid="pending-payment">
      <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
        {t('settlements.awaiting', { amount })}
      </span>
      {mine ? <span className="text-xs text-slate-700">{t('settlements.own_request')}</span> : null}
      {canDecide && !mine ? (
        <span className="inline-flex gap-2">
          <RowButton
            label={t('settlements.approve')}
            name={t('settlements.approve_named', { object })}
            onClick={() => onDecide('approve')}
          />
          <RowButton
            label={t('settlements.reject')}
            name={t('settlements.reject_named', { object })}
            onClick={() => onDecide('reject')}
          />
        </span>
      ) : null}
    </div>
  );
}

/**
 * Under a booked payment: its latest reversal (the counter-entry, who, when and why), and the
 * action that reverses what is left of it for those who may.
 */
function PaymentReversal({
  settlement,
  amount,
  object,
  canReverse,
  onReverse,
}: {
  settlement: Settlement;
  amount: (cents: number) => string;
  object: string;
  canReverse: boolean;
  onReverse: () => void;
}) {
  const { t } = useTranslation('claims');
  const reversal = settlement.paymentReversal;
  if (!reversal && !canReverse) return null;
  return (
    <div className="mt-1 flex flex-col items-end gap-1 font-normal" data-testid="payment-reversal">
      {reversal ? (
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-800">
          {t('settlements.reversal_note', {
            amount: amount(reversal.payment),
            at: formatDateTime(reversal.at),
            by: reversal.byName ?? t('values.empty'),
            reason: reversal.reason,
          })}
        </span>
      ) : null}
      {canReverse ? (
        <RowButton
          label={t('settlements.reverse')}
          name={t('settlements.reverse_named', { object })}
          onClick={onReverse}
        />
      ) : null}
    </div>
  );
}
