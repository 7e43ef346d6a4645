import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';

/**
 * A modal for a form: Headless UI moves focus into it (the first field, or `data-autofocus`)
 * and back to the opening button when it closes. While busy it cannot be dismissed, so that an
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
  return (
    <Dialog open onClose={() => (busy ? undefined : onDismiss())} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
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
