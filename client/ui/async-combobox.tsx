import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
} from '@headlessui/react';
import { useDebounced } from './use-debounced.ts';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { AlertBar } from './alert-bar.tsx';

/** What the combobox shows; the caller's namespace provides the texts (ui stays small). */
export interface AsyncComboboxTexts {
  label: string;
  placeholder: string;
  /** The button that opens the list. */
  open: string;
  loading: string;
  noOptions: string;
  loadMore: string;
  clear: string;
  /** The spec's forms.messages.error, shown as a danger alert when loading fails. */
  error: string;
}

/** One page of options: the service's own page token comes back unchanged for the next one. */
export type LoadOptionsPage<T> = (
  search: string,
  pageToken: string | null,
  signal: AbortSignal,
) => Promise<{ items: T[]; nextPageToken: string | null }>;

// Spec, section 9: load more within 20 px of the bottom.
const LOAD_MORE_WITHIN_PX = 20;

interface Options<T> {
  items: T[];
  nextPageToken: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
}

/**
 * An asynchronous combobox over a service list (the spec's partner selector, the claim's policy
 * picker): the options are the service's pages for what is typed (300 ms after typing stops);
 * more load when the list is scrolled to its end or "load more" is chosen. A failed request shows
 * the danger alert and no options. `loadPage` changing (a new filter) loads the first page again.
 */
export function AsyncCombobox<T>({
  value,
  onChange,
  loadPage,
  keyOf,
  labelOf,
  detailOf,
  texts,
  disabled = false,
  name,
  required = false,
  error,
  testId,
}: {
  value: T | null;
  onChange: (choice: T | null) => void;
  loadPage: LoadOptionsPage<T>;
  keyOf: (item: T) => string;
  /** The text of an option and of the chosen value in the input. */
  labelOf: (item: T) => string;
  /** A smaller line beside the option's label (a number, a holder). */
  detailOf?: (item: T) => ReactNode;
  texts: AsyncComboboxTexts;
  disabled?: boolean;
  name?: string;
  /** Marks the label (the star is hidden from screen readers, which hear aria-required). */
  required?: boolean;
  /** A translated message shown under the control and tied to it. */
  error?: string | undefined;
  /** data-testid of the option list. */
  testId?: string;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Options<T>>({
    items: [],
    nextPageToken: null,
    status: 'idle',
  });
  const controller = useRef<AbortController | null>(null);
  const errorId = useId();

  const search = useDebounced(query.trim());

  const load = useCallback(
    (pageToken: string | null) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setOptions((o) => ({
        ...(pageToken === null ? { items: [] } : o),
        nextPageToken: pageToken,
        status: 'loading',
      }));
      loadPage(search, pageToken, current.signal)
        .then((result) =>
          setOptions((o) => ({
            items: pageToken === null ? result.items : [...o.items, ...result.items],
            nextPageToken: result.nextPageToken,
            status: 'ready',
          })),
        )
        .catch((failure: unknown) => {
          if (current.signal.aborted) return;
          console.error('combobox options failed', failure);
          setOptions({ items: [], nextPageToken: null, status: 'failed' });
        });
    },
    [loadPage, search],
  );

  // The first page loads when the list opens and again for every new search.
  useEffect(() => {
    if (open) load(null);
    return () => controller.current?.abort();
  }, [open, load]);

  const loadMore = () => {
    if (options.status === 'ready' && options.nextPageToken !== null) load(options.nextPageToken);
  };

  return (
    <Field className="flex flex-col gap-1">
      <Label className="text-sm font-medium text-slate-800">
        {texts.label}
        {required ? (
          <span aria-hidden="true" className="text-red-700">
            {' *'}
          </span>
        ) : null}
      </Label>
      <Combobox
        value={value}
        // Opens on focus: the options are the service's list, not only matches of typed text.
        immediate
        by={(a: T | null, b: T | null) => a !== null && b !== null && keyOf(a) === keyOf(b)}
        disabled={disabled}
        onChange={(choice: T | null) => onChange(choice)}
        onClose={() => {
          setOpen(false);
          setQuery('');
        }}
      >
        <div className="flex gap-1">
          <ComboboxInput
            name={name}
            aria-required={required || undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            placeholder={texts.placeholder}
            displayValue={(item: T | null) => (item ? labelOf(item) : '')}
            onFocus={() => setOpen(true)}
            onChange={(event) => {
              setOpen(true);
              setQuery(event.target.value);
            }}
            className="flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 disabled:bg-slate-100 aria-[invalid=true]:border-red-700"
          />
          <ComboboxButton
            aria-label={texts.open}
            onClick={() => setOpen(true)}
            className="rounded-md border border-slate-300 px-2 text-slate-700 hover:bg-slate-100"
          >
            <span aria-hidden="true">▾</span>
          </ComboboxButton>
          <button
            type="button"
            aria-label={texts.clear}
            disabled={disabled || value === null}
            onClick={() => onChange(null)}
            className="rounded-md border border-slate-300 px-2 text-slate-700 hover:bg-slate-100 disabled:opacity-40"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <ComboboxOptions
          anchor="bottom start"
          data-testid={testId}
          // Not modal: the page stays scrollable, so the end of the list can be reached near the
          // bottom of a long form.
          modal={false}
          onScroll={(event) => {
            const list = event.currentTarget;
            // Only a scroll by the user: opening the list also fires a scroll at the top.
            if (
              list.scrollTop > 0 &&
              list.scrollHeight - list.scrollTop - list.clientHeight <= LOAD_MORE_WITHIN_PX
            ) {
              loadMore();
            }
          }}
          className="z-50 mt-1 max-h-64 w-(--input-width) overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
        >
          {options.items.map((item) => (
            <ComboboxOption
              key={keyOf(item)}
              value={item}
              className="cursor-pointer px-3 py-2 text-slate-900 data-focus:bg-slate-100 data-selected:font-semibold"
            >
              {labelOf(item)}
              {detailOf ? (
                <span className="ml-2 text-xs text-slate-600">{detailOf(item)}</span>
              ) : null}
            </ComboboxOption>
          ))}
          {options.status === 'ready' && options.items.length === 0 ? (
            <div className="px-3 py-2 text-slate-600">{texts.noOptions}</div>
          ) : null}
          {options.status === 'loading' ? (
            <div className="px-3 py-2 text-slate-600" role="status">
              {texts.loading}
            </div>
          ) : null}
          {options.status === 'ready' && options.nextPageToken !== null ? (
            // Not an option (choosing one closes the list): a button that keeps the focus in
            // the input. Keyboard users get the next page by arrowing down to the end (scroll).
            <button
              type="button"
              tabIndex={-1}
              onMouseDown={(event) => event.preventDefault()}
              onClick={loadMore}
              className="w-full px-3 py-2 text-left text-blue-800 hover:bg-slate-100"
            >
              {texts.loadMore}
            </button>
          ) : null}
        </ComboboxOptions>
      </Combobox>
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {options.status === 'failed' ? (
        <AlertBar tone="danger" dismissible={false}>
          {texts.error}
        </AlertBar>
      ) : null}
    </Field>
  );
}
