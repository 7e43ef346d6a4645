import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';
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
  // What had the focus when the dialog was asked to open: the first time, Headless UI mounts
  // only after its code arrived and may not know it, so focus goes back to it here when the
  // dialog closes and nothing else has taken it (or the dialog goes with the screen).
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (props.open && !wasOpen.current && typeof document !== 'undefined') {
    opener.current = document.activeElement as HTMLElement | null;
  }
  useEffect(() => {
    const open = Boolean(props.open);
    if (wasOpen.current && !open) returnFocus(opener.current);
    wasOpen.current = open;
  }, [props.open]);
  useEffect(() => () => returnFocus(opener.current), []);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <LoadedDialog {...props} />
    </Suspense>
  );
}

/** Back to the opener once the dialog has let the focus go (to the page's body), a frame later
 * so that Headless UI's own return, when it has one, comes first. */
function returnFocus(opener: HTMLElement | null): void {
  if (!opener) return;
  requestAnimationFrame(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && opener.isConnected) opener.focus();
  });
}
