import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadProblem } from './load-problem.tsx';
import { Spinner } from './spinner.tsx';
import type { LoadState } from './load-state.ts';

/** The "Back to …" link above a detail page. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="self-start text-sm text-blue-800 underline-offset-2 hover:underline">
      {children}
    </Link>
  );
}

export interface RecordTexts {
  loading: string;
  title: string;
  notFound: string;
  failed: string;
}

/**
 * The texts of a record page whose namespace has the insurance screens' keys (`loading`,
 * `detail.title`, `detail.not_found`, `errors.load_failed`): claims, leads and policies.
 */
export function standardRecordTexts(
  // The keys as literals: a namespace without one of them does not type-check.
  t: (key: 'loading' | 'detail.title' | 'detail.not_found' | 'errors.load_failed') => string,
): RecordTexts {
  return {
    loading: t('loading'),
    title: t('detail.title'),
    notFound: t('detail.not_found'),
    failed: t('errors.load_failed'),
  };
}

/**
 * A detail page's frame: the back link above the record as it loads, a spinner, or the page's
 * title and what went wrong (a 404 says the record does not exist, anything else offers to try
 * again); once loaded, whatever `children` makes of the record, under the same back link.
 */
export function RecordPage<T>({
  state,
  back,
  texts,
  onRetry,
  children,
}: {
  state: LoadState<T>;
  back: ReactNode;
  texts: RecordTexts;
  onRetry: () => void;
  children: (record: T) => ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      {back}
      {state.kind === 'ready' ? (
        children(state.value)
      ) : state.kind === 'loading' ? (
        <Spinner label={texts.loading} />
      ) : (
        <LoadProblem
          error={state.error}
          title={texts.title}
          notFound={texts.notFound}
          failed={texts.failed}
          onRetry={onRetry}
        />
      )}
    </div>
  );
}
