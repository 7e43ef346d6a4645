import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { ChevronRightIcon } from '#client/ui/icons.tsx';
import { visibleMenu } from '../menu-access.ts';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm ${
    isActive ? 'bg-white/15 font-semibold text-white' : 'text-slate-100 hover:bg-white/10'
  }`;

/** Side menu: groups, collapsible sub-menus and Logout, from the route table (spec, shell). */
export function SideMenu({
  accountIndex,
  permissions,
  onNavigate,
}: {
  accountIndex: number;
  permissions: readonly string[];
  onNavigate: () => void;
}) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const base = `/u/${accountIndex}`;
  const groups = visibleMenu(permissions);
  return (
    <nav aria-label={t('menu.label')} className="flex h-full flex-col gap-4 p-3">
      {groups.map((group) => (
        <div key={group.id}>
          <h2 className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-300 uppercase">
            {t(group.label)}
          </h2>
          <ul className="flex flex-col gap-1">
            {group.items.map((item) =>
              item.kind === 'screen' ? (
                <li key={item.screen.id}>
                  <NavLink
                    to={`${base}/${item.screen.path}`}
                    className={itemClass}
                    onClick={onNavigate}
                  >
                    {t(item.screen.label)}
                  </NavLink>
                </li>
              ) : (
                <li key={item.id}>
                  <MenuGroup
                    label={t(item.label)}
                    defaultOpen={item.children.some((c) =>
                      pathname.startsWith(`${base}/${c.path}`),
                    )}
                  >
                    {item.children.map((child) => (
                      <li key={child.id}>
                        <NavLink
                          to={`${base}/${child.path}`}
                          className={itemClass}
                          onClick={onNavigate}
                        >
                          {t(child.label)}
                        </NavLink>
                      </li>
                    ))}
                  </MenuGroup>
                </li>
              ),
            )}
          </ul>
        </div>
      ))}
      <div className="mt-auto border-t border-white/20 pt-3">
        <Link
          to={`${base}/logout`}
          className="block rounded-md px-3 py-2 text-sm text-slate-100 hover:bg-white/10"
        >
          {t('menu.logout')}
        </Link>
      </div>
    </nav>
  );
}

/**
 * A group of the side menu that folds open. Plain React rather than Headless UI's Disclosure, as
 * a native button already gives the keyboard access and this keeps the Headless UI code out of
 * the shell's first load (issue 14).
 */
function MenuGroup({
  label,
  defaultOpen,
  children,
}: {
  label: string;
  defaultOpen: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const panelId = useId();
  return (
    <>
      <button
        type="button"
        className="flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm text-slate-100 hover:bg-white/10"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
      >
        {label}
        <ChevronRightIcon className={`transition ${open ? 'rotate-90' : ''}`} />
      </button>
      {open ? (
        <ul id={panelId} className="mt-1 flex flex-col gap-1 pl-4">
          {children}
        </ul>
      ) : null}
    </>
  );
}
