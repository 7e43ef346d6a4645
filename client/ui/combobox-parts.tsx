import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import type { SearchFieldProps } from './lazy-combobox.tsx';

// Headless UI's combobox, only ever imported lazily (`./lazy-combobox.tsx`), so that the shell's
// first load does not carry it, nor the virtual list and floating-ui code it brings.

export const comboboxParts = { ComboboxOptions, ComboboxOption };
export type ComboboxParts = typeof comboboxParts;

export function LoadedCombobox<T>({
  field,
  focusOnMount,
  onChoose,
  options,
}: {
  field: SearchFieldProps;
  /** The plain field it replaces had the focus: keep the user typing where they were. */
  focusOnMount: boolean;
  onChoose: (choice: T) => void;
  options: (parts: ComboboxParts) => ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  // A layout effect runs in the same task as the swap, before the browser handles another key.
  useLayoutEffect(() => {
    const el = input.current;
    if (!focusOnMount || !el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
    // Only on the mount that replaced the plain field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Combobox
      value={null}
      onChange={(choice: T | null) => {
        if (choice) onChoose(choice);
      }}
      onClose={() => field.onQueryChange('')}
      // Text typed into the plain field before this loaded shows its results on the focus above,
      // and again whenever the user comes back to a field with text in it.
      immediate={field.query.trim() !== ''}
    >
      <div className={field.boxClassName}>
        <ComboboxInput
          ref={input}
          aria-label={field['aria-label']}
          placeholder={field.placeholder}
          className={field.className}
          value={field.query}
          onChange={(event) => field.onQueryChange(event.target.value)}
        />
        {options(comboboxParts)}
      </div>
    </Combobox>
  );
}
