import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { safeBackUrl } from '#common/back-url.ts';
import { PASSWORD_MAX_LENGTH } from '#common/password-rules.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { PasswordField } from '#client/ui/password-field.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';

/**
 * /u/{i}/changepassword: forced for a user flagged to change the password (no old password
 * then: the BFF holds the sign-in challenge), optional otherwise (old password required).
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation(['session', 'common']);
  const { accountIndex = '' } = useParams();
  const [params] = useSearchParams();
  const index = Number(accountIndex);
  const actor = SessionActorContext.useActorRef();
  const state = SessionActorContext.useSelector((s) => s);
  const account = state.context.accounts.find((a) => a.accountIndex === index);
  const forced = account?.isRequiredToChangePassword ?? false;
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  usePageTitle(t('change_password.title'));

  // Shown after a first submit, so that an empty form says what is missing instead of nothing.
  const required = (value: string) =>
    touched && value === '' ? t('change_password.required') : undefined;
  const mismatch = touched && confirm !== '' && confirm !== newPassword;
  const unchanged = touched && !forced && newPassword !== '' && newPassword === oldPassword;
  const busy = state.matches('changingPassword');
  const serverError =
    state.context.currentAccountIndex === index ? state.context.passwordError : undefined;
  const rawBackUrl = params.get('backUrl');

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!newPassword || confirm !== newPassword || (!forced && !oldPassword)) return;
    if (!forced && newPassword === oldPassword) return;
    actor.send({
      type: 'password.submit',
      accountIndex: index,
      newPassword,
      ...(forced ? {} : { oldPassword }),
      ...(rawBackUrl ? { backUrl: safeBackUrl(rawBackUrl, `/u/${index}`) } : {}),
    });
  }

  return (
    <AuthCard title={t('change_password.title')}>
      <p className="mb-4 text-slate-700">
        {forced
          ? t('change_password.forced_intro')
          : t('change_password.intro', { user: account?.userName ?? '' })}
      </p>
      {serverError ? (
        <div className="mb-4">
          <Alert tone="danger">
            {t(`change_password.${serverError}` as 'change_password.unknown', {
              defaultValue: t('change_password.unknown'),
            })}
          </Alert>
        </div>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {/* Lets password managers attach the new password to the right account. */}
        <input
          type="hidden"
          name="username"
          autoComplete="username"
          value={account?.userName ?? ''}
        />
        {forced ? null : (
          <PasswordField
            label={t('change_password.old_password')}
            name="oldPassword"
            autoComplete="current-password"
            error={required(oldPassword)}
            value={oldPassword}
            onChange={setOldPassword}
          />
        )}
        <PasswordField
          label={t('change_password.new_password')}
          name="newPassword"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          hint={t('change_password.rules')}
          error={
            required(newPassword) ??
            (unchanged ? t('change_password.password_unchanged') : undefined)
          }
          value={newPassword}
          onChange={setNewPassword}
        />
        <PasswordField
          label={t('change_password.confirm_password')}
          name="confirmPassword"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          error={required(confirm) ?? (mismatch ? t('change_password.mismatch') : undefined)}
          value={confirm}
          onChange={setConfirm}
        />
        <div className="flex flex-wrap items-center justify-between gap-4">
          {/* A forced change cannot be skipped, only left by signing out of this account. */}
          <Link
            to={forced ? `/u/${index}/logout` : safeBackUrl(rawBackUrl, `/u/${index}`)}
            className="font-medium text-blue-800 underline"
          >
            {forced ? t('change_password.sign_out') : t('common:actions.cancel')}
          </Link>
          <Button type="submit" disabled={busy}>
            {busy ? t('change_password.submitting') : t('change_password.submit')}
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
