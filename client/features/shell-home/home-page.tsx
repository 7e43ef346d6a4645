import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isAccessChange } from '#client/api/notification-socket.ts';
import { NotificationSocketContext } from '#client/api/notification-socket-context.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { getTenantSettings, settingValue } from '#client/api/settings-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ChatWidget } from './chat-widget.tsx';

const DASHBOARD_ALERT_KEY = 'dashboardAlert';

/** The tenant's dashboard notice (setting dashboardAlert); none while unset or on failure. */
function useDashboardAlert(accountIndex: number): string {
  const [alert, setAlert] = useState('');
  useEffect(() => {
    const controller = new AbortController();
    getTenantSettings(accountIndex, [DASHBOARD_ALERT_KEY], controller.signal)
      .then(({ values }) => {
        const value = settingValue(values, DASHBOARD_ALERT_KEY);
        setAlert(typeof value === 'string' ? value.trim() : '');
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('dashboard alert load failed', error);
      });
    return () => controller.abort();
  }, [accountIndex]);
  return alert;
}

function describeMessage(message: unknown, accessChanged: string): string | undefined {
  if (!message || typeof message !== 'object') return undefined;
  // A machine-readable frame for the shell (it refreshes the permissions); here it gets words.
  if (isAccessChange(message)) return accessChanged;
  const { type, kind, title, message: text } = message as Record<string, unknown>;
  // Other machine-readable frames (`document.issued`) are for the screens they concern.
  if (type !== 'notification' || kind !== undefined) return undefined;
  return (
    [title, text].filter((part) => typeof part === 'string').join(': ') || JSON.stringify(message)
  );
}

/** The home dashboard: greeting, tenant and workspace, notification connection state. */
export default function HomePage() {
  const { t } = useTranslation('shell');
  const { accountIndex } = useParams();
  const account = SessionActorContext.useSelector((s) =>
    s.context.accounts.find((a) => String(a.accountIndex) === accountIndex),
  );
  const statusKey = NotificationSocketContext.useSelector((s) => s.context.statusKey);
  const lastMessage = NotificationSocketContext.useSelector((s) => s.context.lastMessage);
  usePageTitle(t('home.title'));
  const dashboardAlert = useDashboardAlert(Number(accountIndex));
  if (!account) return null;
  const notification = describeMessage(lastMessage, t('home.access_changed'));

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">
        {t('home.greeting', { name: account.userFullName || account.userName })}
      </h1>
      {dashboardAlert ? (
        <div data-testid="dashboard-alert">
          <Alert tone="warning">
            <strong>{t('home.notice')}:</strong> {dashboardAlert}
          </Alert>
        </div>
      ) : null}
      <ChatWidget accountIndex={account.accountIndex} />
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm text-slate-600">{t('home.tenant')}</dt>
          <dd className="text-lg font-semibold" data-testid="home-tenant">
            {account.tenantName}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm text-slate-600">{t('home.workspace')}</dt>
          <dd className="text-lg font-semibold" data-testid="home-workspace">
            {account.workspace ?? account.tenantSlug}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm text-slate-600">{t('home.connection')}</dt>
          <dd className="text-lg font-semibold" data-testid="home-connection">
            {t(statusKey)}
          </dd>
        </div>
      </dl>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">{t('home.notifications')}</h2>
        <p className="text-slate-700">{notification ?? t('home.no_notifications')}</p>
      </section>
      <p className="text-slate-600">{t('home.widgets_soon')}</p>
    </div>
  );
}
