import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';

/** A link that looks like a secondary button ("Back to roles"). */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
    >
      {children}
    </Link>
  );
}

/**
 * A page whose data did not load: the reason, a retry (not for "does not exist", which a retry
 * would not change) and the way back.
 */
export function LoadFailure({
  message,
  onRetry,
  back,
}: {
  message: string;
  onRetry: (() => void) | null;
  back: ReactNode;
}) {
  const { t } = useTranslation('admin_roles');
  return (
    <div className="flex flex-col items-start gap-3">
      <Alert tone="danger">{message}</Alert>
      <div className="flex gap-3">
        {onRetry ? (
          <Button variant="secondary" onClick={onRetry}>
            {t('retry')}
          </Button>
        ) : null}
        {back}
      </div>
    </div>
  );
}
