import { describe, expect, it } from 'vitest';
import type { ToastInput } from '#client/ui/toast-list.ts';
import { saveOutcome } from './use-save-outcome.ts';

describe('saveOutcome', () => {
  const make = (savedMessage?: (saved: { n: number }) => string) => {
    const toasts: ToastInput[] = [];
    const seen: string[] = [];
    const outcome = saveOutcome<{ n: number }>(
      {
        fieldErrors: (error) => (error === 'field' ? { name: ['too_long'] } : null),
        failure: (error) => {
          seen.push(`failure ${String(error)}`);
          return `failed: ${String(error)}`;
        },
        onSaved: (saved) => seen.push(`saved ${saved.n}`),
        savedMessage,
      },
      (toast) => {
        seen.push('toast');
        toasts.push(toast);
      },
    );
    return { outcome, toasts, seen };
  };

  it('shows a refusal at the fields it names, without asking for the failure text', () => {
    const { outcome, seen } = make();
    expect(outcome.refusal('field')).toEqual({ errors: { name: ['too_long'] } });
    expect(seen).toEqual([]);
  });

  it('says a refusal that names no field above the form', () => {
    const { outcome, seen } = make();
    expect(outcome.refusal('busy')).toEqual({ failure: 'failed: busy' });
    expect(seen).toEqual(['failure busy']);
  });

  it('tells the page of a save, then toasts its message', () => {
    const { outcome, toasts, seen } = make((saved) => `saved ${saved.n}`);
    outcome.onSaved({ n: 3 });
    expect(seen).toEqual(['saved 3', 'toast']);
    expect(toasts).toEqual([{ message: 'saved 3', tone: 'success' }]);
  });

  it('shows no toast for a form without a saved message', () => {
    const { outcome, toasts, seen } = make();
    outcome.onSaved({ n: 1 });
    expect(seen).toEqual(['saved 1']);
    expect(toasts).toEqual([]);
  });
});
