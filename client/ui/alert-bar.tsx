import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type AlertTone = 'info' | 'success' | 'warning' | 'danger';

const tones: Record<AlertTone, string> = {
  danger: 'border-red-300 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

/**
 * A dismissible alert bar. Uncontrolled by default (dismissing hides it); pass `onDismiss` to
 * control it from outside (e.g. clear the error in a machine).
 */
export function AlertBar({
  tone = 'info',
  children,
  onDismiss,
  dismissible = true,
}: {
  tone?: AlertTone;
  children: ReactNode;
  onDismiss?: () => void;
  dismissible?: boolean;
}) {
  const { t } = useTranslation('ui');
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  return (
    <div
      // Errors interrupt (role=alert); other tones are announced politely.
      role={tone === 'danger' ? 'alert' : 'status'}
      className={`flex items-start justify-between gap-3 rounded-md border px-4 py-3 text-sm ${tones[tone]}`}
    >
      <div className="min-w-0 flex-1">{children}</div>
      {dismissible ? (
        <button
          type="button"
          aria-label={t('alert.dismiss')}
          className="-my-1 rounded px-2 py-1 hover:bg-black/5"
          onClick={() => {
            if (onDismiss) onDismiss();
            else setHidden(true);
          }}
        >
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}
