import {
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
} from '@headlessui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchKeywords } from '#client/api/documents-client.ts';
import { useDebounced } from '#client/ui/use-debounced.ts';
import { withKeyword, wordBeingTyped } from './keywords.ts';

/**
 * The search text with keyword suggestions: words of the tenant's documents that begin with the
 * word being typed, asked for once typing rests for 300 ms. Choosing one completes that word; the
 * text stays free (a suggestion is only an offer). Suggestions that fail to load are left out:
 * the search itself works without them.
 */
export function KeywordField({
  accountIndex,
  value,
  onChange,
}: {
  accountIndex: number;
  value: string;
  onChange: (text: string) => void;
}) {
  const { t } = useTranslation('documents');
  const word = useDebounced(wordBeingTyped(value));
  const [suggestions, setSuggestions] = useState<{ word: string; items: string[] }>({
    word: '',
    items: [],
  });

  useEffect(() => {
    if (!word) return;
    const controller = new AbortController();
    searchKeywords(accountIndex, word, controller.signal)
      .then(({ items }) => setSuggestions({ word, items }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('keyword suggestions failed', error);
      });
    return () => controller.abort();
  }, [accountIndex, word]);

  // Only the suggestions of the word now being typed (the answer may be older than the text).
  const current = wordBeingTyped(value);
  const items =
    current && suggestions.word && current.toLowerCase().startsWith(suggestions.word.toLowerCase())
      ? suggestions.items.filter((k) => k.startsWith(current.toLowerCase()))
      : [];

  return (
    <Field className="flex w-72 flex-col gap-1">
      <Label className="text-sm font-medium text-slate-800">{t('search.text')}</Label>
      <Combobox
        value={value}
        onChange={(chosen: string | null) => {
          if (chosen !== null) onChange(chosen);
        }}
      >
        <ComboboxInput
          type="search"
          placeholder={t('search.text_placeholder')}
          displayValue={(text: string) => text}
          onChange={(event) => onChange(event.target.value)}
          className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
        />
        <ComboboxOptions
          anchor="bottom start"
          modal={false}
          aria-label={t('search.suggestions')}
          className="z-50 mt-1 max-h-64 w-(--input-width) overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
        >
          {items.map((keyword) => (
            <ComboboxOption
              key={keyword}
              value={withKeyword(value, keyword)}
              className="cursor-pointer px-3 py-2 text-slate-900 data-focus:bg-slate-100"
            >
              {keyword}
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </Combobox>
    </Field>
  );
}
