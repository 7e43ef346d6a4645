import { StrictMode, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import type { SnapshotFrom } from 'xstate';
import type { sessionMachine } from '#machines/session.machine.ts';
import { getSession } from '#client/api/bff-client.ts';
import { detectLanguage, type Language } from '#client/i18n/language.ts';
import { signInText } from '#client/i18n/sign-in-text.ts';
import { setDocumentTitle } from '#client/ui/document-title.ts';
import {
  LoginForm,
  carryTypedSignIn,
  type SignInSubmit,
  type SignInText,
} from '#client/features/session/login-form.tsx';

/**
 * The light sign-in page (issue 14): the entry paints /login's form with React alone and a
 * precompiled text lookup; the session machine (xstate) loads after the first paint, and the app
 * (router, i18next, the shell) only when the user leaves the page, signed in or by a link. The
 * app then starts at the new URL in the same React root.
 */

type SessionActor = ReturnType<typeof import('./session-logic.ts').startSessionActor>;

let appRoot: Root | undefined;

/** `carryTyped`: the app opens its own sign-in form, which takes over what was typed into this one. */
function startAppAt(to: string, replace: boolean, carryTyped = false): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  // The router reads the URL when its module runs, so it is imported only now. Typed values are
  // read at the last moment before the app replaces the form, and only for the app's sign-in form
  // (never kept for a later one: a signed-in user's next form starts empty).
  void import('./start.tsx').then(({ startApp }) => {
    if (carryTyped) carryTypedSignIn();
    startApp(appRoot!);
  });
}

/** An in-app link without the router: a plain click starts the app there, others stay native. */
function QuickLink({
  to,
  className,
  children,
}: {
  to: string;
  className: string;
  children: ReactNode;
}) {
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    startAppAt(to, false);
  }
  return (
    <a href={to} className={className} onClick={follow}>
      {children}
    </a>
  );
}

function QuickSignIn({ t, search }: { t: SignInText; search: string }) {
  const [state, setState] = useState<SnapshotFrom<typeof sessionMachine>>();
  const actor = useRef<SessionActor | undefined>(undefined);
  // A submit made before the machine is there is sent as soon as it is.
  const pending = useRef<SignInSubmit | undefined>(undefined);

  useEffect(() => {
    setDocumentTitle(t('login.title'), t('common:product.name'));
  }, [t]);

  useEffect(() => {
    let stopped = false;
    void Promise.all([
      import('./session-logic.ts'),
      getSession().catch(() => ({ accounts: [] })),
    ]).then(([{ startSessionActor }, session]) => {
      if (stopped) return;
      // Signed in already (the stored list was empty or cleared): the app's page adds an account.
      if (session.accounts.length > 0) {
        startAppAt(window.location.pathname + window.location.search, true, true);
        return;
      }
      const running = startSessionActor((to) => startAppAt(to, true));
      running.subscribe(setState);
      setState(running.getSnapshot());
      actor.current = running;
      if (pending.current) send(pending.current);
    });
    return () => {
      stopped = true;
      actor.current?.stop();
    };
  }, []);

  function send({ credentials, backUrl }: SignInSubmit) {
    pending.current = undefined;
    actor.current!.send({ type: 'signIn.submit', credentials, ...(backUrl ? { backUrl } : {}) });
  }

  return (
    <LoginForm
      t={t}
      state={state}
      search={new URLSearchParams(search)}
      Link={QuickLink}
      onSubmit={(submit) => {
        if (actor.current) send(submit);
        else pending.current = submit;
      }}
      onSso={(path) => startAppAt(path, false)}
    />
  );
}

/** The light page as one element: what the entry renders and what the build prerenders. */
export function quickSignInPage(language: Language, search: string) {
  return (
    <StrictMode>
      <QuickSignIn t={signInText(language)} search={search} />
    </StrictMode>
  );
}

/**
 * Renders the light page into `container`. The server sends /login with the form already in the
 * HTML (`login.<language>.html`, prerendered at build time by scripts/vite-prerender-login.ts), so
 * the form paints before any script has run; React then takes over that markup (hydration) when
 * it would render the same: the same language and no message from the address. Otherwise it
 * renders afresh, which replaces the prerendered form on the first commit.
 */
export function renderQuickSignIn(container: HTMLElement): void {
  const language = detectLanguage();
  document.documentElement.lang = language;
  const search = window.location.search;
  const page = quickSignInPage(language, search);
  if (container.dataset.prerendered === language && sameAsPrerendered(search)) {
    appRoot = hydrateRoot(container, page);
  } else {
    appRoot = createRoot(container);
    appRoot.render(page);
  }
}

/** The prerendered page is the one without a query; only the flags of why an account ended
 * (no UI permission, user disabled) change it. */
function sameAsPrerendered(search: string): boolean {
  const query = new URLSearchParams(search);
  return !query.get('isNotUiPermission') && !query.get('isUserDisabled');
}
