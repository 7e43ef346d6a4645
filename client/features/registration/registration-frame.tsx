import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LOGO } from '#client/ui/fallback-logo.tsx';

/** The frame of the registration pages, outside the shell: product, page heading, content. */
export function RegistrationFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <main className="flex min-h-screen justify-center bg-slate-100 px-4 py-10" id="main-content">
      <div className="h-fit w-full max-w-2xl rounded-xl bg-white p-8 shadow-md">
        <p className="mb-6 flex items-center gap-3 text-lg font-semibold text-slate-800">
          <img src={FALLBACK_LOGO} alt="" className="size-10" />
          {t('product.name')}
        </p>
        <h1 className="mb-6 text-2xl font-bold text-slate-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}
