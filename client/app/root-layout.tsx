import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ScrollToTop } from './guards.tsx';

export function PageLoading() {
  // No translation here: this shows while the translations themselves may be loading.
  return (
    <div role="status" aria-live="polite" className="p-8 text-slate-700">
      <span aria-hidden="true">…</span>
    </div>
  );
}

export function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </>
  );
}
