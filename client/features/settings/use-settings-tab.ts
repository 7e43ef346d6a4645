import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isAllowed } from '#common/permissions.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { apiErrorKey } from '#client/api/error-text.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { useToast } from '#client/ui/toast.tsx';

/** The account of the screen and whether it may save (the service checks every call anyway). */
export function useSettingsAccount(): { accountIndex: number; canEdit: boolean } {
  const { accountIndex = '0' } = useParams();
  const permissions = SessionActorContext.useSelector(
    (s) => s.context.accounts.find((a) => String(a.accountIndex) === accountIndex)?.permissions,
  );
  return {
    accountIndex: Number(accountIndex),
    canEdit: isAllowed(permissions ?? [], { anyOf: [['tenant-management.settings.update']] }),
  };
}

export type Loaded<T> = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; data: T };

/** Loads a tab's data once per account; `retry` loads again after a failure. */
export function useLoaded<T>(
  load: (accountIndex: number, signal: AbortSignal) => Promise<T>,
  accountIndex: number,
): { loaded: Loaded<T>; retry: () => void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    load(accountIndex, controller.signal)
      .then((data) => setLoaded({ status: 'ready', data }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('settings load failed', error);
        setLoaded({ status: 'failed' });
      });
    return () => controller.abort();
    // `load` is a module-level function of each tab; the account and retries reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [accountIndex, attempt]);
  return { loaded, retry: useCallback(() => setAttempt((n) => n + 1), []) };
}

/**
 * Runs a save: busy while it runs, a success toast after, and on failure a message that stays
 * on the form (with the service's reason for a refused value). The form keeps what was typed.
 */
export function useSave(): {
  saving: boolean;
  error: string | null;
  save: (run: () => Promise<void>) => Promise<boolean>;
} {
  const { t } = useTranslation(['tenant_settings', 'errors']);
  const toast = useToast();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = useCallback(
    async (run: () => Promise<void>) => {
      setSaving(true);
      setError(null);
      try {
        await run();
        toast({ message: t('saved'), tone: 'success' });
        return true;
      } catch (failure: unknown) {
        console.error('settings save failed', failure);
        if (failure instanceof ApiError && failure.status === 400) {
          setError(t('save_refused', { reason: t(apiErrorKey(failure)) }));
        } else if (failure instanceof ApiError && failure.status === 403) {
          setError(t('save_forbidden'));
        } else setError(t('save_failed'));
        return false;
      } finally {
        setSaving(false);
      }
    },
    [t, toast],
  );
  return { saving, error, save };
}

/** The state every settings form has: its values, their errors and the save. */
export function useSettingsForm<T>(initial: T) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  return { values, setValues, errors, setErrors, ...useSave() };
}
