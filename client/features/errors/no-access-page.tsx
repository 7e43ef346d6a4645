import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ErrorLayout } from './error-layout.tsx';

/**
 * 'Error 403' with the message chosen by a key in the navigation state (`messageKey`, a key of
 * the common namespace such as `noAccessUser`), else 'no access' with the path (spec).
 */
export default function NoAccessPage() {
  const { t } = useTranslation(['errors', 'common']);
  const location = useLocation();
  const messageKey = (location.state as { messageKey?: string } | null)?.messageKey;
  usePageTitle(t('no_access.title'));
  return (
    <ErrorLayout heading={t('no_access.heading')}>
      {messageKey ? (
        <p className="text-lg text-slate-800">
          {t(`common:${messageKey}` as 'common:noAccessUser', {
            defaultValue: t('no_access.text'),
          })}
        </p>
      ) : (
        <>
          <p className="text-lg text-slate-800">{t('no_access.text')}</p>
          <p className="text-slate-700">{t('no_access.path', { path: location.pathname })}</p>
        </>
      )}
    </ErrorLayout>
  );
}
