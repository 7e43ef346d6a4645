import type { InputHTMLAttributes } from 'react';
import { TextField } from './text-field.tsx';

/**
 * A password input of the sign-in and password forms: masked and required, labelled like any
 * text field, with the `autocomplete` that tells a password manager a sign-in
 * (`current-password`) from a password being set (`new-password`). `onChange` gets the value.
 */
export function PasswordField({
  onChange,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'value' | 'onChange'> & {
  label: string;
  name: string;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <TextField {...props} type="password" required onChange={(e) => onChange(e.target.value)} />
  );
}
