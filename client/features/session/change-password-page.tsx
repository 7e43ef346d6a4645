import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { safeBackUrl } from '#common/back-url.ts';
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

  const mismatch = touched && confirm !== newPassword;
  const busy = state.matches('changingPassword');
  const serverError =
    state.context.currentAccountIndex === index ? state.context.passwordError : undefined;
  const rawBackUrl = params.get('backUrl');

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!newPassword || confirm !== newPassword || (!forced && !oldPassword)) return;
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
            value={oldPassword}
            onChange={setOldPassword}
          />
        )}
        <PasswordField
          label={t('change_password.new_password')}
          name="newPassword"
          autoComplete="new-password"
          hint={t('change_password.rules')}
          value={newPassword}
          onChange={setNewPassword}
        />
        <PasswordField
          label={t('change_password.confirm_password')}
          name="confirmPassword"
          autoComplete="new-password"
          error={mismatch ? t('change_password.mismatch') : undefined}
          value={confirm}
          onChange={setConfirm}
        />
        <Button type="submit" disabled={busy}>
          {busy ? t('change_password.submitting') : t('change_password.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
