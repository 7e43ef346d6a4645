import type { ReactNode } from 'react';

const cell = 'border-b border-slate-200 px-3 py-2 text-left align-top';

/**
 * A table of a few rows, all shown (a workspace's templates, a template's versions): headers
 * and cells, no sorting or paging, which the list tables of client/ui bring for long lists.
 */
export function PlainTable({
  caption,
  headers,
  rows,
  testId,
}: {
  caption: string;
  headers: string[];
  rows: { key: string | number; cells: ReactNode[] }[];
  testId?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className={cell}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((content, index) => (
                <td key={index} className={cell}>
                  {content}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
