import { useEffect, useRef, type ComponentProps } from 'react';
import type {
  Dialog as HeadlessDialog,
  DialogPanel as HeadlessPanel,
  DialogTitle as HeadlessTitle,
} from '@headlessui/react';
import { lazyModule, useLazyModule } from './lazy-module.ts';

/**
 * Headless UI's `Dialog`, `DialogPanel` and `DialogTitle` with the same props, loaded when a dialog
 * first opens (issue 14: the shell and the screens do not carry the dialog code). Headless UI
 * still does the focus trap, Escape, the return of focus and the ARIA; the dialog only mounts a
 * moment later the first time, with the focus still on whatever opened it.
 */

const parts = lazyModule(() => import('./dialog-parts.ts'));

export function Dialog(props: ComponentProps<typeof HeadlessDialog>) {
  const [loaded, load] = useLazyModule(parts);
  const open = Boolean(props.open);
  // The opener, taken while rendering the opening dialog: by the time this component's effect
  // runs, Headless UI's (a child's, so earlier) may have moved the focus into the dialog.
  const opener = useRef<Element | null>(null);
  if (!open) opener.current = null;
  else if (!opener.current && typeof document !== 'undefined') {
    opener.current = document.activeElement;
  }
  useEffect(() => {
    if (!open) return;
    load();
    // Headless UI cannot give the focus back to an opener it never saw (the first time it
    // mounts after its code arrived), so on close or unmount this does, unless something
    // else took the focus.
    const from = opener.current;
    return () => returnFocus(from);
  }, [open, load]);
  // Once loaded it stays mounted, so that closing runs Headless UI's own close.
  return loaded ? <loaded.Dialog {...props} /> : null;
}

/** Rendered only inside a `Dialog`, which renders nothing until the parts are loaded. */
export function DialogPanel(props: ComponentProps<typeof HeadlessPanel>) {
  const loaded = parts.loaded();
  return loaded ? <loaded.DialogPanel {...props} /> : null;
}

export function DialogTitle(props: ComponentProps<typeof HeadlessTitle>) {
  const loaded = parts.loaded();
  return loaded ? <loaded.DialogTitle {...props} /> : null;
}

/** A frame later, so that Headless UI's own return, when it has one, comes first. */
function returnFocus(opener: Element | null): void {
  if (!(opener instanceof HTMLElement)) return;
  requestAnimationFrame(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && opener.isConnected) opener.focus();
  });
}
