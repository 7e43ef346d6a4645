import { useVirtualizer } from '@tanstack/react-virtual';
import { useActorRef, useSelector } from '@xstate/react';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  emptyQuery,
  infiniteTableMachine,
  type LoadPageInput,
  type LoadPageOutput,
  type TableQuery,
} from '#machines/infinite-table.machine.ts';
import { Button } from './button.tsx';
import { activeFilters, isNearEnd, nextSort } from './table-sort.ts';

/** Spec, section 9: default row height 55 and default table height 500. */
export const DEFAULT_ROW_HEIGHT = 55;
export const DEFAULT_TABLE_HEIGHT = 500;
// Typing in a filter restarts the query; waiting a little spares a request per keystroke.
const FILTER_DEBOUNCE_MS = 300;

export interface TableColumn<TRow> {
  id: string;
  header: string;
  cell: (row: TRow, index: number) => ReactNode;
  sortable?: boolean;
  /** Shows a text filter input (with a reset button) under the header. */
  filterable?: boolean;
  /** CSS grid track, e.g. '2fr' or '8rem'; default '1fr'. */
  width?: string;
}

export type LoadTablePage<TRow> = (
  input: LoadPageInput,
  signal: AbortSignal,
) => Promise<Omit<LoadPageOutput, 'rows'> & { rows: readonly TRow[] }>;

/**
 * A page's `totalItems` (upstream contract) as the table's `totalCount`, when the list has one;
 * a sandbox list whose count stopped at its cap answers `totalItemsAbove` instead (decision 016).
 */
export const totalCountOf = (page: {
  totalItems?: number | null;
  totalItemsAbove?: number;
}): { totalCount?: number; totalAbove?: boolean } =>
  typeof page.totalItems === 'number'
    ? { totalCount: page.totalItems }
    : page.totalItemsAbove === undefined
      ? {}
      : { totalCount: page.totalItemsAbove, totalAbove: true };

export interface InfiniteTableProps<TRow> {
  /** Accessible name of the table. */
  label: string;
  columns: readonly TableColumn<TRow>[];
  /** Called with the query, the page token and an abort signal (aborted on query change). */
  loadPage: LoadTablePage<TRow>;
  rowKey: (row: TRow) => string;
  pageSize?: number;
  /** Pages loaded automatically before the retry button appears; default: never stop. */
  stopLimit?: number | null;
  rowHeight?: number;
  height?: number;
  /** Below this width the table scrolls sideways instead of squeezing its text columns. */
  minWidth?: string;
  /** Repeats the headers under the rows. */
  footer?: boolean;
  /** Shows row checkboxes; the selection is reported with the row keys. */
  onSelectionChange?: (keys: ReadonlySet<string>) => void;
  /** Accessible name of a row's checkbox; default "Select row {n}". */
  rowLabel?: (row: TRow, index: number) => string;
  emptyMessage?: string;
  initialQuery?: TableQuery;
  /** Change the value to reload from page 1 with the same query (e.g. after a bulk action). */
  reloadKey?: unknown;
  /**
   * The list's total as words ("1.234 Verträge"), given the count (for the plural) and the count
   * formatted in the user's locale; shown when the service counts its list.
   */
  totalLabel?: (count: number, formatted: string) => string;
  /** Told every sort the table loads with (a list keeps it in the address). */
  onSort?: (sort: TableQuery['sort']) => void;
}

/**
 * Generic infinite-scroll table (spec, section 2): per-column filters with reset, one sorted
 * column cycling ascending/descending/none, virtualised rows, loads more within 20 px of the
 * bottom, optional header-repeating footer, a no-data picture and a retry button when automatic
 * loading stopped. Loading is `infiniteTableMachine`.
 */
