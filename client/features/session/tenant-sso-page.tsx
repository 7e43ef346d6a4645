import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { getSamlLoginLink } from '#client/api/guest-auth-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';

/** /login/{tenantName}: asks for the tenant's single-sign-on link and goes there. */
export default function TenantSsoPage() {
  const { t } = useTranslation(['session', 'common']);
  const { tenantName = '' } = useParams();
  const [failed, setFailed] = useState(false);
  usePageTitle(t('tenant_sso.title'));

  useEffect(() => {
    const controller = new AbortController();
    getSamlLoginLink(tenantName, controller.signal)
      .then(({ url }) => {
        // The identity provider may live elsewhere, but never a `javascript:` or `data:` link.
        const target = new URL(url, window.location.origin);
        if (target.protocol !== 'https:' && target.protocol !== 'http:') {
          throw new Error('sso link with an unexpected scheme');
        }
        window.location.assign(target.href);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          console.warn('single sign-on link failed', error);
          setFailed(true);
        }
      });
    return () => controller.abort();
  }, [tenantName]);

  return (
    <AuthCard title={t('tenant_sso.title')}>
      {failed ? (
        <div className="flex flex-col gap-4">
          <Alert tone="danger">{t('errors.sso_link_failed')}</Alert>
          <Link className="text-blue-800 underline" to="/login">
            {t('login.title')}
          </Link>
        </div>
      ) : (
        <Spinner label={t('tenant_sso.redirecting', { tenant: tenantName })} />
      )}
    </AuthCard>
  );
}
