import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
} from '@headlessui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayNameOf } from '#client/api/accounts-client.ts';
import type { DocumentOwner } from '#client/api/documents-client.ts';

const ownerName = (owner: DocumentOwner) =>
  displayNameOf(owner) || owner.accountNumber || owner.code;

/**
 * The document owners to search in: several at once, picked from the product's owners by typing
 * part of a name or number; each chosen one shows as a chip with a remove button. None chosen
 * means every owner (the search sends '*').
 */
export function OwnerSelect({
  owners,
  value,
  onChange,
  disabled,
}: {
  owners: readonly DocumentOwner[];
  value: readonly DocumentOwner[];
  onChange: (owners: DocumentOwner[]) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('documents');
  const [query, setQuery] = useState('');
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? owners.filter((o) => `${ownerName(o)} ${o.accountNumber}`.toLowerCase().includes(needle))
    : owners;

  return (
    <Field className="flex w-80 flex-col gap-1" disabled={disabled}>
      <Label className="text-sm font-medium text-slate-800">{t('search.owners')}</Label>
      <Combobox
        multiple
        immediate
        value={[...value]}
        by="code"
        onChange={(chosen: DocumentOwner[]) => {
          setQuery('');
          onChange(chosen);
        }}
        onClose={() => setQuery('')}
      >
        <div className="flex gap-1">
          <ComboboxInput
            placeholder={value.length ? t('search.owners_more') : t('search.owners_all')}
            // The typed text only filters; after a choice the field is empty again.
            displayValue={() => ''}
            onChange={(event) => setQuery(event.target.value)}
            className="min-w-0 flex-1 rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 disabled:bg-slate-100"
          />
          <ComboboxButton
            aria-label={t('search.owners_open')}
            className="rounded-md border border-slate-400 px-2 text-slate-700 hover:bg-slate-100"
          >
            <span aria-hidden="true">▾</span>
          </ComboboxButton>
        </div>
        <ComboboxOptions
          anchor="bottom start"
          modal={false}
          className="z-50 mt-1 max-h-64 w-(--input-width) overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
        >
          {shown.map((owner) => (
            <ComboboxOption
              key={owner.code}
              value={owner}
              className="group flex cursor-pointer items-center gap-2 px-3 py-2 text-slate-900 data-focus:bg-slate-100"
            >
              <span aria-hidden="true" className="invisible w-4 group-data-selected:visible">
                ✓
              </span>
              <span className="flex-1">{ownerName(owner)}</span>
              <span className="text-xs text-slate-600">{owner.accountNumber}</span>
            </ComboboxOption>
          ))}
          {shown.length === 0 ? (
            <div className="px-3 py-2 text-slate-600">{t('search.owners_none')}</div>
          ) : null}
        </ComboboxOptions>
      </Combobox>
      {value.length ? (
        <ul className="flex flex-wrap gap-1" aria-label={t('search.owners_chosen')}>
          {value.map((owner) => (
            <li
              key={owner.code}
              className="flex items-center gap-1 rounded-full bg-slate-200 py-0.5 pr-1 pl-3 text-sm text-slate-900"
            >
              {ownerName(owner)}
              <button
                type="button"
                aria-label={t('search.owner_remove', { name: ownerName(owner) })}
                onClick={() => onChange(value.filter((o) => o.code !== owner.code))}
                className="rounded-full px-1.5 text-slate-700 hover:bg-slate-300"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </Field>
  );
}
