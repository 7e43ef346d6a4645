import {
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type FormEvent,
  type ReactNode,
} from 'react';
import type { SnapshotFrom } from 'xstate';
import type { sessionMachine, SignInCredentials } from '#machines/session.machine.ts';
import { safeBackUrl } from '#common/back-url.ts';
import { Alert } from '#client/ui/alert.tsx';
import { AuthFrame } from '#client/ui/auth-frame.tsx';
import { Button } from '#client/ui/button.tsx';
import { PasswordField } from '#client/ui/password-field.tsx';
import { TextField } from '#client/ui/text-field.tsx';
import { waitText } from './wait-text.ts';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/**
 * The texts of the sign-in page by key ('login.title', 'errors.<code>', 'common:noAccessUser',
 * 'common:product.name'): i18next on the app's page, a small precompiled lookup on the light one
 * (`#client/i18n/sign-in-text.ts`), so that both show the same words.
 */
export type SignInText = (key: string, values?: { wait?: string; defaultValue?: string }) => string;

export type SignInLink = ComponentType<{ to: string; className: string; children: ReactNode }>;

export interface SignInSubmit {
  credentials: SignInCredentials;
  backUrl?: string;
}

/** What the page says about the last attempt; `state` is absent until the machine is there. */
function signInMessage(
  state: SessionSnapshot | undefined,
  t: SignInText,
  isNotUiPermission: boolean,
  isUserDisabled: boolean,
): string | undefined {
  if (state?.matches('failed')) {
    const code = state.context.signInError ?? 'unknown';
    return t(`errors.${code}`, { defaultValue: t('errors.unknown') });
  }
  if (state?.matches('refusedNoUi')) return t('common:noAccessUser');
  if (state?.matches('rateLimited')) {
    return t('errors.rate_limited', { wait: waitText(state.context.retryAfterSeconds) });
  }
  // A token refresh found no UI permission left, or the user disabled by an administrator: the
  // session sends the user here with a flag, and the page says what happened, not a time-out
  // (the machine is `expired` after that redirect, `idle` after a reload of the page).
  const ended = !state || state.matches('idle') || state.matches('expired');
  if (ended && isNotUiPermission) return t('common:noAccessUser');
  if (ended && isUserDisabled) return t('errors.user_disabled');
  if (state?.matches('expired')) return t('errors.session_expired');
  return undefined;
}

/** What was typed into a sign-in form on the page that the app is about to replace. */
let carried: Record<string, string> = {};

/**
 * Keeps what is typed into the sign-in form on screen for the form that replaces it next (the
 * light page handing over to the app's page): a user who types while the page finds out that
 * an account is signed in already loses nothing. Held in memory until that form takes it.
 */
export function carryTypedSignIn(): void {
  carried = {};
  // The form's fields are its only named inputs (username, password, tenant).
  for (const input of document.querySelectorAll('input[name]'))
    carried[(input as HTMLInputElement).name] = (input as HTMLInputElement).value;
}

/**
 * /login's form, shared by the app's page (router, i18next, session actor) and the light page the
 * entry shows before any of them has loaded: the same markup, so the switch is invisible.
 */
export function LoginForm({
  t,
  state,
  search,
  Link,
  onSubmit,
  onSso,
}: {
  t: SignInText;
  /** The session machine's snapshot; undefined while it loads (the form is usable already). */
  state: SessionSnapshot | undefined;
  search: URLSearchParams;
  Link: SignInLink;
  onSubmit: (submit: SignInSubmit) => void;
  onSso: (path: string) => void;
}) {
  const accounts = state?.context.accounts ?? [];
  const addingAccount = accounts.length > 0;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [tenant, setTenant] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const ssoForm = useRef<HTMLFormElement>(null);
  // The prerendered /login form is live before React takes it over (hydration): what the user
  // typed by then is only in the DOM, and the inputs' change events went to no one. Take it into
  // the state once, so that the button enables and a submit sends what is on screen. Where this
  // form replaced the light page's (the app took over: an account was signed in already), what
  // was typed there comes along (`carryTypedSignIn`).
  useEffect(() => {
    const handed = carried;
    carried = {};
    const typed = (owner: HTMLFormElement | null, name: string) => {
      const input = owner?.elements.namedItem(name);
      return (input instanceof HTMLInputElement && input.value) || handed[name];
    };
    const typedUsername = typed(form.current, 'username');
    const typedPassword = typed(form.current, 'password');
    const typedTenant = typed(ssoForm.current, 'tenant');
    if (typedUsername) setUsername(typedUsername);
    if (typedPassword) setPassword(typedPassword);
    if (typedTenant) setTenant(typedTenant);
  }, []);
  const title = addingAccount ? t('login.title_add_account') : t('login.title');

  const rawBackUrl = search.get('backUrl');
  const busy = state?.matches('signingIn') ?? false;
  const canSubmit =
    state?.can({ type: 'signIn.submit', credentials: { kind: 'password', username, password } }) ??
    true;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!username || !password) return;
    onSubmit({
      credentials: { kind: 'password', username: username.trim(), password },
      // Only a same-origin path ever leaves this page (open-redirect protection).
      ...(rawBackUrl ? { backUrl: safeBackUrl(rawBackUrl) } : {}),
    });
  }

  function startSso(event: FormEvent) {
    event.preventDefault();
    const slug = tenant.trim().toLowerCase();
    if (slug) onSso(`/login/${encodeURIComponent(slug)}`);
  }

  const message = signInMessage(
    state,
    t,
    Boolean(search.get('isNotUiPermission')),
    Boolean(search.get('isUserDisabled')),
  );

  return (
    <AuthFrame productName={t('common:product.name')} title={title}>
      <p className="mb-6 text-slate-700">
        {addingAccount ? t('login.intro_add_account') : t('login.intro')}
      </p>
      {message ? (
        <div className="mb-4">
          <Alert tone="danger">{message}</Alert>
        </div>
      ) : null}
      <form ref={form} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label={t('login.username')}
          name="username"
          type="email"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <PasswordField
          label={t('login.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <Button type="submit" disabled={busy || !canSubmit || !username || !password}>
          {busy ? t('login.submitting') : t('login.submit')}
        </Button>
        <Link className="self-start text-sm text-blue-800 underline" to="/account/resetpassword">
          {t('login.forgot_password')}
        </Link>
      </form>
      <form
        ref={ssoForm}
        onSubmit={startSso}
        className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6"
      >
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
    </AuthFrame>
  );
}
