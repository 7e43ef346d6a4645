import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
} from '@headlessui/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  PARTNER_SELECTOR_PAGE_SIZE,
  listPartners,
  type Partner,
} from '#client/api/partners-client.ts';
import { AlertBar } from './alert-bar.tsx';
import { TYPING_DEBOUNCE_MS } from './use-url-filters.ts';

/** What the selector shows; the caller's namespace provides the texts (ui stays small). */
export interface PartnerSelectorTexts {
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

export type PartnerChoice = Pick<Partner, 'code' | 'displayName'>;

// Spec, section 9: load more within 20 px of the bottom.
const LOAD_MORE_WITHIN_PX = 20;

interface Options {
  items: Partner[];
  nextPage: number | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
}

/**
 * The spec's partner selector: an asynchronous combobox that asks the partnerservice for 10
 * partners at a time, ordered by display name, filtered by tag slugs and by what is typed; more
 * load when the list is scrolled to its end or "load more" is chosen. A failed request shows the
 * danger alert and no options.
 */
export function PartnerSelector({
  accountIndex,
  tagSlugs,
  value,
  onChange,
  texts,
  disabled = false,
  name,
  required = false,
  error,
}: {
  accountIndex: number;
  tagSlugs?: readonly string[];
  value: PartnerChoice | null;
  onChange: (partner: PartnerChoice | null) => void;
  texts: PartnerSelectorTexts;
  disabled?: boolean;
  name?: string;
  /** Marks the label (the star is hidden from screen readers, which hear aria-required). */
  required?: boolean;
  /** A translated message shown under the control and tied to it. */
  error?: string | undefined;
}) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Options>({ items: [], nextPage: 1, status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const tags = (tagSlugs ?? []).join(',');
  const errorId = useId();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(query.trim()), TYPING_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const load = useCallback(
    (page: number) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setOptions((o) => ({
        ...(page === 1 ? { items: [] } : o),
        nextPage: page,
        status: 'loading',
      }));
      listPartners(
        accountIndex,
        {
          pageSize: PARTNER_SELECTOR_PAGE_SIZE,
          page,
          search,
          tagSlugs: tags ? tags.split(',') : [],
        },
        current.signal,
      )
        .then((result) =>
          setOptions((o) => ({
            items: page === 1 ? result.items : [...o.items, ...result.items],
            nextPage: result.nextPageToken ? Number(result.nextPageToken) : null,
            status: 'ready',
          })),
        )
        .catch((error: unknown) => {
          if (current.signal.aborted) return;
          console.error('partners failed', error);
          setOptions({ items: [], nextPage: 1, status: 'failed' });
        });
    },
    [accountIndex, search, tags],
  );

  // The first page loads when the list opens and again for every new search.
  useEffect(() => {
    if (open) load(1);
    return () => controller.current?.abort();
  }, [open, load]);

  const loadMore = () => {
    if (options.status === 'ready' && options.nextPage !== null) load(options.nextPage);
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
        // Opens on focus: the options are the partners, not only matches of typed text.
        immediate
        by={(a: PartnerChoice | null, b: PartnerChoice | null) =>
          a !== null && b !== null && a.code === b.code
        }
        disabled={disabled}
        onChange={(choice: PartnerChoice | null) => {
          onChange(choice ? { code: choice.code, displayName: choice.displayName } : null);
        }}
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
            displayValue={(p: PartnerChoice | null) => p?.displayName ?? ''}
            onFocus={() => setOpen(true)}
            onChange={(event) => {
              setOpen(true);
              setQuery(event.target.value);
            }}
            className="flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 disabled:bg-slate-100"
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
          data-testid="partner-options"
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
          {options.items.map((partner) => (
            <ComboboxOption
              key={partner.code}
              value={partner}
              className="cursor-pointer px-3 py-2 text-slate-900 data-focus:bg-slate-100 data-selected:font-semibold"
            >
              {partner.displayName}
              <span className="ml-2 text-xs text-slate-600">{partner.partnerNumber}</span>
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
          {options.status === 'ready' && options.nextPage !== null ? (
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
