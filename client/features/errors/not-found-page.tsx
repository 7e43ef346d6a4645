import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ErrorLayout } from './error-layout.tsx';

/** The fallback of every unknown route: 'Error 404', 'bad request' and the path (spec). */
export default function NotFoundPage() {
  const { t } = useTranslation('errors');
  const { pathname } = useLocation();
  usePageTitle(t('not_found.title'));
  return (
    <ErrorLayout heading={t('not_found.heading')}>
      <p className="text-lg text-slate-800">{t('not_found.text')}</p>
      <p className="text-slate-700">{t('not_found.path', { path: pathname })}</p>
    </ErrorLayout>
  );
}