export function InfiniteTable<TRow>({
  label,
  columns,
  loadPage,
  rowKey,
  pageSize,
  stopLimit = null,
  rowHeight = DEFAULT_ROW_HEIGHT,
  height = DEFAULT_TABLE_HEIGHT,
  minWidth,
  footer = false,
  onSelectionChange,
  rowLabel,
  emptyMessage,
  initialQuery = emptyQuery,
  reloadKey,
  totalLabel,
  onSort,
}: InfiniteTableProps<TRow>) {
  const { t, i18n } = useTranslation('ui');
  const id = useId();
  // The machine keeps the first loader it gets; the ref lets callers pass inline functions.
  const loadRef = useRef(loadPage);
  const onSortRef = useRef(onSort);
  useEffect(() => {
    loadRef.current = loadPage;
    onSortRef.current = onSort;
  }, [loadPage, onSort]);
  const actor = useActorRef(
    infiniteTableMachine.provide({
      actors: {
        loadPage: fromPromise<LoadPageOutput, LoadPageInput>(({ input, signal }) => {
          onSortRef.current?.(input.query.sort);
          return loadRef.current(input, signal);
        }),
      },
    }),
    { input: { query: initialQuery, ...(pageSize ? { pageSize } : {}), stopLimit } },
  );
  const state = useSelector(actor, (s) => s);
  const loadedRows = state.context.rows as TRow[];
  // A store update renders synchronously, in one task; a page of new rows is the table's
  // largest render (bench/list-long-tasks.ts). Deferred, React renders the rows after the urgent
  // update in slices, yielding to the browser in between; the status line counts what shows.
  const rows = useDeferredValue(loadedRows);
  const rowsShown = rows === loadedRows;

  const onSelectionChangeRef = useRef(onSelectionChange);
  useEffect(() => {
    onSelectionChangeRef.current = onSelectionChange;
  }, [onSelectionChange]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [filters, setFilters] = useState<Record<string, string>>(
    () => ({ ...initialQuery.filters }) as Record<string, string>,
  );
  const [sort, setSort] = useState(initialQuery.sort);
  // What the machine was last asked for: an effect that runs again (StrictMode, a re-render)
  // with the same query must not restart the table.
  const sentQuery = useRef(
    JSON.stringify({ ...initialQuery, filters: activeFilters(initialQuery.filters) }),
  );
  const sentFilters = useRef(JSON.stringify(activeFilters(initialQuery.filters)));
  useEffect(() => {
    const query = { filters: activeFilters(filters), sort };
    const key = JSON.stringify(query);
    if (key === sentQuery.current) return;
    const filtersKey = JSON.stringify(query.filters);
    // Typing waits a little (one request, not one per key); a sort click applies at once.
    const delay = filtersKey === sentFilters.current ? 0 : FILTER_DEBOUNCE_MS;
    const timer = setTimeout(() => {
      sentQuery.current = key;
      sentFilters.current = filtersKey;
      actor.send({ type: 'table.query', query });
      // Rows out of the new result must not stay selected, unseen, for a bulk action.
      const none = new Set<string>();
      setSelected(none);
      onSelectionChangeRef.current?.(none);
    }, delay);
    return () => clearTimeout(timer);
  }, [actor, filters, sort]);

  const sentReloadKey = useRef(reloadKey);
  useEffect(() => {
    if (Object.is(reloadKey, sentReloadKey.current)) return;
    sentReloadKey.current = reloadKey;
    actor.send({ type: 'table.reload' });
  }, [actor, reloadKey]);

  const updateSelection = (next: ReadonlySet<string>) => {
    setSelected(next);
    onSelectionChange?.(next);
  };
  // Stable for the memoised rows: reads the selection of the last render.
  const selectedRef = useRef(selected);
  useEffect(() => {
    selectedRef.current = selected;
  }, [selected]);
  const toggleRow = useCallback((key: string, on: boolean) => {
    const next = new Set(selectedRef.current);
    if (on) next.add(key);
    else next.delete(key);
    selectedRef.current = next;
    setSelected(next);
    onSelectionChangeRef.current?.(next);
  }, []);
  const selectable = onSelectionChange !== undefined;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    // Scrolling renders in React's own time instead of synchronously in each scroll event.
    useFlushSync: false,
  });

  // A table without a box (inside something hidden or collapsed) is "near its end" at every
  // page: without this check, and without a stop limit, it would load the whole list unseen.
  const checkNearEnd = useCallback(() => {
    const element = scrollRef.current;
    if (element && element.clientHeight > 0 && isNearEnd(element)) {
      actor.send({ type: 'table.nearEnd' });
    }
  }, [actor]);
  // A page that does not fill the table leaves nothing to scroll: ask for more at once.
  const isIdle = state.matches('idle');
  // Only once the loaded rows show: before, the short table would look "near its end" at once.
  useEffect(() => {
    if (isIdle && rowsShown) checkNearEnd();
  }, [isIdle, rowsShown, rows.length, checkNearEnd]);

  const gridTemplateColumns = [
    ...(selectable ? ['3rem'] : []),
    ...columns.map((column) => column.width ?? '1fr'),
  ].join(' ');
  const { totalCount, totalAbove } = state.context;
  // A floor ("10 000+") is no row count for assistive technology: -1 says it is unknown.
  const knownCount = totalAbove
    ? null
    : (totalCount ?? (state.matches('exhausted') || state.matches('empty') ? rows.length : null));
  const headerRows = 1;
  const ariaRowCount = knownCount === null ? -1 : knownCount + headerRows + (footer ? 1 : 0);
  const allLoadedSelected = rows.length > 0 && rows.every((row) => selected.has(rowKey(row)));

  const headerCells = (inFooter: boolean) => (
    <>
      {selectable ? (
        <div role="columnheader" className="flex items-center justify-center px-2">
          {inFooter ? null : (
            <input
              type="checkbox"
              className="size-4"
              aria-label={t('table.select_all')}
              checked={allLoadedSelected}
              disabled={rows.length === 0}
              onChange={(event) =>
                updateSelection(
                  event.target.checked ? new Set(rows.map((row) => rowKey(row))) : new Set(),
                )
              }
            />
          )}
        </div>
      ) : null}
      {columns.map((column) => {
        const direction = sort?.column === column.id ? sort.direction : null;
        const ariaSort =
          direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined;
        return (
          <div
            key={column.id}
            role="columnheader"
            aria-sort={inFooter || !column.sortable ? undefined : (ariaSort ?? 'none')}
            // A header word longer than its column breaks rather than running into the next one.
            className="flex min-w-0 flex-col justify-center gap-1 px-3 py-2 text-left text-sm font-semibold text-slate-800 [overflow-wrap:anywhere]"
          >
            {column.sortable && !inFooter ? (
              <button
                type="button"
                className="inline-flex items-center gap-1 self-start rounded text-left hover:underline"
                onClick={() => setSort((current) => nextSort(current, column.id))}
              >
                {column.header}
                <span aria-hidden="true" className="w-3 text-xs">
                  {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
                </span>
                <span className="sr-only">
                  {t(
                    direction === 'asc'
                      ? 'table.sorted_asc'
                      : direction === 'desc'
                        ? 'table.sorted_desc'
                        : 'table.not_sorted',
                  )}
                </span>
              </button>
            ) : (
              <span>{column.header}</span>
            )}
            {column.filterable && !inFooter ? (
              <FilterInput
                id={`${id}-filter-${column.id}`}
                label={t('table.filter_label', { column: column.header })}
                resetLabel={t('table.reset_filter', { column: column.header })}
                value={filters[column.id] ?? ''}
                onChange={(value) => setFilters((current) => ({ ...current, [column.id]: value }))}
              />
            ) : null}
          </div>
        );
      })}
    </>
  );

  const stopped = state.matches('stopped');
  // Paused by the caller's stop limit, not by a failure: nothing went wrong, the user asks for
  // the next page with a plain "Load more" (issue 15), no alert.
  const paused = stopped && state.context.error === null;
  // Formatted once per count and language, not on every scroll render.
  const formattedTotal = useMemo(
    () =>
      totalCount === null
        ? null
        : new Intl.NumberFormat(i18n.language).format(totalCount) + (totalAbove ? '+' : ''),
    [totalCount, totalAbove, i18n.language],
  );
  const total =
    totalCount === null || formattedTotal === null
      ? null
      : (totalLabel ?? ((count, formatted) => t('table.total', { count, total: formatted })))(
          totalCount,
          formattedTotal,
        );
  // Rows that arrived but do not show yet (deferred above) still count as loading.
  const loading = state.matches('loadingFirst') || state.matches('loadingMore') || !rowsShown;

  return (
    <div className="flex flex-col gap-2">
      <div
        ref={scrollRef}
        role="table"
        aria-label={label}
        aria-rowcount={ariaRowCount}
        aria-busy={loading}
        // Focusable so that keyboard users can scroll it (and load more) with the arrow keys.
        tabIndex={0}
        onScroll={checkNearEnd}
        style={{ height }}
        className="relative overflow-auto rounded-md border border-slate-300 bg-white [scrollbar-gutter:stable] focus:outline-2 focus:outline-blue-700"
      >
        <div role="presentation" style={minWidth ? { minWidth } : undefined}>
          <div role="rowgroup" className="sticky top-0 z-10 border-b border-slate-300 bg-slate-100">
            <div role="row" aria-rowindex={1} className="grid" style={{ gridTemplateColumns }}>
              {headerCells(false)}
            </div>
          </div>
          <div
            role="rowgroup"
            className="relative"
            style={{ height: virtualizer.getTotalSize() }}
            data-testid="table-body"
          >
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const key = rowKey(row);
              return (
                <VirtualRow
                  key={key}
                  row={row}
                  rowId={key}
                  index={item.index}
                  ariaRowIndex={item.index + 1 + headerRows}
                  start={item.start}
                  size={item.size}
                  columns={columns}
                  gridTemplateColumns={gridTemplateColumns}
                  selectable={selectable}
                  selected={selected.has(key)}
                  checkboxLabel={
                    selectable
                      ? (rowLabel?.(row, item.index) ??
                        t('table.select_row', { index: item.index + 1 }))
                      : ''
                  }
                  onToggle={toggleRow}
                />
              );
            })}
          </div>
          {state.matches('empty') ? <NoData message={emptyMessage ?? t('table.no_data')} /> : null}
          {footer ? (
            <div role="rowgroup" className="sticky bottom-0 border-t border-slate-300 bg-slate-100">
              <div
                role="row"
                aria-rowindex={ariaRowCount === -1 ? undefined : ariaRowCount}
                className="grid"
                style={{ gridTemplateColumns }}
              >
                {headerCells(true)}
              </div>
            </div>
          ) : null}
        </div>
      </div>
      <div className="flex min-h-10 items-center justify-between gap-3 text-sm text-slate-700">
        <div className="flex flex-wrap items-center gap-x-3">
          {total === null ? null : (
            <p className="font-medium text-slate-900" data-testid="table-total">
              {total}
            </p>
          )}
          <p role="status" data-testid="table-status">
            {loading ? t('table.loading') : t('table.rows_loaded', { count: rows.length })}
            {selectable && selected.size > 0
              ? ` · ${t('table.selected', { count: selected.size })}`
              : ''}
          </p>
        </div>
        {paused ? (
          <Button variant="secondary" onClick={() => actor.send({ type: 'table.retry' })}>
            {t('table.load_more')}
          </Button>
        ) : stopped ? (
          <div className="flex items-center gap-3">
            <span role="alert">{t('table.stopped_error')}</span>
            <Button variant="secondary" onClick={() => actor.send({ type: 'table.retry' })}>
              {t('table.retry')}
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

function FilterInput({
  id,
  label,
  resetLabel,
  value,
  onChange,
}: {
  id: string;
  label: string;
  resetLabel: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex items-center gap-1">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="w-full min-w-0 rounded border border-slate-400 bg-white px-2 py-1 text-sm font-normal"
      />
      <button
        type="button"
        aria-label={resetLabel}
        disabled={value === ''}
        onClick={() => onChange('')}
        className="rounded px-1 text-slate-700 hover:bg-slate-200 disabled:opacity-40"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** The 'no data' picture: inline SVG, nothing to load and nothing that can fail. */
function NoData({ message }: { message: string }) {
  const noDataRows = useMemo(() => [0, 1, 2], []);
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-slate-600" data-testid="no-data">
      <svg width="96" height="72" viewBox="0 0 96 72" aria-hidden="true" focusable="false">
        <rect x="8" y="6" width="80" height="60" rx="6" fill="#f1f5f9" stroke="#94a3b8" />
        {noDataRows.map((i) => (
          <rect
            key={i}
            x="18"
            y={18 + i * 14}
            width={60 - i * 12}
            height="6"
            rx="3"
            fill="#cbd5e1"
          />
        ))}
        <circle cx="70" cy="50" r="10" fill="none" stroke="#64748b" strokeWidth="3" />
        <path d="m77 57 7 7" stroke="#64748b" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <p>{message}</p>
    </div>
  );
}

interface VirtualRowProps<TRow> {
  row: TRow;
  rowId: string;
  index: number;
  ariaRowIndex: number;
  start: number;
  size: number;
  columns: readonly TableColumn<TRow>[];
  gridTemplateColumns: string;
  selectable: boolean;
  selected: boolean;
  checkboxLabel: string;
  onToggle: (key: string, on: boolean) => void;
}

/**
 * One row, memoised: scrolling and a new page re-render the table, and only the rows whose data
 * or position changed render again (the callers' columns keep their identity between renders of
 * the table itself).
 */
const VirtualRow = memo(function VirtualRow<TRow>({
  row,
  rowId,
  index,
  ariaRowIndex,
  start,
  size,
  columns,
  gridTemplateColumns,
  selectable,
  selected,
  checkboxLabel,
  onToggle,
}: VirtualRowProps<TRow>) {
  return (
    <div
      role="row"
      aria-rowindex={ariaRowIndex}
      aria-selected={selectable ? selected : undefined}
      className="absolute left-0 grid w-full items-center border-b border-slate-200 hover:bg-slate-50"
      style={{ gridTemplateColumns, height: size, top: start }}
    >
      {selectable ? (
        <div role="cell" className="flex items-center justify-center px-2">
          <input
            type="checkbox"
            className="size-4"
            aria-label={checkboxLabel}
            checked={selected}
            onChange={(event) => onToggle(rowId, event.target.checked)}
          />
        </div>
      ) : null}
      {columns.map((column) => (
        <div key={column.id} role="cell" className="truncate px-3 text-sm text-slate-800">
          {column.cell(row, index)}
        </div>
      ))}
    </div>
  );
}) as <TRow>(props: VirtualRowProps<TRow>) => ReactNode;
