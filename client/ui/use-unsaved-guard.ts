import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { useConfirm } from './confirm-dialog.tsx';

export interface LeaveQuestion {
  title: string;
  message: string;
  confirmLabel: string;
}

/**
 * Unsaved changes: while `dirty`, leaving the page asks first (the product's confirm dialog),
 * and so does closing or reloading the tab (the browser's own question). Moving within the page
 * (its hash, its query) is no leaving.
 */
export function useUnsavedChangesGuard(dirty: boolean, question: LeaveQuestion): void {
  const confirm = useConfirm();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  // One question per blocked navigation, however often the page renders while it is open.
  const asked = useRef<unknown>(null);
  const { title, message, confirmLabel } = question;
  useEffect(() => {
    if (blocker.state !== 'blocked') {
      asked.current = null;
      return;
    }
    if (asked.current === blocker.location) return;
    asked.current = blocker.location;
    void confirm({ title, message, confirmLabel, tone: 'danger' }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker, confirm, title, message, confirmLabel]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
