import { useTranslation } from 'react-i18next';

// Each status its colour, dark text on a light ground (WCAG AA in every pair).
const STYLE: Record<string, string> = {
  active: 'bg-sky-100 text-sky-900',
  failed: 'bg-red-100 text-red-900',
  completed: 'bg-green-100 text-green-900',
  cancelled: 'bg-slate-200 text-slate-800',
};

/** A workflow instance's status in the user's language, in its colour. */
export function InstanceStatusBadge({ status, testId }: { status: string; testId?: string }) {
  const { t } = useTranslation('workflow_monitor');
  const known = Object.hasOwn(STYLE, status);
  return (
    <span
      data-testid={testId}
      className={`rounded px-2 py-0.5 text-xs font-semibold ${STYLE[status] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {known ? t(`statuses.${status as 'active'}`) : status}
    </span>
  );
}
