import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { labelIn, type NameLabels } from '#common/name-labels.ts';

/** A lead status as the service lists it, as far as its text goes. */
export interface NamedStatus {
  name: string;
  labels?: NameLabels | undefined;
}

/**
 * Lead statuses are the tenant's own rows (spec: read from the server), with the tenant's texts
 * per language (`labels`, issue 15 point 16): a loaded status shows its label in the user's
 * language, else its name. Where the statuses are not loaded (a version's snapshot, the
 * customer's leads tab), the `leads` namespace's text of a default slug stands in, else the slug.
 * Shared by the leads screens and the customer's leads tab.
 */
export function useLeadStatusLabel(): (slug: string, status?: NamedStatus) => string {
  const { t, i18n } = useTranslation('leads');
  return useCallback(
    (slug: string, status?: NamedStatus) =>
      status
        ? labelIn(status, i18n.language)
        : t(`status.${slug}` as 'status.new', { defaultValue: slug }),
    [t, i18n.language],
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

export function LeadStatusBadge({
  status,
  named,
}: {
  status: string;
  /** The workspace's status of that slug, when the statuses are loaded. */
  named?: NamedStatus | undefined;
}) {
  const label = useLeadStatusLabel();
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs font-semibold ${STYLE[status] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {label(status, named)}
    </span>
  );
}
