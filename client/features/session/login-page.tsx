import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { LoginForm, type SignInText } from './login-form.tsx';

/** /login: sign in, or add another account next to those already signed in. */
export default function LoginPage() {
  const { t } = useTranslation(['session', 'common']);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const actor = SessionActorContext.useActorRef();
  const state = SessionActorContext.useSelector((s) => s);
  const addingAccount = state.context.accounts.length > 0;
  usePageTitle(addingAccount ? t('login.title_add_account') : t('login.title'));
  // The form builds its keys at run time ('errors.<code>'), so the typed keys are widened here.
  const text: SignInText = (key, values) => t(key as 'errors.unknown', { ...values });

  return (
    <LoginForm
      t={text}
      state={state}
      search={params}
      Link={Link}
      onSubmit={({ credentials, backUrl }) =>
        actor.send({ type: 'signIn.submit', credentials, ...(backUrl ? { backUrl } : {}) })
      }
      onSso={(path) => void navigate(path)}
    />
  );
}
