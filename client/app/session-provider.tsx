import { useEffect, useState, type ReactNode } from 'react';
import type { createBrowserRouter } from 'react-router';
import type { SessionAccount } from '#machines/session.machine.ts';
import { setSessionExpiredListener } from '#client/api/fetch-json.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { sessionLogicWith } from './session-logic.ts';

/** Turns the fetch wrapper's 401 `session_expired` into the machine's event. */
function SessionExpiryBridge() {
  const actor = SessionActorContext.useActorRef();
  useEffect(() => {
    setSessionExpiredListener((accountIndex, reason) => {
      const { pathname, search, hash } = window.location;
      actor.send({
        type: 'session.expired',
        accountIndex,
        location: pathname + search + hash,
        ...(reason ? { reason } : {}),
      });
    });
    return () => setSessionExpiredListener(undefined);
  }, [actor]);
  return null;
}

/**
 * The session actor around the app. The router is handed in rather than imported: `start.tsx`
 * loads it as a module of its own (see there).
 */
export function SessionProvider({
  accounts,
  router,
  children,
}: {
  accounts: SessionAccount[];
  router: ReturnType<typeof createBrowserRouter>;
  children: ReactNode;
}) {
  // Every navigation of the session replaces the entry (no way back into a finished sign-in).
  const [sessionLogic] = useState(() =>
    sessionLogicWith((to) => void router.navigate(to, { replace: true })),
  );
  return (
    <SessionActorContext.Provider logic={sessionLogic} options={{ input: { accounts } }}>
      <SessionExpiryBridge />
      {children}
    </SessionActorContext.Provider>
  );
}
