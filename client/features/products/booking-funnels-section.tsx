import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePersonNames } from '#client/entities/person/person-name.ts';
import { deleteBookingFunnel, type BookingFunnel } from '#client/api/product-extras-client.ts';
import type { Product } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { BookingFunnelDialog } from './booking-funnel-dialog.tsx';
import { TableHead, useDeleteTexts, useFailureMessage } from './page-parts.tsx';
import { RowButton } from '#client/ui/row-button.tsx';

const cell = 'py-2 pr-4 align-top';

/** The steps of a funnel as a list: step titles with the fields they ask for. */
function StepList({ steps }: { steps: BookingFunnel['steps'] }) {
  return (
    <ol className="list-decimal pl-5 text-sm">
      {steps.map((step, index) => (
        <li key={index}>
          <span className="font-medium">{step.title}</span>:{' '}
          {step.fields.map((f) => `${f.insuredObject}.${f.field}`).join(', ')}
        </li>
      ))}
    </ol>
  );
}

/** The saved versions of a funnel; one chosen shows its snapshot. */
function FunnelVersionsDialog({
  accountIndex,
  funnel,
  onClose,
}: {
  accountIndex: number;
  funnel: BookingFunnel;
  onClose: () => void;
}) {
  const { t } = useTranslation('products');
  const nameOf = usePersonNames();
  const [chosen, setChosen] = useState(funnel.version);
  const state = loadStateOf(
    useQuery(productQueries.bookingFunnelVersion(accountIndex, funnel.code, chosen)),
  );
  return (
    <FormDialog
      title={t('funnels.versions_named', { name: funnel.name })}
      busy={false}
      onDismiss={onClose}
      wide
    >
      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap gap-2" role="group" aria-label={t('funnels.history')}>
          {funnel.versions.map((entry) => (
            <Button
              key={entry.version}
              variant={entry.version === chosen ? 'primary' : 'secondary'}
              aria-pressed={entry.version === chosen}
              onClick={() => setChosen(entry.version)}
            >
              {t('funnels.view_version', { version: entry.version })}
            </Button>
          ))}
        </div>
        {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
        {state.kind === 'failed' ? (
          <AlertBar tone="danger" dismissible={false}>
            {t('funnels.version_failed')}
          </AlertBar>
        ) : null}
        {state.kind === 'ready' ? (
          <section
            aria-label={t('funnels.version_of', {
              name: state.value.name,
              version: state.value.version,
            })}
          >
            <h3 className="font-semibold text-slate-900">
              {t('funnels.version_of', { name: state.value.name, version: state.value.version })}
            </h3>
            <p className="text-sm text-slate-700">
              {t('funnels.saved_at', {
                date: formatDateTime(state.value.createdAt),
                by: nameOf(state.value.createdBy).label,
              })}
            </p>
            <StepList steps={state.value.steps} />
          </section>
        ) : null}
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            {t('factors.close')}
          </Button>
        </div>
      </div>
    </FormDialog>
  );
}

/**
 * The booking funnels of a product (spec: created, patched, replaced and deleted by code): list,
 * new, edit (each save a new version), delete, and the saved versions.
 */
export function BookingFunnelsSection({
  accountIndex,
  product,
  canEdit,
}: {
  accountIndex: number;
  product: Product;
  canEdit: boolean;
}) {
  const { t } = useTranslation('products');
  const confirm = useConfirm();
  const toast = useToast();
  const failureMessage = useFailureMessage();
  const deleteTexts = useDeleteTexts();
  const [editing, setEditing] = useState<{ funnel: BookingFunnel | null } | null>(null);
  const [history, setHistory] = useState<BookingFunnel | null>(null);
  const queryClient = useQueryClient();
  const funnels = productQueries.bookingFunnels(accountIndex, product.id);
  const query = useQuery(funnels);
  const state = loadStateOf(query);
  const retry = () => void query.refetch();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: funnels.queryKey });
  const versionNumber = (id: number | null) =>
    id === null
      ? t('funnels.sells_active')
      : t('funnels.sells_version', {
          version: product.versions?.find((v) => v.id === id)?.version ?? id,
        });

  const remove = (funnel: BookingFunnel) => {
    const { done, ...texts } = deleteTexts('funnels', { name: funnel.name });
    void confirm({
      ...texts,
      tone: 'danger',
      confirmLabel: t('actions.delete'),
      action: () =>
        deleteBookingFunnel(accountIndex, funnel.code).catch((error: unknown) => {
          throw new Error(failureMessage(error));
        }),
    }).then((confirmed) => {
      if (!confirmed) return;
      toast({ message: done, tone: 'success' });
      refresh();
    });
  };

  return (
    <section aria-labelledby="funnels-heading" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id="funnels-heading" className="text-lg font-semibold text-slate-900">
          {t('funnels.title')}
        </h2>
        {canEdit ? (
          <Button onClick={() => setEditing({ funnel: null })}>{t('funnels.add')}</Button>
        ) : null}
      </div>
      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <LoadProblem error={state.error} failed={t('funnels.load_failed')} onRetry={retry} />
      ) : null}
      {state.kind === 'ready' && state.value.length === 0 ? (
        <p className="text-sm text-slate-700">{t('funnels.empty')}</p>
      ) : null}
      {state.kind === 'ready' && state.value.length > 0 ? (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('funnels.table')}</caption>
          <TableHead
            columns={[
              t('funnels.name'),
              t('funnels.steps'),
              t('funnels.sells'),
              t('funnels.version'),
              t('columns.updated'),
              t('columns.actions'),
            ]}
          />
          <tbody>
            {state.value.map((funnel) => (
              <tr key={funnel.code} className="border-b border-slate-200">
                <td className={cell}>
                  {funnel.name}
                  <div className="text-xs text-slate-600">{funnel.code}</div>
                </td>
                <td className={cell}>
                  <StepList steps={funnel.steps} />
                </td>
                <td className={cell}>{versionNumber(funnel.productVersionId)}</td>
                <td className={cell}>{funnel.version}</td>
                <td className={cell}>{formatDateTime(funnel.updatedAt)}</td>
                <td className={`${cell} flex flex-wrap gap-1`}>
                  <RowButton
                    label={t('funnels.history')}
                    name={t('funnels.versions_named', { name: funnel.name })}
                    onClick={() => setHistory(funnel)}
                  />
                  {canEdit ? (
                    <>
                      <RowButton
                        label={t('actions.edit')}
                        name={t('funnels.edit_named', { name: funnel.name })}
                        onClick={() => setEditing({ funnel })}
                      />
                      <RowButton
                        label={t('actions.delete')}
                        name={t('funnels.delete_named', { name: funnel.name })}
                        onClick={() => remove(funnel)}
                      />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {editing ? (
        <BookingFunnelDialog
          accountIndex={accountIndex}
          product={product}
          funnel={editing.funnel}
          onClose={(name) => {
            setEditing(null);
            if (!name) return;
            toast({ message: t('funnels.saved', { name }), tone: 'success' });
            refresh();
          }}
        />
      ) : null}
      {history ? (
        <FunnelVersionsDialog
          accountIndex={accountIndex}
          funnel={history}
          onClose={() => setHistory(null)}
        />
      ) : null}
    </section>
  );
}
