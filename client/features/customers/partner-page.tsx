import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { getPartner } from '#client/api/partners-client.ts';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

/**
 * One partner by code (read-only, like the list): number, type, tags, the customer account it
 * is, and when it was made and changed. The customer link needs the customer permission.
 */
export default function PartnerPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { partnerCode = '' } = useParams();
  const { accountIndex, canView } = useCustomerAbilities();
  const load = useCallback(
    (signal: AbortSignal) => getPartner(accountIndex, partnerCode, signal).then((r) => r.partner),
    [accountIndex, partnerCode],
  );
  const { state, retry } = useLoad(load, 'partner');
  usePageTitle(state.kind === 'ready' ? state.value.displayName : t('partner.title'));

  return (
    <div className="flex flex-col gap-6">
      <Link
        to={`/u/${accountIndex}/partners`}
        className="self-start text-sm text-blue-800 underline-offset-2 hover:underline"
      >
        {t('partner.back')}
      </Link>
      {state.kind === 'loading' ? <Spinner label={t('common:status.loading')} /> : null}
      {state.kind === 'failed' ? (
        <LoadProblem
          error={state.error}
          title={t('partner.title')}
          notFound={t('partner.not_found')}
          failed={t('forms.messages.error')}
          onRetry={retry}
        />
      ) : null}
      {state.kind === 'ready' ? (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{state.value.displayName}</h1>
          <dl className="grid max-w-2xl grid-cols-[12rem_1fr] gap-x-6 gap-y-3 text-sm">
            <dt className="font-medium text-slate-700">{t('columns.partner_number')}</dt>
            <dd>{state.value.partnerNumber}</dd>
            <dt className="font-medium text-slate-700">{t('columns.partner_type')}</dt>
            <dd>{state.value.partnerType?.name ?? '—'}</dd>
            <dt className="font-medium text-slate-700">{t('columns.tags')}</dt>
            <dd>{(state.value.tags ?? []).map((g) => g.label).join(', ') || '—'}</dd>
            <dt className="font-medium text-slate-700">{t('partner.account')}</dt>
            <dd>
              {state.value.accountCode && canView ? (
                <Link
                  className="text-blue-800 underline"
                  to={`/u/${accountIndex}/customers/${state.value.accountCode}`}
                >
                  {state.value.accountCode}
                </Link>
              ) : (
                (state.value.accountCode ?? '—')
              )}
            </dd>
            <dt className="font-medium text-slate-700">{t('columns.created')}</dt>
            <dd>{formatDateTime(state.value.createdAt)}</dd>
            <dt className="font-medium text-slate-700">{t('partner.updated')}</dt>
            <dd>{formatDateTime(state.value.updatedAt)}</dd>
          </dl>
        </>
      ) : null}
    </div>
  );
}
