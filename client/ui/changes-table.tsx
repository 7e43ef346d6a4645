import type { ReactNode } from 'react';

export interface ChangeRow {
  id: string;
  label: ReactNode;
  before: ReactNode;
  after: ReactNode;
}

/**
 * What an edit conflict found changed: one row per field, the value on each side. The column
 * names are the caller's (saved vs. mine, then vs. now).
 */
export function ChangesTable({
  caption,
  headers,
  rows,
  testIdPrefix = 'conflict',
}: {
  caption: string;
  testIdPrefix?: string;
  headers: { field: string; before: string; after: string };
  rows: readonly ChangeRow[];
}) {
  return (
    <table className="text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="pr-4">
            {headers.field}
          </th>
          <th scope="col" className="pr-4">
            {headers.before}
          </th>
          <th scope="col">{headers.after}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={`${testIdPrefix}-${row.id}`}>
            <th scope="row" className="pr-4 font-medium">
              {row.label}
            </th>
            <td className="pr-4">{row.before}</td>
            <td>{row.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
