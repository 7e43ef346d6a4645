import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { useLoaded, useSettingsAccount, type Loaded } from './use-settings-tab.ts';

/** Loading, load failure (with retry) and the form of one settings tab. */
export function TabFrame<T>({
  loaded,
  retry,
  children,
}: {
  loaded: Loaded<T>;
  retry: () => void;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation(['tenant_settings', 'common']);
  if (loaded.status === 'loading') return <Spinner label={t('common:status.loading')} />;
  if (loaded.status === 'failed') {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert tone="danger">{t('load_failed')}</Alert>
        <Button variant="secondary" onClick={retry}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  return <>{children(loaded.data)}</>;
}

/** A settings form: its fields, the save error and the save button. */
export function SettingsForm({
  title,
  intro,
  onSubmit,
  saving,
  error,
  canEdit,
  children,
}: {
  title: string;
  intro?: string;
  onSubmit: () => void;
  saving: boolean;
  error: string | null;
  canEdit: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('tenant_settings');
  return (
    <form
      noValidate
      aria-label={title}
      className="flex max-w-2xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
      {children}
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {canEdit ? (
        <div>
          <Button type="submit" disabled={saving}>
            {saving ? t('saving') : t('save')}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-600">{t('read_only')}</p>
      )}
    </form>
  );
}

/** A tab that loads its data for the screen's account, then renders its form. */
export function SettingsTab<T>({
  load,
  render,
}: {
  load: (accountIndex: number, signal: AbortSignal) => Promise<T>;
  render: (data: T, account: { accountIndex: number; canEdit: boolean }) => ReactNode;
}) {
  const account = useSettingsAccount();
  const { loaded, retry } = useLoaded(load, account.accountIndex);
  return (
    <TabFrame loaded={loaded} retry={retry}>
      {(data) => render(data, account)}
    </TabFrame>
  );
}
