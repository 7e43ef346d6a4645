import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '#client/ui/page-title.ts';
import { RegistrationFrame } from './registration-frame.tsx';

/** /success-registration: where both wizards end; the new account signs in from here. */
export default function SuccessRegistrationPage() {
  const { t } = useTranslation('registration');
  usePageTitle(t('success.title'));
  return (
    <RegistrationFrame title={t('success.title')}>
      <ResultText text={t('success.text')} link={t('success.sign_in')} />
    </RegistrationFrame>
  );
}

export function ResultText({ text, link }: { text: string; link: string }) {
  return (
    <div className="flex flex-col items-start gap-6">
      <p className="text-slate-800">{text}</p>
      <Link to="/login" className="rounded-md bg-brand px-4 py-2 font-semibold text-slate-950">
        {link}
      </Link>
    </div>
  );
}
