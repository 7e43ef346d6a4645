import { useState, type ReactNode } from 'react';
import type { ComboboxParts } from './combobox-parts.tsx';
import { lazyModule, useLazyModule } from './lazy-module.ts';

/**
 * A search field with Headless UI's combobox, whose code loads when the field is first pointed
 * at or focused (issue 14: the shell does not carry the combobox and its virtual list). Until
 * then it is a plain text field bound to the same query, so what the user types at once is kept;
 * the combobox then takes its place with the focus and the caret where they were.
 */

export interface SearchFieldProps {
  'aria-label': string;
  placeholder: string;
  /** Class of the input. */
  className: string;
  /** Class of the box around the input and the options. */
  boxClassName: string;
  query: string;
  onQueryChange: (query: string) => void;
}

const parts = lazyModule(() => import('./combobox-parts.tsx'));

export function LazyCombobox<T>({
  field,
  onChoose,
  children,
}: {
  field: SearchFieldProps;
  onChoose: (choice: T) => void;
  /** The options, built from Headless UI's parts once they are loaded. */
  children: (parts: ComboboxParts) => ReactNode;
}) {
  const [loaded, load] = useLazyModule(parts);
  const [focused, setFocused] = useState(false);
  if (loaded) {
    return (
      <loaded.LoadedCombobox<T>
        field={field}
        focusOnMount={focused}
        onChoose={onChoose}
        options={children}
      />
    );
  }
  return (
    <div className={field.boxClassName}>
      <input
        type="text"
        // The same role and state Headless UI's input gives, so the field reads the same before.
        role="combobox"
        aria-expanded={false}
        aria-autocomplete="list"
        aria-label={field['aria-label']}
        placeholder={field.placeholder}
        className={field.className}
        value={field.query}
        onChange={(event) => field.onQueryChange(event.target.value)}
        onPointerEnter={load}
        onFocus={() => {
          setFocused(true);
          load();
        }}
        onBlur={() => setFocused(false)}
      />
    </div>
  );
}
