import {
  createBrowserRouter,
  type PatchRoutesOnNavigationFunction,
  type RouteObject,
} from 'react-router';
import {
  AccountGuard,
  FirstScreenRedirect,
  InvitationTokenGuard,
  OutsideRoutes,
  PermissionGuard,
  RootRedirect,
} from './guards.tsx';
import { PageLoading, RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { menuScreenPaths, screens, type ScreenRoute } from './route-table.ts';

// Every page is a lazy route: the sign-in page loads only its own code on top of the entry.
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const screenRoute = (screen: ScreenRoute): RouteObject => ({
  path: screen.path,
  element: <PermissionGuard rule={screen.rule} />,
  handle: { crumb: screen.label, parent: screen.parent },
  children: [{ index: true, lazy: page(screen.load) }],
});

/** The shell's layout route: the detail screens are patched in as its children. */
const SHELL = 'shell';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first page's lazy module loads.
    hydrateFallbackElement: <PageLoading />,
    children: [
      { index: true, element: <RootRedirect /> },
      { path: 'login', lazy: page(() => import('#client/features/session/login-page.tsx')) },
      {
        path: 'login/saml',
        lazy: page(() => import('#client/features/session/saml-callback-page.tsx')),
      },
      {
        path: 'login/:tenantName',
        lazy: page(() => import('#client/features/session/tenant-sso-page.tsx')),
      },
      { path: 'noaccess', lazy: page(() => import('#client/features/errors/no-access-page.tsx')) },
      {
        path: 'account/resetpassword',
        lazy: page(() => import('#client/features/password-reset/reset-password-page.tsx')),
      },
      {
        path: 'registration',
        lazy: page(() => import('#client/features/registration/user-registration-page.tsx')),
      },
      {
        path: 'organization/registration',
        element: <InvitationTokenGuard />,
        children: [
          {
            index: true,
            lazy: page(
              () => import('#client/features/registration/organization-registration-page.tsx'),
            ),
          },
        ],
      },
      // The legal pages the registration's EULA links to: public, the invitee has no account.
      {
        path: 'terms',
        lazy: page(() => import('#client/features/registration/legal-page.tsx')),
      },
      {
        path: 'privacy',
        lazy: page(() => import('#client/features/registration/legal-page.tsx')),
      },
      {
        path: 'success-registration',
        lazy: page(() => import('#client/features/registration/success-registration-page.tsx')),
      },
      {
        path: 'expired-token',
        lazy: page(() => import('#client/features/registration/expired-token-page.tsx')),
      },
      // A document by its storage key, signed for the last used account; outside the shell.
      {
        path: 'download/*',
        lazy: page(() => import('#client/features/documents/download-page.tsx')),
      },
      // The spec's demo pages: here the shared kit's showcase, public like the spec's.
      { path: 'forms', lazy: page(() => import('#client/features/kit-demo/kit-demo-page.tsx')) },
      {
        path: 'u/:accountIndex',
        element: <AccountGuard />,
        children: [
          {
            path: 'changepassword',
            lazy: page(() => import('#client/features/session/change-password-page.tsx')),
          },
          {
            path: 'logout',
            lazy: page(() => import('#client/features/session/logout-page.tsx')),
          },
          {
            id: SHELL,
            lazy: page(() => import('./shell/shell-layout.tsx')),
            children: [
              { index: true, element: <FirstScreenRedirect /> },
              ...Object.values(screens).map(screenRoute),
              {
                path: 'help/:topic',
                handle: { crumb: 'header.help' },
                lazy: page(() => import('#client/features/help/help-page.tsx')),
              },
              {
                path: 'noaccess',
                lazy: page(() => import('#client/features/errors/no-access-page.tsx')),
              },
              {
                path: '*',
                lazy: page(() => import('#client/features/errors/not-found-page.tsx')),
              },
            ],
          },
        ],
      },
      { path: '*', element: <OutsideRoutes /> },
    ],
  },
];

/** Made by `start.tsx` in a task after this module's evaluation: matching the first address
 * against the flattened route table is the router's largest piece of work (issue 14). */
export const createRouter = () =>
  createBrowserRouter(routes, { patchRoutesOnNavigation: detailScreensOnDemand() });

/**
 * Adds the detail screens (detail-routes.ts) on the first address under /u/{i} that is not a
 * menu screen's: /u/0/policies/P-1 at first load or on a click. The router asks on every new
 * address with a parameter (all under /u/{i} have one), hence the test before the import.
 */
export function detailScreensOnDemand(): PatchRoutesOnNavigationFunction {
  let patched = false;
  return async ({ path, patch, signal }) => {
    const rest = /^\/u\/[^/]+\/?(.*)$/.exec(path)?.[1];
    if (patched || rest === undefined || rest === '' || menuScreenPaths.has(rest)) return;
    const { detailScreens } = await import('./detail-routes.ts');
    // Two navigations may have waited for the module; the routes go in once. An aborted one's
    // patch is ignored by the router, so the next navigation patches.
    if (patched || signal.aborted) return;
    patch(SHELL, Object.values(detailScreens).map(screenRoute));
    patched = true;
  };
}
// For `start.tsx`, which imports this module dynamically and react-router only through it.
export { RouterProvider } from 'react-router';
