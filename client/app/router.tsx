import { createBrowserRouter, type RouteObject } from 'react-router';
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
import { allScreens } from './route-table.ts';

// Every page is a lazy route: the sign-in page loads only its own code on top of the entry.
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const screenRoutes: RouteObject[] = allScreens.map((screen) => ({
  path: screen.path,
  element: <PermissionGuard rule={screen.rule} />,
  handle: { crumb: screen.label, parent: screen.parent },
  children: [{ index: true, lazy: page(screen.load) }],
}));

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
            lazy: page(() => import('./shell/shell-layout.tsx')),
            children: [
              { index: true, element: <FirstScreenRedirect /> },
              ...screenRoutes,
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
export const createRouter = () => createBrowserRouter(routes);
// For `start.tsx`, which imports this module dynamically and react-router only through it.
export { RouterProvider } from 'react-router';
