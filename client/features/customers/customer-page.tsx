import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '#client/api/fetch-json.ts';
import { getAccount, type Account } from '#client/api/accounts-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { CustomerDataForm } from './customer-data-form.tsx';
import { displayNameOf } from './customer-form.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

type Loaded =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'failed' }
  | { status: 'ready'; account: Account };

// Policies, leads, invoices and documents arrive with their services; the tabs exist already so
// that links to them (#tab=policies) keep working.
const LATER_TABS = ['policies', 'leads', 'invoices', 'documents'] as const;

/** One customer by code: the data (editable with the update permission) and the tabs of the spec. */
export default function CustomerPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { customerCode = '' } = useParams();
  const abilities = useCustomerAbilities();
  const { accountIndex } = abilities;
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  usePageTitle(loaded.status === 'ready' ? displayNameOf(loaded.account) : t('detail.title'));

  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    getAccount(accountIndex, customerCode, controller.signal)
      .then(({ account }) => setLoaded({ status: 'ready', account }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) {
          setLoaded({ status: 'missing' });
          return;
        }
        console.error('customer failed', error);
        setLoaded({ status: 'failed' });
      });
    return () => controller.abort();
  }, [accountIndex, customerCode, attempt]);

  return (
    <div className="flex flex-col gap-6">
      <Link
        to={`/u/${accountIndex}/customers`}
        className="self-start text-sm text-blue-800 underline-offset-2 hover:underline"
      >
        {t('detail.back')}
      </Link>
      {loaded.status === 'loading' ? <Spinner label={t('common:status.loading')} /> : null}
      {loaded.status === 'missing' ? (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{t('detail.title')}</h1>
          <AlertBar tone="warning" dismissible={false}>
            {t('detail.not_found')}
          </AlertBar>
        </>
      ) : null}
      {loaded.status === 'failed' ? (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{t('detail.title')}</h1>
          <AlertBar tone="danger" dismissible={false}>
            {t('forms.messages.error')}
          </AlertBar>
          <Button
            variant="secondary"
            className="self-start"
            onClick={() => setAttempt((n) => n + 1)}
          >
            {t('actions.retry')}
          </Button>
        </>
      ) : null}
      {loaded.status === 'ready' ? (
        <>
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-bold text-slate-900">{displayNameOf(loaded.account)}</h1>
            <p className="text-sm text-slate-700">
              {t('detail.subtitle', {
                number: loaded.account.accountNumber,
                type: t(`types.${loaded.account.type}`),
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
                    key={loaded.account.code}
                    account={loaded.account}
                    abilities={abilities}
                    onSaved={(account) => setLoaded({ status: 'ready', account })}
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
