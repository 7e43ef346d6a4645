import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { errorKey } from './organization-form.ts';

export type CallResult<T> = { ok: true; value: T } | { ok: false };

/**
 * A form's call to the service: busy while it runs, and on failure the service's error in the
 * user's language. The form's values are not touched, so nothing typed is lost on an error.
 */
export function useServiceCall() {
  const { t } = useTranslation('admin_organizations');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<CallResult<T>> => {
      setFailure(null);
      setBusy(true);
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        // Service errors are expected and shown; anything else is a bug worth a log line.
        if (!(error instanceof ApiError)) console.error('organisation call failed', error);
        setFailure(t(errorKey(error instanceof ApiError ? error.code : undefined)));
        return { ok: false };
      } finally {
        setBusy(false);
      }
    },
    [t],
  );
  const clearFailure = useCallback(() => setFailure(null), []);
  return { busy, failure, clearFailure, run };
}
