import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Lead statuses are the tenant's own rows (spec: read from the server). The known slugs have
 * translations in the `leads` namespace; a status only this tenant has shows the name the server
 * gives it. Shared by the leads screens and the customer's leads tab.
 */
export function useLeadStatusLabel(): (slug: string, name?: string) => string {
  const { t } = useTranslation('leads');
  return useCallback(
    (slug: string, name?: string) =>
      t(`status.${slug}` as 'status.new', { defaultValue: name ?? slug }),
    [t],
  );
}

const STYLE: Record<string, string> = {
  new: 'bg-sky-100 text-sky-900',
  contacted: 'bg-indigo-100 text-indigo-900',
  quoted: 'bg-amber-100 text-amber-900',
  approved: 'bg-green-100 text-green-900',
  declined: 'bg-red-100 text-red-900',
  converted: 'bg-slate-200 text-slate-800',
};

export function LeadStatusBadge({ status, name }: { status: string; name?: string | undefined }) {
  const label = useLeadStatusLabel();
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs font-semibold ${STYLE[status] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {label(status, name)}
    </span>
  );
}
