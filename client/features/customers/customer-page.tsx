import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { getAccount } from '#client/api/accounts-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { isNotFound, useLoad } from '#client/ui/use-load.ts';
import { CustomerDataForm } from './customer-data-form.tsx';
import { displayNameOf } from './customer-form.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

// Policies, leads, invoices and documents arrive with their services; the tabs exist already so
// that links to them (#tab=policies) keep working.
const LATER_TABS = ['policies', 'leads', 'invoices', 'documents'] as const;

/** One customer by code: the data (editable with the update permission) and the tabs of the spec. */
export default function CustomerPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { customerCode = '' } = useParams();
  const abilities = useCustomerAbilities();
  const { accountIndex } = abilities;
  const load = useCallback(
    (signal: AbortSignal) => getAccount(accountIndex, customerCode, signal).then((r) => r.account),
    [accountIndex, customerCode],
  );
  const { state: loaded, retry, replace } = useLoad(load, 'customer');
  const missing = isNotFound(loaded);
  usePageTitle(loaded.kind === 'ready' ? displayNameOf(loaded.value) : t('detail.title'));

  return (
    <div className="flex flex-col gap-6">
      <Link
        to={`/u/${accountIndex}/customers`}
        className="self-start text-sm text-blue-800 underline-offset-2 hover:underline"
      >
        {t('detail.back')}
      </Link>
      {loaded.kind === 'loading' ? <Spinner label={t('common:status.loading')} /> : null}
      {missing ? (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{t('detail.title')}</h1>
          <AlertBar tone="warning" dismissible={false}>
            {t('detail.not_found')}
          </AlertBar>
        </>
      ) : null}
      {loaded.kind === 'failed' && !missing ? (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{t('detail.title')}</h1>
          <AlertBar tone="danger" dismissible={false}>
            {t('forms.messages.error')}
          </AlertBar>
          <Button variant="secondary" className="self-start" onClick={retry}>
            {t('actions.retry')}
          </Button>
        </>
      ) : null}
      {loaded.kind === 'ready' ? (
        <>
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-bold text-slate-900">{displayNameOf(loaded.value)}</h1>
            <p className="text-sm text-slate-700">
              {t('detail.subtitle', {
                number: loaded.value.accountNumber,
                type: t(`types.${loaded.value.type}`),
              })}
            </p>
          </div>
          <HashTabs
            id="tab"
            label={t('tabs.label')}
            tabs={[
              {
                id: 'data',
                label: t('tabs.data'),
                content: (
                  <CustomerDataForm
                    key={loaded.value.code}
                    account={loaded.value}
                    abilities={abilities}
                    onSaved={replace}
                  />
                ),
              },
              ...LATER_TABS.map((tab) => ({
                id: tab,
                label: t(`tabs.${tab}`),
                content: (
                  <p className="py-6 text-sm text-slate-700" data-testid={`empty-${tab}`}>
                    {t(`empty.${tab}`)}
                  </p>
                ),
              })),
            ]}
          />
        </>
      ) : null}
    </div>
  );
}
