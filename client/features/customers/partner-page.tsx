import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { partnerQueries } from '#client/api/partners-queries.ts';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink, RecordPage } from '#client/ui/record-page.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

/**
 * One partner by code (read-only, like the list): number, type, tags, the customer account it
 * is, and when it was made and changed. The customer link needs the customer permission.
 */
export default function PartnerPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { partnerCode = '' } = useParams();
  const { accountIndex, canView } = useCustomerAbilities();
  const query = useQuery(partnerQueries.detail(accountIndex, partnerCode));
  const state = loadStateOf(query);
  // A failed load asks again and shows loading until it answers.
  const retry = () => void query.refetch();
  usePageTitle(state.kind === 'ready' ? state.value.displayName : t('partner.title'));

  return (
    <RecordPage
      state={state}
      back={<BackLink to={`/u/${accountIndex}/partners`}>{t('partner.back')}</BackLink>}
      texts={{
        loading: t('common:status.loading'),
        title: t('partner.title'),
        notFound: t('partner.not_found'),
        failed: t('forms.messages.error'),
      }}
      onRetry={retry}
    >
      {(partner) => (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{partner.displayName}</h1>
          <dl className="grid max-w-2xl grid-cols-[12rem_1fr] gap-x-6 gap-y-3 text-sm">
            <dt className="font-medium text-slate-700">{t('columns.partner_number')}</dt>
            <dd>{partner.partnerNumber}</dd>
            <dt className="font-medium text-slate-700">{t('columns.partner_type')}</dt>
            <dd>{partner.partnerType?.name ?? '—'}</dd>
            <dt className="font-medium text-slate-700">{t('columns.tags')}</dt>
            <dd>{(partner.tags ?? []).map((g) => g.label).join(', ') || '—'}</dd>
            <dt className="font-medium text-slate-700">{t('partner.account')}</dt>
            <dd>
              {partner.accountCode && canView ? (
                <Link
                  className="text-blue-800 underline"
                  to={`/u/${accountIndex}/customers/${partner.accountCode}`}
                >
                  {partner.accountCode}
                </Link>
              ) : (
                (partner.accountCode ?? '—')
              )}
            </dd>
            <dt className="font-medium text-slate-700">{t('columns.created')}</dt>
            <dd>{formatDateTime(partner.createdAt)}</dd>
            <dt className="font-medium text-slate-700">{t('partner.updated')}</dt>
            <dd>{formatDateTime(partner.updatedAt)}</dd>
          </dl>
        </>
      )}
    </RecordPage>
  );
}
