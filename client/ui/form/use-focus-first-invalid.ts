import { useEffect, useRef } from 'react';

/**
 * After a refused submit, focus moves to the first field marked invalid, so that a keyboard or
 * screen-reader user lands on what to fix instead of staying on the submit button. It runs when
 * a new set of errors arrives (each submit makes a new object) and the form is enabled again:
 * a disabled input takes no focus. Returns the ref for the form.
 */
export function useFocusFirstInvalid(errors: object, busy: boolean) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (busy) return;
    const any = Object.values(errors).some((e: unknown) =>
      Array.isArray(e) ? e.length > 0 : Boolean(e),
    );
    if (!any) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors, busy]);
  return form;
}
