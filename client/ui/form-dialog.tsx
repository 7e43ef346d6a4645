import { Dialog, DialogPanel, DialogTitle } from './dialog.tsx';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { AlertBar } from './alert-bar.tsx';
import { Button } from './button.tsx';

const FIRST_FIELD = 'input:not([disabled]):not([readonly]), select, textarea';

/**
 * A modal for a form: focus moves to its first field when it opens (Headless UI would focus the
 * panel, and the shared inputs take no autofocus prop) and back to the opening button when it
 * closes. While busy it cannot be dismissed, so that an
 * answer never arrives for a dialog that is gone.
 */
export function FormDialog({
  title,
  busy,
  onDismiss,
  wide = false,
  children,
}: {
  title: string;
  busy: boolean;
  onDismiss: () => void;
  wide?: boolean;
  children: ReactNode;
}) {
  // When the panel is in the page, which the first time a dialog opens is only once the dialog's
  // code has loaded (./dialog.tsx): an effect of this component would run before that and find
  // no panel. A frame later, after Headless UI's own initial focus.
  const frame = useRef(0);
  const focusFirstField = useCallback((panel: HTMLDivElement | null) => {
    cancelAnimationFrame(frame.current);
    if (!panel) return;
    frame.current = requestAnimationFrame(() =>
      panel.querySelector<HTMLElement>(FIRST_FIELD)?.focus(),
    );
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return (
    <Dialog open onClose={() => (busy ? undefined : onDismiss())} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          ref={focusFirstField}
          className={`max-h-full w-full overflow-y-auto rounded-lg bg-white p-6 shadow-xl ${wide ? 'max-w-2xl' : 'max-w-lg'}`}
          aria-busy={busy}
        >
          <DialogTitle className="text-lg font-bold text-slate-900">{title}</DialogTitle>
          <div className="mt-4">{children}</div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/**
 * The foot of a form dialog: the refusal, if any (dismissible when `onDismissFailure` is given),
 * then cancel and submit. Both buttons are disabled while busy, and the submit button says so.
 */
export function FormDialogFooter({
  failure,
  onDismissFailure,
  busy,
  cancelLabel,
  submitLabel,
  busyLabel,
  tone = 'primary',
  onCancel,
}: {
  failure: string | null;
  onDismissFailure?: () => void;
  busy: boolean;
  cancelLabel: string;
  submitLabel: string;
  busyLabel: string;
  /** `danger` when submitting destroys or ends something (cancelling a claim). */
  tone?: 'primary' | 'danger';
  onCancel: () => void;
}) {
  return (
    <>
      {failure ? (
        onDismissFailure ? (
          <AlertBar tone="danger" onDismiss={onDismissFailure}>
            {failure}
          </AlertBar>
        ) : (
          <Alert tone="danger">{failure}</Alert>
        )
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" disabled={busy} onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button type="submit" variant={tone} disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </>
  );
}
