import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '#client/ui/button.tsx';
import { ToolbarInput } from '#client/ui/toolbar-field.tsx';
import type { ExportList } from './export-link.tsx';
import {
  InfiniteTable,
  totalCountOf,
  type InfiniteTableProps,
  type LoadTablePage,
} from '#client/ui/infinite-table.tsx';
import { ListActions } from './list-views.tsx';
import { serviceOrder, sortFromParam, sortToParam, type TableSort } from '#client/ui/table-sort.ts';
import type { TableQuery } from '#machines/infinite-table.machine.ts';

/*
 * The pieces every list page of the suite (customers, partners, leads, claims, ...) built for
 * itself: the title row, the filter toolbar, the views-and-export bar over a table that starts
 * anew with its filters, and the loader over a service page. One copy here, so that the lists
 * stay alike: `ListPage` puts them together.
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

/**
 * A list page's frame: the title with the page's action, the filters in one wrapping row
 * (`toolbar`), then what the page lists (`children`: e.g. a status fieldset, a problem loading
 * the filters' options, the table).
 */
export function ListFrame({
  title,
  action,
  toolbar,
  children,
}: {
  title: string;
  action?: ReactNode;
  toolbar?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <ListTitle title={title}>{action}</ListTitle>
      {toolbar ? <div className="flex flex-wrap items-end gap-4">{toolbar}</div> : null}
      {children}
    </div>
  );
}

/*
 * A list with an order select above it and sortable columns (the policies: newest or oldest
 * first, or by a column) has two controls over one order. They agree: the select's value is the
 * sorted column while one decides (`column:holder:asc`), else the list's own order; choosing a
 * column in the select sorts the table by it (header indicator, address), choosing an order of
 * its own ends the column sort. The address holds both, so the page applies the choice as a new
 * query of the list (`useUrlFilters().apply`), which starts the table anew with its sort.
 */
const COLUMN_CHOICE = 'column:';

/** The order select's value: the sorted column while one decides, else the list's `order`. */
export const orderChoiceOf = (sort: TableSort, order: string): string =>
  sort ? `${COLUMN_CHOICE}${sortToParam(sort)}` : order;

/** The order select's entries for the sortable `columns`, both directions each. */
export function columnOrderChoices(
  columns: readonly { column: string; label: string }[],
  label: (column: string, direction: 'asc' | 'desc') => string,
): { value: string; label: string }[] {
  return columns.flatMap(({ column, label: name }) =>
    (['asc', 'desc'] as const).map((direction) => ({
      value: orderChoiceOf({ column, direction }, ''),
      label: label(name, direction),
    })),
  );
}

/**
 * The list's own query (`viewQuery`) with an order chosen in the select: a column (kept as the
 * table's sort, the list's order left for when the column sort ends) or one of the list's own
 * orders (no column sort; '' the default order). An unknown column changes nothing.
 */
export function queryWithOrderChoice(
  viewQuery: string,
  choice: string,
  { columns, orderKey = 'order', sortKey = 'sort' }: OrderChoiceKeys,
): string {
  const next = new URLSearchParams(viewQuery);
  if (choice.startsWith(COLUMN_CHOICE)) {
    const sort = sortFromParam(choice.slice(COLUMN_CHOICE.length), columns);
    if (!sort) return viewQuery;
    next.set(sortKey, sortToParam(sort));
  } else {
    next.delete(sortKey);
    if (choice) next.set(orderKey, choice);
    else next.delete(orderKey);
  }
  return next.toString();
}

interface OrderChoiceKeys {
  /** The sortable columns. */
  columns: readonly string[];
  /** The address parameters of the list's order and of the table's sort. */
  orderKey?: string;
  sortKey?: string;
}

/** A list filter's value as the page keeps it: text, a choice, or several choices. */
type FilterValue = string | readonly string[];

/** The page's filters as the service names them, each for the table's key and the query. */
export type ListFilters = Readonly<Record<string, FilterValue>>;

/**
 * The service query of a list's filters: an empty filter ('' or no choice) means "no filter", so
 * it is left out rather than sent as "match empty"; then the sorted column by the service's
 * field, and `pageToken` from page 2 on.
 */
export type ListQuery<F extends ListFilters, O extends string = string> = {
  [K in keyof F]?: Exclude<F[K], ''>;
} & {
  pageToken?: string;
  order: { field: O; direction: 'ASC' | 'DESC' } | null;
};

