// The tenant's own statuses: the seeded slugs get a colour, any other a neutral one.
const STYLE: Record<string, string> = {
  open: 'bg-sky-100 text-sky-900',
  'in-review': 'bg-indigo-100 text-indigo-900',
  'waiting-for-documents': 'bg-amber-100 text-amber-900',
  approved: 'bg-green-100 text-green-900',
  settled: 'bg-emerald-100 text-emerald-900',
  rejected: 'bg-red-100 text-red-900',
  closed: 'bg-slate-200 text-slate-800',
};

/**
 * A claim's status by the name the tenant gives it (spec: claim statuses come from the server);
 * until the statuses are read, or for a status the tenant no longer lists, its slug.
 */
export function ClaimStatusBadge({ status, name }: { status: string; name?: string | undefined }) {
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs font-semibold ${STYLE[status] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {name ?? status}
    </span>
  );
}
