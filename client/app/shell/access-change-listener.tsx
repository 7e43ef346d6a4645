import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshAccount } from '#client/api/bff-client.ts';
import { isAccessChange } from '#client/api/notification-socket.ts';
import { NotificationSocketContext } from '#client/api/notification-socket-context.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { useToast } from '#client/ui/toast.tsx';

/**
 * Applies an access change at once: the BFF refreshes the account's token, and the new
 * permissions reach the session machine, so the menu and the route guards follow without a
 * reload. A user who was disabled or deleted gets 401 `session_expired` (a disabled one with the
 * reason `user_disabled`, so the sign-in page says so), which the fetch wrapper already turns
 * into the sign-in redirect.
 */
export function AccessChangeListener({ accountIndex }: { accountIndex: number }) {
  const { t } = useTranslation('shell');
  const session = SessionActorContext.useActorRef();
  const toast = useToast();
  const lastMessage = NotificationSocketContext.useSelector((s) => s.context.lastMessage);

  useEffect(() => {
    if (!isAccessChange(lastMessage)) return;
    const controller = new AbortController();
    refreshAccount(accountIndex, controller.signal)
      .then(({ account }) => {
        session.send({ type: 'account.updated', account });
        toast({ tone: 'info', message: t('access.changed') });
      })
      .catch((error: unknown) => {
        // The next call refreshes anyway; only a session end (handled centrally) matters here.
        if (!controller.signal.aborted) console.warn('access refresh failed', error);
      });
    return () => controller.abort();
  }, [lastMessage, accountIndex, session, toast, t]);

  return null;
}