export function listQuery<F extends ListFilters, O extends string>(
  filters: F,
  sort: TableSort,
  orderFields: Readonly<Record<string, O>>,
  pageToken?: string,
): ListQuery<F, O> {
  const set = Object.entries(filters).filter(([, value]) => value.length > 0);
  return {
    ...(pageToken ? { pageToken } : {}),
    ...(Object.fromEntries(set) as { [K in keyof F]?: Exclude<F[K], ''> }),
    order: serviceOrder(sort, orderFields) as ListQuery<F, O>['order'],
  };
}

/** How a list page asks its service for the query ListPage builds of the page's filters. */
export interface ListService<TRow, F extends ListFilters, O extends string> {
  /** Table column -> the service's order field. */
  orderFields: Readonly<Record<string, O>>;
  /** The query string: the CSV export repeats the first page's. */
  params: (query: ListQuery<F, O>) => string;
  fetchPage: (
    accountIndex: number,
    query: ListQuery<F, O>,
    signal: AbortSignal,
  ) => Promise<ServicePage<TRow>>;
}

/**
 * A list page of the suite: title and action, the filter toolbar (filters in the address,
 * useUrlFilters), anything under it (`notice`), the saved views and CSV export of exactly what
 * the table lists, its total, and the table sorted by its columns (the sort in the address too;
 * the service pages by keyset, so the token of each page is passed back as it came).
 */
export function ListPage<
  TRow extends { id: number },
  F extends ListFilters,
  O extends string = string,
>({
  title,
  action,
  newLink,
  search,
  toolbar,
  notice,
  service,
  url,
  filters,
  rowKey = (row) => String(row.id),
  ...table
}: {
  title: string;
  action?: ReactNode;
  /** The page's "New ..." link (instead of `action`), for a user who may create. */
  newLink?: { to: string; label: string } | null;
  /** The search box, first in the toolbar: the `search` filter, typed (a draft in `url`). */
  search?: { label: string; placeholder: string };
  /** The other filters, after the search. */
  toolbar?: ReactNode;
  /** Between the toolbar and the list. */
  notice?: ReactNode;
  service: ListService<TRow, F, O>;
  /** From useUrlFilters with the table's sort columns (and `search` typed, for the box). */
  url: UrlListState & {
    drafts: { search?: string };
    setDraft: (key: 'search', value: string) => void;
  };
  /**
   * The filters the rows depend on (the applied ones, as the service names them): the one place
   * they are given, for the service's query and for starting the table anew when one changes.
   */
  filters: F;
  rowKey?: (row: TRow) => string;
} & Omit<
  UrlListProps<TRow>,
  'url' | 'exportQuery' | 'filters' | 'sort' | 'onSort' | 'load' | 'rowKey'
>) {
  const query = (sort: TableSort, pageToken?: string) =>
    listQuery(filters, sort, service.orderFields, pageToken);
  return (
    <ListFrame
      title={title}
      action={
        newLink ? (
          <Link to={newLink.to} className={buttonClass('primary')}>
            {newLink.label}
          </Link>
        ) : (
          action
        )
      }
      toolbar={
        <>
          {search ? (
            <ToolbarInput
              label={search.label}
              value={url.drafts.search ?? ''}
              placeholder={search.placeholder}
              className="w-72"
              onChange={(value) => url.setDraft('search', value)}
            />
          ) : null}
          {toolbar}
        </>
      }
    >
      {notice}
      <UrlListTable
        url={url}
        rowKey={rowKey}
        exportQuery={service.params(query(url.sort))}
        filters={filters}
        sort={url.sort}
        onSort={url.keepSort}
        load={(_page, sort, signal, pageToken) =>
          service.fetchPage(table.accountIndex, query(sort, pageToken ?? undefined), signal)
        }
        {...table}
      />
    </ListFrame>
  );
}

/** What a list page takes of useUrlFilters. */
export interface UrlListState {
  viewQuery: string;
  apply: (query: string) => void;
  generation: number;
  sort: TableSort;
  keepSort: (sort: TableSort) => void;
}

/** A page of a list service: the services number their pages from 1 (see servicePages). */
export interface ServicePage<TRow> {
  items: readonly TRow[];
  nextPageToken: string | null;
  /** The whole filtered list's count, where the service answers it (upstream contract). */
  totalItems?: number;
  /** Instead of `totalItems`: the list holds more rows than this (decision 016). */
  totalItemsAbove?: number;
}

