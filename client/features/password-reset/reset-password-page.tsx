import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { passwordResetMachine } from '#machines/password-reset.machine.ts';
import {
  requestPasswordReset,
  resetPassword,
  verifyResetToken,
} from '#client/api/password-reset-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';
import { Button } from '#client/ui/button.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { newPasswordErrors, requestErrors } from './reset-password-form.ts';

/**
 * /account/resetpassword: without `resetToken` the "forgot password" request, with the token of
 * the e-mail link the new password. The flow is the password-reset statechart.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const resetToken = params.get('resetToken');
  // A new link (or none) in the address starts the flow over.
  return <ResetPasswordFlow key={resetToken ?? ''} resetToken={resetToken} />;
}

function ResetPasswordFlow({ resetToken }: { resetToken: string | null }) {
  const { t } = useTranslation(['password_reset', 'common']);
  const navigate = useNavigate();
  const actor = useActorRef(
    passwordResetMachine.provide({
      actors: {
        requestReset: fromPromise(({ input, signal }) => requestPasswordReset(input.email, signal)),
        verifyResetToken: fromPromise(({ input, signal }) =>
          verifyResetToken(input.resetToken, signal),
        ),
        resetPassword: fromPromise(({ input, signal }) => resetPassword(input, signal)),
      },
      actions: {
        // Spec, error catalogue: a 403 on /account/resetpassword goes to /expired-token.
        showExpiredToken: () => void navigate('/expired-token', { replace: true }),
      },
    }),
  );
  const state = useSelector(actor, (s) => s);
  usePageTitle(t('title'));

  useEffect(() => {
    // Sent again by StrictMode's second run; the machine only listens while `opening`.
    actor.send({ type: 'page.opened', resetToken });
  }, [actor, resetToken]);

  const errorText = (code: string | undefined) =>
    code
      ? t(`errors.${code}` as 'errors.unknown', { defaultValue: t('errors.unknown') })
      : undefined;

  if (state.matches('requestForm') || state.matches('requesting')) {
    return (
      <RequestForm
        busy={state.matches('requesting')}
        initialEmail={state.context.email}
        error={errorText(state.context.error)}
        onSubmit={(email) => actor.send({ type: 'request.submit', email })}
      />
    );
  }
  if (state.matches('requestSent')) {
    return (
      <AuthCard title={t('request.sent_heading')}>
        <div className="flex flex-col gap-4">
          <Alert tone="success">{t('request.sent', { email: state.context.email })}</Alert>
          <p className="text-sm text-slate-700">{t('request.sent_hint')}</p>
          <BackToSignIn />
        </div>
      </AuthCard>
    );
  }
  if (state.matches('resetForm') || state.matches('resetting')) {
    return (
      <NewPasswordForm
        email={state.context.email}
        busy={state.matches('resetting')}
        error={errorText(state.context.error)}
        onSubmit={(newPassword) => actor.send({ type: 'reset.submit', newPassword })}
      />
    );
  }
  if (state.matches('verifyFailed')) {
    return (
      <AuthCard title={t('reset.heading')}>
        <div className="flex flex-col gap-4">
          <Alert tone="danger">{t('errors.verify_failed')}</Alert>
          <Button onClick={() => actor.send({ type: 'verify.retry' })}>{t('errors.retry')}</Button>
          <BackToSignIn />
        </div>
      </AuthCard>
    );
  }
  if (state.matches('done')) {
    return (
      <AuthCard title={t('reset.done_heading')}>
        <div className="flex flex-col gap-4">
          <Alert tone="success">{t('reset.done')}</Alert>
          <Link className="font-semibold text-blue-800 underline" to="/login">
            {t('reset.sign_in')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  // opening, verifying, and expired (while the navigation to /expired-token happens).
  return (
    <AuthCard title={t('reset.heading')}>
      <Spinner label={t('reset.verifying')} />
    </AuthCard>
  );
}

function BackToSignIn() {
  const { t } = useTranslation('password_reset');
  return (
    <Link className="text-sm text-blue-800 underline" to="/login">
      {t('back_to_sign_in')}
    </Link>
  );
}

/** After React has rendered the messages, the first field in error gets the focus. */
function focusFirstError(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

function RequestForm({
  busy,
  initialEmail,
  error,
  onSubmit,
}: {
  busy: boolean;
  initialEmail: string;
  error: string | undefined;
  onSubmit: (email: string) => void;
}) {
  const { t } = useTranslation('password_reset');
  const [email, setEmail] = useState(initialEmail);
  // Errors appear once the user tried to submit, and then follow every change.
  const [submitted, setSubmitted] = useState(false);
  const label = t('request.email');
  const errors: FieldErrors = submitted ? requestErrors(email, label) : {};
  const form = useRef<HTMLFormElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(requestErrors(email, label)).length > 0) {
      focusFirstError(form.current);
      return;
    }
    onSubmit(email.trim());
  }

  return (
    <AuthCard title={t('request.heading')}>
      <p className="mb-6 text-slate-700">{t('request.intro')}</p>
      {error ? (
        <div className="mb-4">
          <Alert tone="danger">{error}</Alert>
        </div>
      ) : null}
      <form ref={form} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextInput
          label={label}
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={320}
          value={email}
          errors={errors.email}
          onChange={setEmail}
        />
        <Button type="submit" disabled={busy}>
          {busy ? t('request.submitting') : t('request.submit')}
        </Button>
      </form>
      <p className="mt-6">
        <BackToSignIn />
      </p>
    </AuthCard>
  );
}

function NewPasswordForm({
  email,
  busy,
  error,
  onSubmit,
}: {
  email: string;
  busy: boolean;
  error: string | undefined;
  onSubmit: (newPassword: string) => void;
}) {
  const { t } = useTranslation('password_reset');
  const [values, setValues] = useState({ newPassword: '', confirmPassword: '' });
  // Errors appear once the user tried to submit, and then follow every change.
  const [submitted, setSubmitted] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const labels = {
    newPassword: t('reset.new_password'),
    confirmPassword: t('reset.confirm_password'),
  };
  const errors: FieldErrors = submitted ? newPasswordErrors(values, labels) : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(newPasswordErrors(values, labels)).length > 0) {
      focusFirstError(form.current);
      return;
    }
    onSubmit(values.newPassword);
  }

  return (
    <AuthCard title={t('reset.heading')}>
      <p className="mb-6 text-slate-700">{t('reset.intro', { email })}</p>
      {error ? (
        <div className="mb-4">
          <Alert tone="danger">{error}</Alert>
        </div>
      ) : null}
      <form ref={form} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {/* Lets password managers store the new password for the right account. */}
        <input type="hidden" name="username" autoComplete="username" value={email} />
        <TextInput
          label={labels.newPassword}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          hint={t('reset.rules')}
          value={values.newPassword}
          errors={errors.newPassword}
          onChange={(newPassword) => setValues((v) => ({ ...v, newPassword }))}
        />
        <TextInput
          label={labels.confirmPassword}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={values.confirmPassword}
          errors={errors.confirmPassword}
          onChange={(confirmPassword) => setValues((v) => ({ ...v, confirmPassword }))}
        />
        <Button type="submit" disabled={busy}>
          {busy ? t('reset.submitting') : t('reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
