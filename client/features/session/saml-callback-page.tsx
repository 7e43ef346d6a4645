import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import { Alert } from '#client/ui/alert.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';
import { waitText } from './wait-text.ts';

/**
 * /login/saml?tenantSlug=..&code=..: where the identity provider sends the browser back. The
 * one-time code is exchanged once; success goes to the account home (the machine navigates).
 */
export default function SamlCallbackPage() {
  const { t } = useTranslation(['session', 'common']);
  const [params] = useSearchParams();
  const actor = SessionActorContext.useActorRef();
  const state = SessionActorContext.useSelector((s) => s);
  const tenantSlug = params.get('tenantSlug');
  const code = params.get('code');
  const sent = useRef(false);
  usePageTitle(t('saml.title'));

  useEffect(() => {
    // A one-time code: StrictMode's second effect run must not spend it twice.
    if (sent.current || !tenantSlug || !code) return;
    sent.current = true;
    actor.send({ type: 'signIn.submit', credentials: { kind: 'saml', tenantSlug, code } });
  }, [actor, tenantSlug, code]);

  let error: string | undefined;
  if (!tenantSlug || !code) error = t('common:messages.error');
  else if (state.matches('refusedNoUi')) error = t('common:noAccessUser');
  else if (state.matches('failed')) {
    // Spec, error catalogue: UNAUTHORIZED gives loginError, anything else changePasswordError.
    error =
      state.context.signInError === 'UNAUTHORIZED' ||
      state.context.signInError === 'invalid_credentials'
        ? t('errors.loginError')
        : t('errors.changePasswordError');
  } else if (state.matches('rateLimited')) {
    error = t('errors.rate_limited', { wait: waitText(state.context.retryAfterSeconds) });
  }

  return (
    <AuthCard title={error ? t('saml.failed_title') : t('saml.title')}>
      {error ? (
        <div className="flex flex-col gap-4">
          <Alert tone="danger">{error}</Alert>
          <Link className="text-blue-800 underline" to="/">
            {t('common:actions.back_home')}
          </Link>
        </div>
      ) : (
        <Spinner label={t('saml.working')} />
      )}
    </AuthCard>
  );
}
