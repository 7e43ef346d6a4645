/**
 * A small button inside a table row. `name` is its accessible name, which says which row it acts
 * on ("Delete the invitation of ..."), since the visible label alone repeats in every row.
 */
export function RowButton({
  label,
  name,
  onClick,
}: {
  label: string;
  name: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={name}
      onClick={onClick}
      className="rounded border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-100"
    >
      {label}
    </button>
  );
}
