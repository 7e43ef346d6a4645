import type { ReactNode } from 'react';

type Tone = 'danger' | 'warning' | 'info' | 'success';

const tones: Record<Tone, string> = {
  danger: 'border-red-300 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

export function Alert({ tone = 'info', children }: { tone?: Tone; children: ReactNode }) {
  // Errors interrupt (role=alert); other tones are announced politely.
  return (
    <div
      role={tone === 'danger' ? 'alert' : 'status'}
      className={`rounded-md border px-4 py-3 text-sm ${tones[tone]}`}
    >
      {children}
    </div>
  );
}
