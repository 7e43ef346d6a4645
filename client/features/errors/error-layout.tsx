import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function ErrorLayout({ heading, children }: { heading: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <main className="mx-auto flex max-w-xl flex-col items-start gap-4 p-8" id="main-content">
      <h1 className="text-3xl font-bold text-slate-900">{heading}</h1>
      {children}
      <Link to="/" className="rounded-md bg-brand px-4 py-2 font-semibold text-on-brand">
        {t('actions.back_home')}
      </Link>
    </main>
  );
}
