import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
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
import { PASSWORD_MAX_LENGTH } from '#common/password-rules.ts';
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
        // `link=reset` makes the page speak of a reset link, not an invitation.
        showExpiredToken: () => void navigate('/expired-token?link=reset', { replace: true }),
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
      <MessageCard
        title={t('request.sent_heading')}
        tone="success"
        text={t('request.sent', { email: state.context.email })}
      >
        <p className="text-sm text-slate-700">{t('request.sent_hint')}</p>
        <BackToSignIn />
      </MessageCard>
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
      <MessageCard title={t('reset.heading')} tone="danger" text={t('errors.verify_failed')}>
        <Button onClick={() => actor.send({ type: 'verify.retry' })}>{t('errors.retry')}</Button>
        <BackToSignIn />
      </MessageCard>
    );
  }
  if (state.matches('done')) {
    return (
      <MessageCard title={t('reset.done_heading')} tone="success" text={t('reset.done')}>
        <Link className="font-semibold text-blue-800 underline" to="/login">
          {t('reset.sign_in')}
        </Link>
      </MessageCard>
    );
  }
  // opening, verifying, and expired (while the navigation to /expired-token happens).
  return (
    <AuthCard title={t('reset.heading')}>
      <Spinner label={t('reset.verifying')} />
    </AuthCard>
  );
}

/** A result of the flow: its message, then what the user can do next. */
function MessageCard({
  title,
  tone,
  text,
  children,
}: {
  title: string;
  tone: 'success' | 'danger';
  text: string;
  children: ReactNode;
}) {
  return (
    <AuthCard title={title}>
      <div className="flex flex-col gap-4">
        <Alert tone={tone}>{text}</Alert>
        {children}
      </div>
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

/**
 * The frame of both forms: intro, the server's error, the fields, the submit button. Field
 * errors appear once the user tried to submit (then they follow every change); a submit with
 * errors moves the focus to the first field in error.
 */
function FlowForm({
  title,
  intro,
  error,
  busy,
  submitLabel,
  busyLabel,
  hasErrors,
  onValidSubmit,
  children,
  footer,
}: {
  title: string;
  intro: string;
  error: string | undefined;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  hasErrors: () => boolean;
  onValidSubmit: () => void;
  children: (submitted: boolean) => ReactNode;
  footer?: ReactNode;
}) {
  const [submitted, setSubmitted] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!hasErrors()) return onValidSubmit();
    // After React has rendered the messages.
    requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );
  }

  return (
    <AuthCard title={title}>
      <p className="mb-6 text-slate-700">{intro}</p>
      {error ? (
        <div className="mb-4">
          <Alert tone="danger">{error}</Alert>
        </div>
      ) : null}
      <form ref={form} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {children(submitted)}
        <Button type="submit" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </form>
      {footer}
    </AuthCard>
  );
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
  const label = t('request.email');
  return (
    <FlowForm
      title={t('request.heading')}
      intro={t('request.intro')}
      error={error}
      busy={busy}
      submitLabel={t('request.submit')}
      busyLabel={t('request.submitting')}
      hasErrors={() => Object.keys(requestErrors(email, label)).length > 0}
      onValidSubmit={() => onSubmit(email.trim())}
      footer={
        <p className="mt-6">
          <BackToSignIn />
        </p>
      }
    >
      {(submitted) => (
        <TextInput
          label={label}
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={320}
          value={email}
          errors={submitted ? requestErrors(email, label).email : undefined}
          onChange={setEmail}
        />
      )}
    </FlowForm>
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
  const labels = {
    newPassword: t('reset.new_password'),
    confirmPassword: t('reset.confirm_password'),
  };
  return (
    <FlowForm
      title={t('reset.heading')}
      intro={t('reset.intro', { email })}
      error={error}
      busy={busy}
      submitLabel={t('reset.submit')}
      busyLabel={t('reset.submitting')}
      hasErrors={() => Object.keys(newPasswordErrors(values, labels)).length > 0}
      onValidSubmit={() => onSubmit(values.newPassword)}
    >
      {(submitted) => {
        const errors: FieldErrors = submitted ? newPasswordErrors(values, labels) : {};
        return (
          <>
            {/* Lets password managers store the new password for the right account. */}
            <input type="hidden" name="username" autoComplete="username" value={email} />
            <TextInput
              label={labels.newPassword}
              name="newPassword"
              type="password"
              autoComplete="new-password"
              required
              maxLength={PASSWORD_MAX_LENGTH}
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
              maxLength={PASSWORD_MAX_LENGTH}
              value={values.confirmPassword}
              errors={errors.confirmPassword}
              onChange={(confirmPassword) => setValues((v) => ({ ...v, confirmPassword }))}
            />
          </>
        );
      }}
    </FlowForm>
  );
}
