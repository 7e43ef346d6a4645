import type { ReactNode } from 'react';

/** A column of a `DataTable`. */
export interface DataColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** Classes of the column's cells, header and body, beside the table's padding. */
  className?: string;
  /** Classes of the column's body cells only (a cell of buttons in a row). */
  cellClassName?: string;
  /** The body cell's tooltip (a person's e-mail beside the name). */
  title?: (row: T) => string | undefined;
  /** The cell names its row (`<th scope="row">`), for screen readers reading across. */
  rowHeader?: boolean;
}

const VARIANTS = {
  /** Rows ruled below, on the page's background: the tables inside a tab or section. */
  plain: {
    table: 'text-left text-sm',
    thead: 'border-b border-slate-300 text-slate-700',
    headRow: undefined,
    th: '',
    rowHeader: 'text-left',
    row: 'border-b border-slate-200',
  },
  /** A white card with a shaded header row: the lists of the administration pages. */
  boxed: {
    table: 'border-collapse rounded-lg border border-slate-200 bg-white text-sm',
    thead: undefined,
    headRow: 'border-b border-slate-200 bg-slate-50 text-left text-slate-700',
    th: 'font-medium',
    rowHeader: 'text-left font-normal',
    row: 'border-b border-slate-100 last:border-0',
  },
} as const;

const join = (...classes: (string | undefined | false)[]) => classes.filter(Boolean).join(' ');

/**
 * A table of a few rows that are all there (a record's versions, its history, a user's
 * sessions): a caption for screen readers, a header row and a row per item. The padding is the
 * same for every table of a variant, so the screens do not each spell it out: `plain` leaves a
 * gap right of every column but the last; `boxed` pads every cell; `pad` sets it for every cell.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  variant = 'plain',
  width,
  dense = false,
  pad,
  rowClassName,
  bodyTestId,
  footer,
}: {
  caption: string;
  /** `false` for a column the user may not see (actions without the permission). */
  columns: readonly (DataColumn<T> | false)[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  variant?: keyof typeof VARIANTS;
  /** Width classes of the table; `w-full` without them. */
  width?: string;
  /** Less space above and below the cells (a short list beside other content). */
  dense?: boolean;
  /** The padding of every cell, instead of the variant's. */
  pad?: string;
  rowClassName?: string;
  bodyTestId?: string;
  /** A `<tfoot>` (a total). */
  footer?: ReactNode;
}) {
  const style = VARIANTS[variant];
  const shown = columns.filter((column): column is DataColumn<T> => column !== false);
  const padOf = (index: number) => {
    if (pad) return pad;
    const vertical = dense ? 'py-1' : 'py-2';
    if (variant === 'boxed') return `px-3 ${vertical}`;
    return index === shown.length - 1 ? vertical : `${vertical} pr-4`;
  };
  return (
    <table className={join(width ?? 'w-full', style.table)}>
      <caption className="sr-only">{caption}</caption>
      <thead className={style.thead}>
        <tr className={style.headRow}>
          {shown.map((column, index) => (
            <th
              key={column.id}
              scope="col"
              className={join(padOf(index), style.th, column.className)}
            >
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody data-testid={bodyTestId}>
        {rows.map((row, rowIndex) => (
          <tr key={rowKey(row)} className={join(style.row, rowClassName)}>
            {shown.map((column, index) => {
              const Cell = column.rowHeader ? 'th' : 'td';
              return (
                <Cell
                  key={column.id}
                  scope={column.rowHeader ? 'row' : undefined}
                  title={column.title?.(row)}
                  className={join(
                    padOf(index),
                    column.rowHeader && style.rowHeader,
                    column.className,
                    column.cellClassName,
                  )}
                >
                  {column.cell(row, rowIndex)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
      {footer}
    </table>
  );
}
