import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoadState } from '#client/ui/load-state.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';

/** A cell of the claim's part tables (settlements, partners). */
export const partCell = 'px-3 py-2 align-middle';

/**
 * A table of a claim's parts (its settlements, its partners): few rows (one page of the
 * service's maximum), so a plain table with a caption for screen readers, a line saying there is
 * nothing yet, and a last column of row actions when the user may change them.
 */
export function PartsTable({
  caption,
  testId,
  minWidth,
  columns,
  actionsLabel,
  empty,
  children,
  footer,
}: {
  caption: string;
  testId: string;
  /** Tailwind min-width class below which the table scrolls sideways. */
  minWidth: string;
  columns: readonly { label: string; numeric?: boolean }[];
  /** The (hidden) header of the actions column; null without actions. */
  actionsLabel: string | null;
  /** Shown as the only row when there is nothing; null when there are rows. */
  empty: string | null;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-300">
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-300 bg-slate-100 text-slate-800">
          <tr>
            {columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.numeric ? `${partCell} text-right` : partCell}
              >
                {column.label}
              </th>
            ))}
            {actionsLabel !== null ? (
              <th scope="col" className={partCell}>
                <span className="sr-only">{actionsLabel}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {empty !== null ? (
            <tr>
              <td
                colSpan={columns.length + (actionsLabel !== null ? 1 : 0)}
                className={`${partCell} text-slate-600`}
              >
                {empty}
              </td>
            </tr>
          ) : null}
          {children}
        </tbody>
        {footer}
      </table>
    </div>
  );
}

/**
 * A claim's parts as they load: a spinner, then what went wrong with a retry, or the parts
 * (`children`, given the loaded value).
 */
export function PartsLoad<T>({
  state,
  onRetry,
  children,
}: {
  state: LoadState<T>;
  onRetry: () => void;
  children: (value: T) => ReactNode;
}) {
  const { t } = useTranslation('claims');
  if (state.kind === 'loading') return <Spinner label={t('loading')} />;
  if (state.kind === 'failed') {
    return (
      <RetryAlert
        message={t('forms.messages.error')}
        retryLabel={t('actions.retry')}
        onRetry={onRetry}
      />
    );
  }
  return children(state.value);
}
