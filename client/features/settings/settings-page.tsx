import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { getGeneral, type GeneralSettings } from '#client/api/tenant-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';

/** The tenant's general settings (read-only until the administration issue adds editing). */
export default function SettingsPage() {
  const { t } = useTranslation(['profile', 'common']);
  const { accountIndex = '0' } = useParams();
  const [general, setGeneral] = useState<GeneralSettings | undefined>();
  const [failed, setFailed] = useState(false);
  usePageTitle(t('settings.title'));

  useEffect(() => {
    const controller = new AbortController();
    getGeneral(Number(accountIndex), controller.signal)
      .then(({ general: value }) => setGeneral(value))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('general settings failed', error);
        setFailed(true);
      });
    return () => controller.abort();
  }, [accountIndex]);

  const rows: [string, keyof GeneralSettings][] = [
    [t('settings.time_zone'), 'time_zone'],
    [t('settings.language'), 'language'],
    [t('settings.currency'), 'currency'],
    [t('settings.format_hours'), 'format_hours'],
    [t('settings.format_dates'), 'format_dates'],
  ];
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('settings.title')}</h1>
      <p className="text-slate-700">{t('settings.intro')}</p>
      {failed ? (
        <Alert tone="danger">{t('settings.failed')}</Alert>
      ) : !general ? (
        <Spinner label={t('common:status.loading')} />
      ) : (
        <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {rows.map(([label, key]) => (
            <div key={key} className="grid grid-cols-3 gap-4 px-4 py-3">
              <dt className="text-sm text-slate-600">{label}</dt>
              <dd className="col-span-2">{general[key]}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
