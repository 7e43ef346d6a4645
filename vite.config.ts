import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localesBuildId } from './server/build-id.ts';
import { prerenderLoginPage } from './scripts/vite-prerender-login.ts';

/** Chunks every signed-in page has loaded (bench/bundle-size.ts lists them), by their names. */
const SHELL_CHUNK =
  /(^|\/)(rolldown-runtime|sign-in|xstate\.esm|xstate-react\.esm|session\.machine|session-logic|useTranslation|i18nInstance|shell-kit|shell-layout|guards|start|router|query|mutation|notification-socket|date-display-settings|lazy-module|last-account|query-keys|toast-list|leaving-page)-[\w-]+\.js$/;

export default defineConfig({
  root: 'client',
  publicDir: false,
  plugins: [react(), tailwindcss(), prerenderLoginPage()],
  define: { __BUILD_ID__: JSON.stringify(localesBuildId()) },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    manifest: true,
    // <link rel="modulepreload"> is only a hint: a browser without it (Firefox before 115, Safari
    // before 17) loads each chunk when it is imported, a little later, and the app still works.
    // The polyfill cost 0.4 KB gzip of every page's entry for those few.
    modulePreload: {
      polyfill: false,
      // A route's list of files to preload named the shell's own chunks again in every entry of
      // the route table (2.7 KB gzip of file names in the guards chunk alone). Inside the shell
      // those are loaded already: only the entry's import of the app keeps them. Dropping a name
      // only drops a hint: a static import still loads its file.
      resolveDependencies: (_file, deps, { hostId }) =>
        /(^|\/)index-/.test(hostId) ? deps : deps.filter((dep) => !SHELL_CHUNK.test(dep)),
    },
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What the light sign-in page paints with (issue 14), in one chunk beside the entry:
              // the bundler would otherwise split each module the app shares with it (React, the
              // form's kit parts) into a file of its own, one request each before the first paint.
              name: 'sign-in',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|client[\\/](app[\\/]quick-sign-in|features[\\/]session[\\/]login-form|i18n[\\/](sign-in-text|language)|ui[\\/](auth-frame|alert|button|text-field|fallback-logo|document-title)|api[\\/](account-storage|bff-client|fetch-json))\./,
            },
            {
              // The small modules every signed-in page loads with the shell, in one file: apart,
              // each cost a request, a compression stream and a name in the route table's list of
              // files (issue 14, shell budget). Only these modules: what they import stays where
              // the bundler puts it.
              name: 'shell-kit',
              test: /client[\\/](ui[\\/](spinner|page-title|hash-params|icons|dialog|toast|confirm-dialog|form[\\/]date-display-store)|api[\\/](app-config|tenant-client|session-context|tenant-branding-events|settings-client|notification-socket-context))\.|common[\\/]permissions\.|machines[\\/](confirm-dialog|chat-widget)\.machine\./,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
