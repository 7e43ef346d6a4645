import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LazyCombobox } from '#client/ui/lazy-combobox.tsx';
import { visibleMenu } from '../menu-access.ts';
import type { ScreenRoute } from '../route-table.ts';

/**
 * The header search box. Until a search service exists upstream, it finds the screens this user
 * may open (the same permission-filtered route table as the side menu) by their translated name,
 * so it never offers a screen that would answer 403. Enter or a click opens the screen.
 */
export function HeaderSearch({
  accountIndex,
  permissions,
}: {
  accountIndex: number;
  permissions: readonly string[];
}) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const [query, setQuery] = useState('');

  const screens = useMemo(() => {
    const all: ScreenRoute[] = visibleMenu(permissions).flatMap((group) =>
      group.items.flatMap((item) => (item.kind === 'screen' ? [item.screen] : item.children)),
    );
    return all.map((screen) => ({ screen, name: t(screen.label) }));
  }, [permissions, t]);

  const needle = query.trim().toLocaleLowerCase();
  const found = needle ? screens.filter((s) => s.name.toLocaleLowerCase().includes(needle)) : [];

  return (
    <LazyCombobox
      field={{
        'aria-label': t('header.search'),
        placeholder: t('header.search_placeholder'),
        className:
          'w-44 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus:w-60 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 lg:w-56',
        boxClassName: 'relative hidden md:block',
        query,
        onQueryChange: setQuery,
      }}
      onChoose={(choice: (typeof screens)[number]) => {
        setQuery('');
        void navigate(`/u/${accountIndex}/${choice.screen.path}`);
      }}
    >
      {({ ComboboxOptions, ComboboxOption }) =>
        needle ? (
          <ComboboxOptions
            anchor="bottom start"
            className="z-50 mt-1 w-64 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
          >
            {found.length === 0 ? (
              <div className="px-3 py-2 text-slate-600">{t('header.search_no_results')}</div>
            ) : (
              found.map((s) => (
                <ComboboxOption
                  key={s.screen.id}
                  value={s}
                  className="cursor-pointer px-3 py-2 text-slate-900 data-focus:bg-slate-100"
                >
                  {s.name}
                </ComboboxOption>
              ))
            )}
          </ComboboxOptions>
        ) : null
      }
    </LazyCombobox>
  );
}
