import { useEffect, type ReactNode } from 'react';
import type { SessionAccount } from '#machines/session.machine.ts';
import { setSessionExpiredListener } from '#client/api/fetch-json.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { router } from './router.tsx';
import { sessionLogicWith } from './session-logic.ts';

// Every navigation of the session replaces the entry (no way back into a finished sign-in).
const sessionLogic = sessionLogicWith((to) => void router.navigate(to, { replace: true }));

/** Turns the fetch wrapper's 401 `session_expired` into the machine's event. */
function SessionExpiryBridge() {
  const actor = SessionActorContext.useActorRef();
  useEffect(() => {
    setSessionExpiredListener((accountIndex, isNotUiPermission) => {
      const { pathname, search, hash } = window.location;
      actor.send({
        type: 'session.expired',
        accountIndex,
        location: pathname + search + hash,
        isNotUiPermission,
      });
    });
    return () => setSessionExpiredListener(undefined);
  }, [actor]);
  return null;
}

export function SessionProvider({
  accounts,
  children,
}: {
  accounts: SessionAccount[];
  children: ReactNode;
}) {
  return (
    <SessionActorContext.Provider logic={sessionLogic} options={{ input: { accounts } }}>
      <SessionExpiryBridge />
      {children}
    </SessionActorContext.Provider>
  );
}
