import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';

/** /u/{i}/logout: signs out of this one account; the others stay signed in. */
export default function LogoutPage() {
  const { t } = useTranslation('session');
  const { accountIndex = '' } = useParams();
  const actor = SessionActorContext.useActorRef();
  const index = Number(accountIndex);
  const held = SessionActorContext.useSelector((s) =>
    s.context.accounts.some((a) => a.accountIndex === index),
  );
  const signingOut = SessionActorContext.useSelector((s) => s.matches('signingOut'));
  usePageTitle(t('logout.title'));

  useEffect(() => {
    // The machine ignores a second request for an account it no longer holds (StrictMode).
    actor.send({ type: 'account.signOut', accountIndex: Number(accountIndex) });
  }, [actor, accountIndex]);

  // Already gone (a reload of this page): the root picks the next account or the sign-in.
  if (!held && !signingOut) return <Navigate to="/" replace />;

  return (
    <AuthCard title={t('logout.title')}>
      <Spinner label={t('logout.working')} />
    </AuthCard>
  );
}
