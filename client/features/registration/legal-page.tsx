import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePageTitle } from '#client/ui/page-title.ts';
import { RegistrationFrame } from './registration-frame.tsx';

/**
 * /terms and /privacy: the pages the EULA checkbox links to. Public, because whoever registers
 * has no account yet; the operator replaces the texts with its binding ones.
 */
export default function LegalPage() {
  const { t } = useTranslation('registration');
  const topic = useLocation().pathname === '/privacy' ? 'privacy' : 'terms';
  usePageTitle(t(`legal.${topic}.title`));
  return (
    <RegistrationFrame title={t(`legal.${topic}.title`)}>
      <p className="text-slate-800">{t(`legal.${topic}.body`)}</p>
    </RegistrationFrame>
  );
}
