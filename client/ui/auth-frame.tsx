import type { ReactNode } from 'react';
import { FALLBACK_LOGO } from './fallback-logo.tsx';

/**
 * The frame of the pages outside the shell with its texts given: the light sign-in page renders it
 * before i18next is loaded (`AuthCard` is the same frame with the product name translated).
 */
export function AuthFrame({
  productName,
  title,
  children,
}: {
  productName: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 p-4">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-md">
        <div className="mb-6 flex items-center gap-3">
          <img src={FALLBACK_LOGO} alt="" className="size-10" />
          <p className="text-lg font-semibold text-slate-800">{productName}</p>
        </div>
        <h1 className="mb-4 text-2xl font-bold text-slate-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}
