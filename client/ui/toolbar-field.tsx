import { useId } from 'react';

const controlClass = 'rounded-md border border-slate-400 px-3 py-2';

/** A labelled text or search input of a list's toolbar (above the table, not inside a form). */
export function ToolbarInput({
  label,
  value,
  onChange,
  type = 'search',
  placeholder,
  className = 'w-64',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'search' | 'text' | 'date' | 'month';
  placeholder?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        className={`${controlClass} ${className}`}
      />
    </div>
  );
}

/**
 * A labelled select of a list's toolbar; the first entry (value '') stands for "all". A value the
 * options do not hold (they are still loading, or failed to) stays shown by itself rather than
 * falling back to "all" while the list is filtered by it.
 */
export function ToolbarSelect({
  label,
  value,
  onChange,
  allLabel,
  options,
  disabled = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  allLabel: string;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
}) {
  const id = useId();
  const shown =
    value && !options.some((option) => option.value === value)
      ? [...options, { value, label: value }]
      : options;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        className={controlClass}
      >
        <option value="">{allLabel}</option>
        {shown.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
