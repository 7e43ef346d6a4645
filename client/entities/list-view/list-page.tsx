import type { ReactNode } from 'react';
import type { ExportList } from './export-link.tsx';
import {
  InfiniteTable,
  totalCountOf,
  type InfiniteTableProps,
  type LoadTablePage,
} from '#client/ui/infinite-table.tsx';
import { ListActions } from './list-views.tsx';
import type { TableSort } from '#client/ui/table-sort.ts';

/*
 * The pieces every list page of the suite (customers, partners, leads, claims, ...) built for
 * itself: the title row, the views-and-export bar over a table that starts anew with its filters,
 * and the loader over a numbered service page. One copy here, so that the lists stay alike.
 */

/** A list page's title, with the page's action (e.g. "New customer") at the other end. */
export function ListTitle({ title, children }: { title: string; children?: ReactNode }) {
  const heading = <h1 className="text-2xl font-bold text-slate-900">{title}</h1>;
  if (!children) return heading;
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      {heading}
      {children}
    </div>
  );
}

/** A page of a list service: the services number their pages from 1 (see servicePages). */
export interface ServicePage<TRow> {
  items: readonly TRow[];
  nextPageToken: string | null;
  /** The whole filtered list's count, where the service answers it (upstream contract). */
  totalItems?: number;
}

/**
 * The list below a page's filters when they live in the address (useUrlFilters): its saved views
 * and CSV export, then the table over a list service. The table is remounted, so from page 1 and
 * scrolled to the top, when one of `filters` changes or a saved view is applied
 * (`url.generation`). The sort is not part of that: the table changes it itself, tells `onSort`
 * (to keep it in the address) and reloads without losing its state. `load` may be an inline
 * function: the table always calls the latest one.
 */
export function UrlListTable<TRow>({
  accountIndex,
  list,
  url,
  exportQuery,
  filters,
  sort = null,
  onSort,
  load,
  ...table
}: {
  accountIndex: number;
  list: ExportList;
  /** From useUrlFilters: the address query a view keeps, and how a view is applied. */
  url: { query: string; apply: (query: string) => void; generation: number };
  /** The service query of the first page, which the CSV export repeats. */
  exportQuery: string;
  /** The filters the rows depend on, as the address has them. */
  filters: Readonly<Record<string, string>>;
  /** The sort the table starts with (from the address); none by default. */
  sort?: TableSort;
  /** Told the table's sort before each load (useUrlFilters' keepSort). */
  onSort?: (sort: TableSort) => void;
  /** One page of rows from the service, by page number and sort. */
  load: (page: number, sort: TableSort, signal: AbortSignal) => Promise<ServicePage<TRow>>;
} & Omit<InfiniteTableProps<TRow>, 'initialQuery' | 'loadPage'>) {
  return (
    <>
      <ListActions
        accountIndex={accountIndex}
        list={list}
        query={url.query}
        onApply={url.apply}
        exportQuery={exportQuery}
      />
      <InfiniteTable
        key={JSON.stringify({ ...filters, generation: url.generation })}
        initialQuery={{ filters: {}, sort }}
        loadPage={servicePages((page, tableSort, signal) => {
          onSort?.(tableSort);
          return load(page, tableSort, signal);
        })}
        {...table}
      />
    </>
  );
}

/**
 * A table loader over a list service: the services number their pages from 1 and answer the
 * next page's number as `nextPageToken`, which the table passes back for the next page. `load`
 * gets the page number and the sort the table wants.
 */
export function servicePages<TRow>(
  load: (page: number, sort: TableSort, signal: AbortSignal) => Promise<ServicePage<TRow>>,
): LoadTablePage<TRow> {
  return async (input, signal) => {
    const page = await load(
      input.pageToken ? Number(input.pageToken) : 1,
      input.query.sort,
      signal,
    );
    return {
      rows: page.items,
      nextPageToken: page.nextPageToken,
      ...totalCountOf(page.totalItems),
    };
  };
}
