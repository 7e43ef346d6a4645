import { createContext, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addToast, removeToast, type Toast, type ToastInput } from './toast-list.ts';

type ShowToast = (input: ToastInput) => void;

const ToastContext = createContext<ShowToast | null>(null);

const tones: Record<Toast['tone'], string> = {
  danger: 'border-red-300 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

/** Renders the toasts of `useToast()` in a polite live region at the bottom right. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui');
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const show = useCallback<ShowToast>((input) => {
    const id = nextId.current++;
    setToasts((list) => addToast(list, id, input));
  }, []);
  const dismiss = useCallback((id: number) => setToasts((list) => removeToast(list, id)), []);
  return (
    <ToastContext value={show}>
      {children}
      <section
        aria-label={t('toast.region')}
        // The region exists before any toast so that screen readers announce additions.
        aria-live="polite"
        className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-80 flex-col gap-2"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} label={t('toast.dismiss')} />
        ))}
      </section>
    </ToastContext>
  );
}

function ToastItem({
  toast,
  onDismiss,
  label,
}: {
  toast: Toast;
  onDismiss: (id: number) => void;
  label: string;
}) {
  useEffect(() => {
    if (toast.duration === 0) return;
    const timer = setTimeout(() => onDismiss(toast.id), toast.duration);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <div
      className={`pointer-events-auto flex items-start gap-2 rounded-md border px-4 py-3 text-sm shadow-md ${tones[toast.tone]}`}
    >
      <p className="flex-1">{toast.message}</p>
      <button
        type="button"
        aria-label={label}
        className="rounded px-1 hover:bg-black/5"
        onClick={() => onDismiss(toast.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** `toast({ message, tone?, duration? })`; needs a `ToastProvider` above. */
export function useToast(): ShowToast {
  const show = use(ToastContext);
  if (show === null) throw new Error('useToast needs a ToastProvider');
  return useMemo(() => show, [show]);
}
