import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthFrame } from './auth-frame.tsx';

/** The frame of the pages outside the shell: sign-in, single sign-on, password change and reset. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <AuthFrame productName={t('product.name')} title={title}>
      {children}
    </AuthFrame>
  );
}
