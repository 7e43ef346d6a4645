import { useTranslation } from 'react-i18next';
import { NotificationSocketContext } from '#client/api/notification-socket-context.ts';

const dots = {
  'socket.connecting': 'bg-amber-500',
  'socket.open': 'bg-emerald-600',
  'socket.waiting': 'bg-red-600',
  'socket.closed': 'bg-slate-500',
} as const;

/** The notification socket's state in the spec's words. */
export function ConnectionState() {
  const { t } = useTranslation('shell');
  const statusKey = NotificationSocketContext.useSelector((s) => s.context.statusKey);
  return (
    <p
      className="flex items-center gap-2"
      role="status"
      aria-live="polite"
      data-testid="connection-state"
    >
      <span aria-hidden="true" className={`size-2.5 rounded-full ${dots[statusKey]}`} />
      <span className="sr-only">{t('socket.label')}: </span>
      {t(statusKey)}
    </p>
  );
}
