import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { messageOfCode } from '#client/ui/form/messages.ts';
import { errorIssues } from '#common/contracts/error.ts';
import { errorKey } from './organization-form.ts';

/**
 * The fields a service refusal names (`issues`), as form errors: the code's text of this feature
 * when it has one (a taken name), else the form kit's message for the code.
 */
function fieldErrorsOf(error: ApiError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of errorIssues(error.body)) {
    const key = errorKey(issue.code);
    const text =
      key === 'errors.generic' ? messageOfCode(issue.code) : `admin_organizations:${key}`;
    (errors[issue.path] ??= []).push(text);
  }
  return errors;
}

export type CallResult<T> = { ok: true; value: T } | { ok: false };

/**
 * A form's call to the service: busy while it runs, and on failure the service's error in the
 * user's language. The form's values are not touched, so nothing typed is lost on an error.
 */
export function useServiceCall() {
  const { t } = useTranslation('admin_organizations');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<CallResult<T>> => {
      setFailure(null);
      setFieldErrors({});
      setBusy(true);
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        // Service errors are expected and shown; anything else is a bug worth a log line.
        if (!(error instanceof ApiError)) console.error('organisation call failed', error);
        setFailure(t(errorKey(error instanceof ApiError ? error.code : undefined)));
        if (error instanceof ApiError) setFieldErrors(fieldErrorsOf(error));
        return { ok: false };
      } finally {
        setBusy(false);
      }
    },
    [t],
  );
  const clearFailure = useCallback(() => setFailure(null), []);
  return { busy, failure, fieldErrors, clearFailure, run };
}
