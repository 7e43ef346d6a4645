import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { languages, storeChosenLanguage, type Language } from '#client/i18n/language.ts';
import { LazyMenu } from '#client/ui/lazy-menu.tsx';
import { CheckIcon, ChevronDownIcon, GlobeIcon } from '#client/ui/icons.tsx';
import { menuItemClass, menuPanelClass } from './menu-item-class.ts';

const headerButtonClass =
  'inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100';

/** eis is the product with screens; pbm is listed but disabled until its screens exist. */
export function ProductSelector() {
  const { t } = useTranslation(['common', 'shell']);
  return (
    <LazyMenu
      trigger={{
        className: headerButtonClass,
        'aria-label': t('shell:header.product_selector'),
        children: (
          <>
            {t('product.eis')} <ChevronDownIcon />
          </>
        ),
      }}
    >
      {({ MenuItems, MenuItem }) => (
        <MenuItems anchor="bottom start" className={menuPanelClass}>
          <MenuItem>
            <button type="button" className={menuItemClass} aria-current="true">
              <CheckIcon /> {t('product.eis')}
            </button>
          </MenuItem>
          <MenuItem disabled>
            <span className={menuItemClass}>
              {t('product.pbm')} ({t('status.coming_soon')})
            </span>
          </MenuItem>
        </MenuItems>
      )}
    </LazyMenu>
  );
}

export function HelpMenu({ accountIndex, onTour }: { accountIndex: number; onTour: () => void }) {
  const { t } = useTranslation('shell');
  const base = `/u/${accountIndex}/help`;
  const links = [
    ['documentation', t('help.documentation')],
    ['release-notes', t('help.release_notes')],
  ] as const;
  const legal = [
    ['support', t('help.support')],
    ['imprint', t('help.imprint')],
    ['privacy', t('help.privacy')],
  ] as const;
  return (
    <LazyMenu
      trigger={{
        className: headerButtonClass,
        children: (
          <>
            {t('header.help')} <ChevronDownIcon />
          </>
        ),
      }}
    >
      {({ MenuItems, MenuItem, MenuSeparator }) => (
        <MenuItems anchor="bottom end" className={menuPanelClass}>
          {links.map(([topic, label]) => (
            <MenuItem key={topic}>
              <Link to={`${base}/${topic}`} className={menuItemClass}>
                {label}
              </Link>
            </MenuItem>
          ))}
          <MenuItem>
            <button type="button" className={menuItemClass} onClick={onTour}>
              {t('help.tour')}
            </button>
          </MenuItem>
          <MenuSeparator className="my-1 h-px bg-slate-200" />
          {legal.map(([topic, label]) => (
            <MenuItem key={topic}>
              <Link to={`${base}/${topic}`} className={menuItemClass}>
                {label}
              </Link>
            </MenuItem>
          ))}
        </MenuItems>
      )}
    </LazyMenu>
  );
}

/** Lists the other languages; a choice is remembered and the page reloads in it (spec). */
export function LanguageMenu() {
  const { t, i18n } = useTranslation(['shell', 'common']);
  const current = i18n.language as Language;
  function choose(language: Language) {
    storeChosenLanguage(language);
    window.location.reload();
  }
  return (
    <LazyMenu
      trigger={{
        className: headerButtonClass,
        'aria-label': t('header.language_current', { language: t(`common:languages.${current}`) }),
        children: (
          <>
            <GlobeIcon /> {current.toUpperCase()}
          </>
        ),
      }}
    >
      {({ MenuItems, MenuItem }) => (
        <MenuItems anchor="bottom end" className={menuPanelClass}>
          {languages
            .filter((l) => l !== current)
            .map((language) => (
              <MenuItem key={language}>
                <button
                  type="button"
                  lang={language}
                  className={menuItemClass}
                  onClick={() => choose(language)}
                >
                  {t(`common:languages.${language}`)}
                </button>
              </MenuItem>
            ))}
        </MenuItems>
      )}
    </LazyMenu>
  );
}
