import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { writeStoredAccounts } from '#client/api/account-storage.ts';
import { setAppConfig } from '#client/api/app-config.ts';
import { getConfig, getSession } from '#client/api/bff-client.ts';
import { initI18n } from '#client/i18n/i18n.ts';
import { LeavingPageContext } from '#client/ui/leaving-page.ts';
import { SessionProvider } from './session-provider.tsx';

/**
 * The whole app: translations, session and config, then the router at the current URL. The entry
 * loads this module at once on every page but the sign-in page, which starts it when the user
 * leaves that page (signed in, or following a link).
 */
export async function startApp(root: Root): Promise<void> {
  // Three independent requests in parallel: translations, the server-held session, the config.
  // The router (react-router itself, the route table, the first navigation starting the lazy
  // routes' loads) is a dynamic import beside them: its evaluation is a task of its own instead
  // of a part of this module's, which was the longest task of a list's opening
  // (bench/list-long-tasks.ts). Hence no static import of react-router here.
  const [, session, config, { createRouter, RouterProvider }] = await Promise.all([
    initI18n(),
    getSession().catch(() => ({ accounts: [] })),
    getConfig().catch(() => undefined),
    import('./router.tsx'),
  ]);
  // The router's first navigation (flattening and matching the route table) in a task of its
  // own, not in the one that evaluated the router's module.
  await new Promise((next) => setTimeout(next));
  const router = createRouter();
  const leavingPage = (pathname: string) => {
    const navigation = router.state.navigation;
    return navigation.state !== 'idle' && navigation.location.pathname !== pathname;
  };
  if (config) setAppConfig(config);
  // The server is the truth; the stored list only speeds up the next first paint.
  writeStoredAccounts(session.accounts);

  // The first render of the shell and its route is the biggest piece of work of a page load; as
  // a transition React renders it in slices and lets the browser in between, instead of one long
  // task (bench/list-long-tasks.ts). What the root showed before (the light sign-in page) stays
  // until it is done.
  startTransition(() =>
    root.render(
      <StrictMode>
        <SessionProvider accounts={session.accounts} router={router}>
          <LeavingPageContext value={leavingPage}>
            <RouterProvider router={router} />
          </LeavingPageContext>
        </SessionProvider>
      </StrictMode>,
    ),
  );
}
