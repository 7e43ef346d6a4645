import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LOGO } from './fallback-logo.tsx';

/** The frame of the pages outside the shell: sign-in, single sign-on, password change and reset. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 p-4">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-md">
        <div className="mb-6 flex items-center gap-3">
          <img src={FALLBACK_LOGO} alt="" className="size-10" />
          <p className="text-lg font-semibold text-slate-800">{t('product.name')}</p>
        </div>
        <h1 className="mb-4 text-2xl font-bold text-slate-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}
