import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * Last resort for a route that failed to render or load (typically a lazy chunk gone after a
 * deployment): a reload fetches the new build. Never shows the error's details to the user.
 */
export function RouteError() {
  const { t } = useTranslation(['errors', 'common']);
  const error = useRouteError();
  console.error('route failed', error);
  return (
    <main className="mx-auto flex max-w-xl flex-col items-start gap-4 p-8">
      <h1 className="text-3xl font-bold text-slate-900">{t('generic.title')}</h1>
      <p className="text-slate-800">{t('generic.text')}</p>
      <button
        type="button"
        className="rounded-md bg-brand px-4 py-2 font-semibold text-on-brand"
        onClick={() => window.location.reload()}
      >
        {t('generic.reload')}
      </button>
    </main>
  );
}
