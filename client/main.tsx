import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { writeStoredAccounts } from './api/account-storage.ts';
import { setAppConfig } from './api/app-config.ts';
import { getConfig, getSession } from './api/bff-client.ts';
import { SessionProvider } from './app/session-provider.tsx';
import { router } from './app/router.tsx';
import { initI18n } from './i18n/i18n.ts';
import './styles.css';

async function start(): Promise<void> {
  // Three independent requests in parallel: translations, the server-held session, the config.
  const [, session, config] = await Promise.all([
    initI18n(),
    getSession().catch(() => ({ accounts: [] })),
    getConfig().catch(() => undefined),
  ]);
  if (config) setAppConfig(config);
  // The server is the truth; the stored list only speeds up the next first paint.
  writeStoredAccounts(session.accounts);

  // The first render of the shell and its route is the biggest piece of work of a page load; as
  // a transition React renders it in slices and lets the browser in between, instead of one long
  // task (bench/list-long-tasks.ts).
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <SessionProvider accounts={session.accounts}>
          <RouterProvider router={router} />
        </SessionProvider>
      </StrictMode>,
    ),
  );
}

void start();
