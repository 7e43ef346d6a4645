import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { useToast } from '#client/ui/toast.tsx';
import type { ToastInput } from '#client/ui/toast-list.ts';

/**
 * How a record form answers the end of a save, for `useRecordSave` and its kin: a refusal shows at
 * the fields it names, else as one message above the form; a save tells the page the saved record
 * and, when the form has one, says so in a success toast.
 */
export interface SaveOutcome<R> {
  /** The errors at the form's fields a refusal names; null (or undefined) when it names none. */
  fieldErrors: (error: unknown) => FieldErrors | null | undefined;
  /** The refusal above the form, in the user's words (may also bring the page up to date). */
  failure: (error: unknown) => string;
  /** What the page does with the saved record. */
  onSaved?: (saved: R) => void;
  /** The success toast after a save; none without it. */
  savedMessage?: (saved: R) => string;
}

/** The `refusal` and `onSaved` options of a record form, from its SaveOutcome (spread them in). */
export function useSaveOutcome<R>(outcome: SaveOutcome<R>) {
  return saveOutcome(outcome, useToast());
}

/** useSaveOutcome with the toast given: the page is told of the save before the toast shows. */
export function saveOutcome<R>(
  { fieldErrors, failure, onSaved, savedMessage }: SaveOutcome<R>,
  toast: (input: ToastInput) => void,
) {
  return {
    refusal: (error: unknown): { errors: FieldErrors } | { failure: string } => {
      const errors = fieldErrors(error);
      return errors ? { errors } : { failure: failure(error) };
    },
    onSaved: (saved: R) => {
      onSaved?.(saved);
      if (savedMessage) toast({ message: savedMessage(saved), tone: 'success' });
    },
  };
}
