import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '#client/ui/page-title.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { ResultText } from './success-registration-page.tsx';

/**
 * /expired-token: a link that is invalid, expired or already used (spec, 8). Invitations and
 * password resets both end here; `?link=reset` (set by the reset page, kept in the address so a
 * reload says the same) tells of the reset link and offers a new one, since nobody else can.
 */
export default function ExpiredTokenPage() {
  const { t } = useTranslation('registration');
  const [params] = useSearchParams();
  const reset = params.get('link') === 'reset';
  const title = reset ? t('expired.reset_title') : t('expired.title');
  usePageTitle(title);
  if (!reset) {
    return (
      <RegistrationFrame title={title}>
        <ResultText text={t('expired.text')} link={t('expired.sign_in')} />
      </RegistrationFrame>
    );
  }
  return (
    <RegistrationFrame title={title}>
      <div className="flex flex-col items-start gap-6">
        <p className="text-slate-800">{t('expired.reset_text')}</p>
        <div className="flex flex-wrap items-center gap-4">
          <Link
            to="/account/resetpassword"
            className="rounded-md bg-brand px-4 py-2 font-semibold text-slate-950"
          >
            {t('expired.reset_again')}
          </Link>
          <Link to="/login" className="font-medium text-blue-800 underline">
            {t('expired.sign_in')}
          </Link>
        </div>
      </div>
    </RegistrationFrame>
  );
}
