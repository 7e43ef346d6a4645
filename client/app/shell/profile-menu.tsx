import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { isAllowed } from '#common/permissions.ts';
import type { SessionAccount } from '#machines/session.machine.ts';
import type { Workspace } from '#client/api/bff-client.ts';
import { LazyMenu } from '#client/ui/lazy-menu.tsx';
import { rules } from '../route-table.ts';
import { menuItemClass } from './menu-item-class.ts';
import { useWorkspaceSwitch } from './workspace-switch.tsx';

function groupByTenant(workspaces: Workspace[]): [string, Workspace[]][] {
  const groups = new Map<string, Workspace[]>();
  for (const w of workspaces) groups.set(w.tenantName, [...(groups.get(w.tenantName) ?? []), w]);
  return [...groups.entries()];
}

/** Profile, settings, other accounts, add account, workspaces by tenant, logout (spec, shell). */
export function ProfileMenu({
  account,
  accounts,
}: {
  account: SessionAccount;
  accounts: SessionAccount[];
}) {
  const { t } = useTranslation('shell');
  const location = useLocation();
  const { workspaces, failed, requestSwitch, canSwitch } = useWorkspaceSwitch();
  const base = `/u/${account.accountIndex}`;
  const others = accounts.filter((a) => a.accountIndex !== account.accountIndex);
  const backUrl = encodeURIComponent(location.pathname + location.search + location.hash);
  const current = account.workspace ?? account.tenantSlug;

  return (
    <LazyMenu
      trigger={{
        className:
          'inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100',
        'aria-label': t('header.profile_menu', { user: account.userFullName || account.userName }),
        children: (
          <>
            <span
              aria-hidden="true"
              className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand font-bold text-on-brand"
            >
              {(account.userFullName || account.userName).slice(0, 1).toUpperCase()}
            </span>
            <span className="hidden whitespace-nowrap lg:inline">
              {account.userFullName || account.userName}
            </span>
          </>
        ),
      }}
    >
      {({ MenuItems, MenuItem, MenuSeparator, MenuSection, MenuHeading }) => (
        <MenuItems
          anchor="bottom end"
          className="z-50 mt-1 max-h-[80vh] w-72 overflow-y-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg focus:outline-none"
        >
          {isAllowed(account.permissions, rules.profile) ? (
            <MenuItem>
              <Link to={`${base}/profile`} className={menuItemClass}>
                {t('profile_menu.profile')}
              </Link>
            </MenuItem>
          ) : null}
          {isAllowed(account.permissions, rules.settings) ? (
            <MenuItem>
              <Link to={`${base}/settings`} className={menuItemClass}>
                {t('profile_menu.settings')}
              </Link>
            </MenuItem>
          ) : null}
          <MenuSeparator className="my-1 h-px bg-slate-200" />
          {others.length > 0 ? (
            <MenuSection>
              <MenuHeading className="px-3 pt-2 pb-1 text-xs font-semibold text-slate-600 uppercase">
                {t('profile_menu.other_accounts')}
              </MenuHeading>
              {others.map((other) => (
                <MenuItem key={other.accountIndex}>
                  <Link to={`/u/${other.accountIndex}`} className={menuItemClass}>
                    <span className="flex flex-col">
                      <span>{other.userFullName || other.userName}</span>
                      <span className="text-xs text-slate-600">
                        {other.userName} · {other.tenantName}
                      </span>
                    </span>
                  </Link>
                </MenuItem>
              ))}
            </MenuSection>
          ) : null}
          <MenuItem>
            <Link to={`/login?backUrl=${backUrl}`} className={menuItemClass}>
              {t('profile_menu.add_account')}
            </Link>
          </MenuItem>
          <MenuSeparator className="my-1 h-px bg-slate-200" />
          <MenuSection>
            <MenuHeading className="px-3 pt-2 pb-1 text-xs font-semibold text-slate-600 uppercase">
              {t('profile_menu.workspaces')}
            </MenuHeading>
            {failed ? (
              <p className="px-3 py-2 text-sm text-red-700">
                {t('profile_menu.workspaces_failed')}
              </p>
            ) : !workspaces ? (
              <p className="px-3 py-2 text-sm text-slate-600">
                {t('profile_menu.workspaces_loading')}
              </p>
            ) : (
              groupByTenant(workspaces).map(([tenantName, list]) => (
                <div key={tenantName} role="group" aria-label={tenantName}>
                  <p className="px-3 pt-1 text-xs text-slate-600">{tenantName}</p>
                  {list.map((workspace) => {
                    const isCurrent = workspace.slug === current;
                    return (
                      <MenuItem
                        key={workspace.slug}
                        disabled={workspace.isDisabled || isCurrent || !canSwitch(workspace.slug)}
                      >
                        <button
                          type="button"
                          className={menuItemClass}
                          onClick={() => requestSwitch(workspace)}
                          aria-current={isCurrent ? 'true' : undefined}
                        >
                          <span className="flex-1">{workspace.name}</span>
                          {isCurrent ? (
                            <span className="text-xs text-slate-600">
                              ({t('profile_menu.workspace_current')})
                            </span>
                          ) : null}
                          {workspace.isDisabled ? (
                            <span className="text-xs">
                              ({t('profile_menu.workspace_disabled')})
                            </span>
                          ) : null}
                        </button>
                      </MenuItem>
                    );
                  })}
                </div>
              ))
            )}
          </MenuSection>
          <MenuSeparator className="my-1 h-px bg-slate-200" />
          <MenuItem>
            <Link to={`${base}/logout`} className={menuItemClass}>
              {t('profile_menu.logout')}
            </Link>
          </MenuItem>
        </MenuItems>
      )}
    </LazyMenu>
  );
}