/**
 * The list below a page's filters when they live in the address (useUrlFilters): its saved views
 * and CSV export, then the table over a list service. The table is remounted, so from page 1 and
 * scrolled to the top, when one of `filters` changes or a saved view is applied
 * (`url.generation`). The sort is not part of that: the table changes it itself, tells `onSort`
 * (to keep it in the address) and reloads without losing its state. `load` may be an inline
 * function: the table always calls the latest one.
 */
type UrlListProps<TRow> = {
  accountIndex: number;
  list: ExportList;
  /** From useUrlFilters: the address query a view keeps, and how a view is applied. */
  url: { viewQuery: string; apply: (query: string) => void; generation: number };
  /** The service query of the first page, which the CSV export repeats. */
  exportQuery: string;
  /** The filters the rows depend on, as the address has them. */
  filters: ListFilters;
  /** The sort the table starts with (from the address); none by default. */
  sort?: TableSort;
  /** Told the table's sort before each load (useUrlFilters' keepSort). */
  onSort?: (sort: TableSort) => void;
  /**
   * One page of rows from the service, by page number and sort; `pageToken` is the previous
   * page's nextPageToken as it came (null for the first page), for a keyset list.
   */
  load: PageLoader<TRow>;
} & Omit<InfiniteTableProps<TRow>, 'initialQuery' | 'loadPage'>;

type PageLoader<TRow> = (
  page: number,
  sort: TableSort,
  signal: AbortSignal,
  pageToken: string | null,
) => Promise<ServicePage<TRow>>;

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
}: UrlListProps<TRow>) {
  return (
    <>
      <ListActions
        accountIndex={accountIndex}
        list={list}
        query={url.viewQuery}
        onApply={url.apply}
        exportQuery={exportQuery}
      />
      <InfiniteTable
        key={JSON.stringify({ ...filters, generation: url.generation })}
        initialQuery={{ filters: {}, sort }}
        loadPage={servicePages((page, tableSort, signal, pageToken) => {
          onSort?.(tableSort);
          return load(page, tableSort, signal, pageToken);
        })}
        {...table}
      />
    </>
  );
}

/**
 * A table loader over a list service: the services number their pages from 1 and answer the
 * next page's token as `nextPageToken`, which the table passes back for the next page. `load`
 * gets the page number, the sort the table wants and the token as it came: a page number, or a
 * keyset token that starts with one (`2.41.d...`, list-keyset.ts), which must go back whole.
 */
export function servicePages<TRow>(load: PageLoader<TRow>): LoadTablePage<TRow> {
  return async (input, signal) => {
    const page = await load(
      input.pageToken ? Number.parseInt(input.pageToken, 10) : 1,
      input.query.sort,
      signal,
      input.pageToken,
    );
    return tablePage(page);
  };
}

/** A service's page as the table takes it: the rows, the next page's token, the total if any. */
const tablePage = <TRow,>(page: ServicePage<TRow>) => ({
  rows: page.items,
  nextPageToken: page.nextPageToken,
  ...totalCountOf(page),
});

/**
 * The table of a list page over a keyset service, for a list without saved views or export
 * (products, workflows, decision tables): the sort kept in the address (useUrlFilters' `sort`
 * and `keepSort`), the service's total, rows keyed by id, and the table started anew from the
 * top when `restartKey` (the applied search) changes. `fetchPage` gets the table's query (sort,
 * column filters) and the previous page's token as it came: it carries the order, so it goes
 * back whole. It may be an inline function: the table always calls the latest one.
 */
export function ServiceListTable<TRow extends { id: number }>({
  url,
  restartKey = '',
  fetchPage,
  ...table
}: {
  url: { sort: TableSort; keepSort: (sort: TableSort) => void };
  restartKey?: string;
  fetchPage: (
    query: TableQuery,
    pageToken: string | null,
    signal: AbortSignal,
  ) => Promise<ServicePage<TRow>>;
} & Omit<InfiniteTableProps<TRow>, 'initialQuery' | 'loadPage' | 'onSort' | 'rowKey'>) {
  return (
    <InfiniteTable
      key={restartKey}
      initialQuery={{ filters: {}, sort: url.sort }}
      onSort={url.keepSort}
      rowKey={(row) => String(row.id)}
      loadPage={async (input, signal) =>
        tablePage(await fetchPage(input.query, input.pageToken, signal))
      }
      {...table}
    />
  );
}
