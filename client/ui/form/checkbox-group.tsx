import type { ReactNode } from 'react';

/** A labelled group of checkboxes choosing a set of ids (roles of a user or an invitation). */
export function CheckboxGroup<Id extends string | number>({
  legend,
  options,
  value,
  onChange,
  disabled = false,
  children,
}: {
  legend: string;
  /** A hint shows under its option's label (a role's description, in the user's language). */
  options: readonly { id: Id; label: string; hint?: string | undefined }[];
  value: ReadonlySet<Id>;
  onChange: (next: ReadonlySet<Id>) => void;
  disabled?: boolean;
  /** Shown between the legend and the boxes (a loading spinner, a hint). */
  children?: ReactNode;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      {options.map((option) => (
        <label key={option.id} className="flex items-start gap-2 text-slate-800">
          <input
            type="checkbox"
            className="mt-1 size-4"
            checked={value.has(option.id)}
            disabled={disabled}
            onChange={(event) => {
              const next = new Set(value);
              if (event.target.checked) next.add(option.id);
              else next.delete(option.id);
              onChange(next);
            }}
          />
          <span className="flex flex-col">
            {option.label}
            {option.hint ? <span className="text-sm text-slate-600">{option.hint}</span> : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
