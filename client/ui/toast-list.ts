import type { AlertTone } from './alert-bar.tsx';

export interface Toast {
  id: number;
  tone: AlertTone;
  message: string;
  /** Milliseconds until it disappears on its own; 0 keeps it until dismissed. */
  duration: number;
}

export type ToastInput = { message: string; tone?: AlertTone; duration?: number };

/** Long enough to read a sentence; errors stay a little longer. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_ERROR_DURATION_MS = 8000;
/** Older toasts give way: a burst of finished bulk actions must not cover the screen. */
export const MAX_TOASTS = 4;

export function addToast(list: readonly Toast[], id: number, input: ToastInput): Toast[] {
  const tone = input.tone ?? 'success';
  const duration =
    input.duration ?? (tone === 'danger' ? TOAST_ERROR_DURATION_MS : TOAST_DURATION_MS);
  return [...list, { id, tone, message: input.message, duration }].slice(-MAX_TOASTS);
}

export function removeToast(list: readonly Toast[], id: number): Toast[] {
  return list.filter((toast) => toast.id !== id);
}
