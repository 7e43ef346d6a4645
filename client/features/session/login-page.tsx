import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeBackUrl } from '#common/back-url.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { TextField } from '#client/ui/text-field.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';

/** /login: sign in, or add another account next to those already signed in. */
export default function LoginPage() {
  const { t } = useTranslation(['session', 'common']);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const actor = SessionActorContext.useActorRef();
  const state = SessionActorContext.useSelector((s) => s);
  const accounts = state.context.accounts;
  const addingAccount = accounts.length > 0;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [tenant, setTenant] = useState('');
  const title = addingAccount ? t('login.title_add_account') : t('login.title');
  usePageTitle(title);

  const rawBackUrl = params.get('backUrl');
  const busy = state.matches('signingIn');
  const canSubmit = state.can({
    type: 'signIn.submit',
    credentials: { kind: 'password', username, password },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!username || !password) return;
    actor.send({
      type: 'signIn.submit',
      credentials: { kind: 'password', username: username.trim(), password },
      // Only a same-origin path ever leaves this page (open-redirect protection).
      ...(rawBackUrl ? { backUrl: safeBackUrl(rawBackUrl) } : {}),
    });
  }

  function startSso(event: FormEvent) {
    event.preventDefault();
    const slug = tenant.trim().toLowerCase();
    if (slug) void navigate(`/login/${encodeURIComponent(slug)}`);
  }

  let message: string | undefined;
  if (state.matches('failed')) {
    const code = state.context.signInError ?? 'unknown';
    message = t(`errors.${code}` as 'errors.unknown', { defaultValue: t('errors.unknown') });
  } else if (state.matches('refusedNoUi')) {
    message = t('common:noAccessUser');
  } else if (state.matches('rateLimited')) {
    message = t('errors.rate_limited', { seconds: state.context.retryAfterSeconds });
  } else if (state.matches('expired')) {
    message = t('errors.session_expired');
  } else if (state.matches('idle') && params.get('isNotUiPermission')) {
    // A token refresh found no UI permission left: the BFF sends the user here with this flag.
    message = t('common:noAccessUser');
  }

  return (
    <AuthCard title={title}>
      <p className="mb-6 text-slate-700">
        {addingAccount ? t('login.intro_add_account') : t('login.intro')}
      </p>
      {message ? (
        <div className="mb-4">
          <Alert tone="danger">{message}</Alert>
        </div>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label={t('login.username')}
          name="username"
          type="email"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <TextField
          label={t('login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" disabled={busy || !canSubmit || !username || !password}>
          {busy ? t('login.submitting') : t('login.submit')}
        </Button>
        <Link className="self-start text-sm text-blue-800 underline" to="/account/resetpassword">
          {t('login.forgot_password')}
        </Link>
      </form>
      <form onSubmit={startSso} className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6">
        <p className="text-sm text-slate-700">{t('login.sso_hint')}</p>
        <TextField
          label={t('login.sso_tenant')}
          name="tenant"
          autoComplete="organization"
          value={tenant}
          onChange={(e) => setTenant(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={!tenant.trim()}>
          {t('login.sso_submit')}
        </Button>
      </form>
      {addingAccount ? (
        <p className="mt-6 text-sm">
          <Link className="text-blue-800 underline" to={`/u/${accounts[0]!.accountIndex}`}>
            {t('login.back_to_accounts')}
          </Link>
        </p>
      ) : null}
    </AuthCard>
  );
}
