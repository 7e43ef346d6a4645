import { useTranslation } from 'react-i18next';
import { usePageTitle } from '#client/ui/page-title.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { ResultText } from './success-registration-page.tsx';

/** /expired-token: an invitation link that is invalid, expired or already used (spec, 8). */
export default function ExpiredTokenPage() {
  const { t } = useTranslation('registration');
  usePageTitle(t('expired.title'));
  return (
    <RegistrationFrame title={t('expired.title')}>
      <ResultText text={t('expired.text')} link={t('expired.sign_in')} />
    </RegistrationFrame>
  );
}
