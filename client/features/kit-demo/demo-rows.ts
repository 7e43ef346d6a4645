import type { LoadPageInput, TableQuery } from '#machines/infinite-table.machine.ts';

/** A generated policy row of the demo table. */
export interface DemoRow {
  id: string;
  number: number;
  holder: string;
  city: string;
  premium: number;
}

export const DEMO_ROW_COUNT = 100_000;

const FIRST = ['Anna', 'Jan', 'Maria', 'Lukas', 'Zofia', 'Felix', 'Ewa', 'Paul', 'Lena', 'Piotr'];
const LAST = ['Müller', 'Nowak', 'Schmidt', 'Kowalski', 'Fischer', 'Wójcik', 'Weber', 'Meyer'];
const CITIES = ['Berlin', 'Hamburg', 'Köln', 'Kraków', 'München', 'Warszawa', 'Wrocław', 'Bonn'];

// Built on first use and kept: generating 100 000 rows costs a few milliseconds once.
let all: DemoRow[] | null = null;
function rows(): DemoRow[] {
  all ??= Array.from({ length: DEMO_ROW_COUNT }, (_, i) => ({
    id: `P-${String(i + 1).padStart(6, '0')}`,
    number: i + 1,
    holder: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
    city: CITIES[(i * 7) % CITIES.length]!,
    premium: ((i * 7919) % 100_000) / 100,
  }));
  return all;
}

// One filtered and sorted list per query, so that paging through it does not sort again.
let cached: { key: string; list: DemoRow[] } | null = null;
function select(query: TableQuery): DemoRow[] {
  const key = JSON.stringify(query);
  if (cached?.key === key) return cached.list;
  const filters = Object.entries(query.filters).map(
    ([column, text]) => [column as keyof DemoRow, text.toLowerCase()] as const,
  );
  let list = rows().filter((row) =>
    filters.every(([column, text]) => String(row[column]).toLowerCase().includes(text)),
  );
  if (query.sort) {
    const { column, direction } = query.sort;
    const sign = direction === 'asc' ? 1 : -1;
    const field = column as keyof DemoRow;
    list = [...list].sort((a, b) => {
      const x = a[field];
      const y = b[field];
      return (
        sign * (typeof x === 'number' ? x - (y as number) : String(x).localeCompare(String(y)))
      );
    });
  }
  cached = { key, list };
  return list;
}

/**
 * The demo's fake back end: the spec's mock paging (the token is the offset, incremented by the
 * page size; the last page answers '0'), a small delay, and an optional failure of one page
 * (`failPage`, 1-based) on its first request, for the retry button.
 */
export function createDemoLoader({
  delayMs = 40,
  failPage,
}: {
  delayMs?: number;
  failPage?: number;
}) {
  const failed = new Set<number>();
  return async ({ query, pageToken, pageSize }: LoadPageInput, signal: AbortSignal) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    const offset = pageToken === null ? 0 : Number(pageToken);
    const page = offset / pageSize + 1;
    if (page === failPage && !failed.has(page)) {
      failed.add(page);
      throw new Error(`page ${page} failed (injected)`);
    }
    const list = select(query);
    const next = offset + pageSize;
    return {
      rows: list.slice(offset, next),
      nextPageToken: next >= list.length ? '0' : String(next),
      totalCount: list.length,
    };
  };
}
