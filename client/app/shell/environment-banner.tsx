import { useTranslation } from 'react-i18next';
import { getAppConfig } from '#client/api/app-config.ts';

const PRODUCTION = new Set(['prod', 'prodfunk', 'prodzurich', 'production']);
const NAMES = {
  local: 'local',
  dev: 'dev',
  development: 'dev',
  test: 'test',
  sandbox: 'sandbox',
} as const;

/** Non-production environments and sandbox workspaces announce themselves (spec, shell). */
export function EnvironmentBanner({ workspace }: { workspace: string }) {
  const { t } = useTranslation(['shell', 'common']);
  const appEnv = getAppConfig().appEnv.toLowerCase();
  const name = NAMES[appEnv as keyof typeof NAMES];
  const showEnv = !PRODUCTION.has(appEnv);
  const sandboxMode = workspace.includes('sandbox');
  if (!showEnv && !sandboxMode) return null;
  return (
    <div className="flex flex-wrap gap-x-6 gap-y-1 bg-amber-300 px-4 py-1 text-center text-sm font-semibold text-slate-950">
      {showEnv ? (
        <p data-testid="environment-banner">
          {t('environment.banner', {
            environment: name ? t(`common:environments.${name}`) : appEnv,
          })}
        </p>
      ) : null}
      {sandboxMode ? (
        <p data-testid="sandbox-banner">{t('environment.sandbox', { workspace })}</p>
      ) : null}
    </div>
  );
}
