import { useMemo, useState } from 'react';
import type * as v from 'valibot';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import type { StepValues } from '#machines/registration-wizard.ts';

/**
 * The form of one wizard step: its values (starting from what the wizard kept), validation on
 * every change, and the errors to show: those of the fields changed so far, or all of them once
 * the user tried to go on.
 */
export function useStepForm(schema: v.GenericSchema<unknown, unknown>, initial: StepValues) {
  const [values, setValues] = useState<StepValues>(initial);
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const [revealed, setRevealed] = useState(false);
  const result = useMemo(() => validateForm(schema, values), [schema, values]);
  const errors: FieldErrors = revealed
    ? result.errors
    : Object.fromEntries(Object.entries(result.errors).filter(([name]) => changed.has(name)));
  return {
    values,
    errors,
    isValid: result.success,
    set(name: string, value: unknown) {
      setValues((current) => ({ ...current, [name]: value }));
      setChanged((current) => new Set(current).add(name));
    },
    /** Shows every error; true when there is none (the step may be left forwards). */
    check(): boolean {
      setRevealed(true);
      return result.success;
    },
  };
}

export type StepForm = ReturnType<typeof useStepForm>;
