import { AlertBar } from './alert-bar.tsx';
import { Button } from './button.tsx';
import { isNotFound } from './use-load.ts';

/**
 * A detail page whose record did not load: a 404 (unknown, or another tenant's) says that it does
 * not exist and offers nothing; any other failure says so and offers to try again.
 */
export function LoadProblem({
  error,
  title,
  notFound,
  failed,
  retryLabel,
  onRetry,
}: {
  error: unknown;
  title: string;
  notFound: string;
  failed: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  const missing = isNotFound({ kind: 'failed', error });
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <AlertBar tone={missing ? 'warning' : 'danger'} dismissible={false}>
        {missing ? notFound : failed}
      </AlertBar>
      {missing ? null : (
        <Button variant="secondary" className="self-start" onClick={onRetry}>
          {retryLabel}
        </Button>
      )}
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
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <AlertBar tone="danger" dismissible={false}>
        {message}
      </AlertBar>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
