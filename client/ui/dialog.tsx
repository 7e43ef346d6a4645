import { lazy, Suspense, useState, type ComponentProps } from 'react';
import type { Dialog as HeadlessDialog } from '@headlessui/react';

/**
 * Headless UI's `Dialog`, `DialogPanel` and `DialogTitle` with the same props, loaded when a dialog
 * first opens (issue 14: the shell and the screens do not carry the dialog code). Headless UI
 * still does the focus trap, Escape, the return of focus and the ARIA; the dialog only mounts a
 * moment later the first time, with the focus still on whatever opened it.
 */

const parts = () => import('./dialog-parts.ts');
const LoadedDialog = lazy(() => parts().then((m) => ({ default: m.Dialog })));
export const DialogPanel = lazy(() => parts().then((m) => ({ default: m.DialogPanel })));
export const DialogTitle = lazy(() => parts().then((m) => ({ default: m.DialogTitle })));

export function Dialog(props: ComponentProps<typeof HeadlessDialog>) {
  // Once opened it stays mounted, so that closing runs Headless UI's own close (focus return).
  const [opened, setOpened] = useState(Boolean(props.open));
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <LoadedDialog {...props} />
    </Suspense>
  );
}
