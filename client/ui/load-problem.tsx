import { useTranslation } from 'react-i18next';
import { AlertBar } from './alert-bar.tsx';
import { Button } from './button.tsx';
import { isNotFound } from './load-state.ts';

/**
 * Something a page needs did not load: a whole record (with the page's `title`), or a part of the
 * page (a list's filter options, without one). A 404 of a record (unknown, or another tenant's)
 * says with `notFound` that it does not exist and offers nothing; any other failure says `failed`
 * and offers to try again. The texts are the caller's, in its own namespace; the button's is ui's.
 */
export function LoadProblem({
  error,
  title,
  notFound,
  failed,
  onRetry,
}: {
  error: unknown;
  title?: string;
  /** Without it a 404 is a failure like any other (a list of options has nothing to be missing). */
  notFound?: string;
  failed: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation('ui');
  const missing = notFound !== undefined && isNotFound({ kind: 'failed', error });
  return (
    <>
      {title ? <h1 className="text-2xl font-bold text-slate-900">{title}</h1> : null}
      <div className="flex flex-col gap-3">
        <AlertBar tone={missing ? 'warning' : 'danger'} dismissible={false}>
          {missing ? notFound : failed}
        </AlertBar>
        {missing ? null : (
          <Button variant="secondary" className="self-start" onClick={onRetry}>
            {t('load_problem.retry')}
          </Button>
        )}
      </div>
    </>
  );
}

/**
 * A part of a page that did not load (a list beside the record, the options of a form): what
 * failed, and "Try again" for that part alone.
 */
export function RetryAlert({
  message,
  retryLabel,
  onRetry,
}: {
  message: string;
  /** Defaults to ui's "Try again". */
  retryLabel?: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation('ui');
  return (
    <div className="flex flex-wrap items-center gap-3">
      <AlertBar tone="danger" dismissible={false}>
        {message}
      </AlertBar>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel ?? t('load_problem.retry')}
      </Button>
    </div>
  );
}
