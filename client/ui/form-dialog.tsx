import { Dialog, DialogPanel, DialogTitle } from './dialog.tsx';
import { useEffect, useRef, type ReactNode } from 'react';

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
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After Headless UI's own initial focus, which runs when the dialog mounts.
    const frame = requestAnimationFrame(() =>
      panel.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <Dialog open onClose={() => (busy ? undefined : onDismiss())} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          ref={panel}
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
