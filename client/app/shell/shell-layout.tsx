import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { notificationSocketMachine } from '#machines/notification-socket.machine.ts';
import type { SessionAccount } from '#machines/session.machine.ts';
import { getAppConfig } from '#client/api/app-config.ts';
import { browserSocketConnector } from '#client/api/notification-socket.ts';
import { NotificationSocketContext } from '#client/api/notification-socket-context.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { ConfirmProvider } from '#client/ui/confirm-dialog.tsx';
import { TenantLogo } from '#client/ui/fallback-logo.tsx';
import { ToastProvider } from '#client/ui/toast.tsx';
import { useDateDisplay } from '#client/ui/form/date-display-store.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { FullscreenIcon, MenuIcon } from '#client/ui/icons.tsx';
import { useCurrentAccount } from '../guards.tsx';
import { AccessChangeListener } from './access-change-listener.tsx';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { ConnectionState } from './connection-state.tsx';
import { EnvironmentBanner } from './environment-banner.tsx';
import { HelpMenu, LanguageMenu, ProductSelector } from './header-menus.tsx';
import { HeaderSearch } from './header-search.tsx';
import { ProfileMenu } from './profile-menu.tsx';
import { SideMenu } from './side-menu.tsx';
import { TourDialog } from './tour-dialog.tsx';
import { useTenantData } from './use-tenant-data.ts';
import { WorkspaceSwitchProvider } from './workspace-switch.tsx';
import { ServerStateProvider } from '../server-state.tsx';

const socketLogic = notificationSocketMachine.provide({
  actors: { connectSocket: browserSocketConnector },
});

function useFullscreen(): [boolean, () => void] {
  const [active, setActive] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const update = () => setActive(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => {});
  };
  return [active, toggle];
}

/** The application shell of one account: side menu, header, breadcrumbs, footer (spec). */
export default function ShellLayout() {
  const account = useCurrentAccount();
  if (!account) return null; // The account guard has already redirected.
  // Keyed by account: moving between /u/0 and /u/1 starts a fresh socket and tenant load. The
  // server-state cache sits outside that key and outlives the move: its keys carry the account.
  return (
    <ServerStateProvider>
      <NotificationSocketContext.Provider
        key={account.accountIndex}
        logic={socketLogic}
        options={{ input: { url: `/ws?account=${account.accountIndex}` } }}
      >
        <WorkspaceSwitchProvider accountIndex={account.accountIndex}>
          {/* Every screen of the shell can ask for a confirmation or announce a finished action. */}
          <ToastProvider>
            <ConfirmProvider>
              <AccessChangeListener accountIndex={account.accountIndex} />
              <Shell account={account} />
            </ConfirmProvider>
          </ToastProvider>
        </WorkspaceSwitchProvider>
      </NotificationSocketContext.Provider>
    </ServerStateProvider>
  );
}

function Shell({ account }: { account: SessionAccount }) {
  const { t } = useTranslation(['shell', 'common']);
  const accounts = SessionActorContext.useSelector((s) => s.context.accounts);
  const { tenantName, branding, datesReady } = useTenantData(account);
  // The page is drawn again, from its data, when the tenant's date display changes (loaded
  // fresher than the cache, or saved on the settings screen): formatted dates live in its rows.
  const dates = useDateDisplay();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenuRef = useRef<HTMLButtonElement>(null);
  const [tourOpen, setTourOpen] = useState(false);
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const location = useLocation();
  const workspace = account.workspace ?? account.tenantSlug;

  // A navigation closes the folded-out menu on narrow screens, and so does Escape.
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    // Keyboard users land in the menu they just opened (the toggle is now covered by it).
    closeMenuRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('header.skip_to_content')}
      </a>
      <EnvironmentBanner workspace={workspace} />
      <header className="flex items-center gap-2 border-b-4 print:hidden border-brand bg-white px-3 py-2 shadow-sm">
        <button
          type="button"
          className="inline-flex items-center rounded-md px-3 py-2 text-slate-800 hover:bg-slate-100 nav:hidden"
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          aria-label={menuOpen ? t('menu.collapse') : t('menu.expand')}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <MenuIcon />
        </button>
        <TenantLogo
          key={branding?.logo ?? 'none'}
          src={branding?.logo ?? null}
          alt={t('header.logo_alt', { tenant: tenantName })}
          className="size-9 rounded object-contain"
        />
        <p className="mr-2 hidden font-semibold text-slate-900 md:block">{tenantName}</p>
        {/* Below 640 px the product selector (one product with screens) and the full-screen
            switch give their room to the profile menu, which must stay reachable: accounts and
            workspaces are switched there. */}
        <div className="hidden sm:block">
          <ProductSelector />
        </div>
        <div className="ml-auto flex min-w-0 items-center gap-1">
          <HeaderSearch accountIndex={account.accountIndex} permissions={account.permissions} />
          <HelpMenu accountIndex={account.accountIndex} onTour={() => setTourOpen(true)} />
          <LanguageMenu />
          <button
            type="button"
            className="hidden items-center rounded-md px-3 py-2 text-sm text-slate-800 hover:bg-slate-100 sm:inline-flex"
            aria-pressed={fullscreen}
            onClick={toggleFullscreen}
          >
            <FullscreenIcon exit={fullscreen} />
            <span className="sr-only md:not-sr-only md:ml-1">
              {fullscreen ? t('header.fullscreen_exit') : t('header.fullscreen_enter')}
            </span>
          </button>
          <ProfileMenu account={account} accounts={accounts} />
        </div>
      </header>
      <div className="flex flex-1">
        {menuOpen ? (
          // The folded-out menu covers the page on narrow screens; a click beside it closes it.
          <div
            aria-hidden="true"
            className="fixed inset-0 z-30 bg-slate-900/40 nav:hidden"
            onClick={() => setMenuOpen(false)}
          />
        ) : null}
        <aside
          id="side-menu"
          className={`${menuOpen ? 'fixed inset-y-0 left-0 z-40 flex' : 'hidden'} w-64 shrink-0 flex-col bg-chrome nav:static nav:flex print:hidden`}
        >
          <button
            ref={closeMenuRef}
            type="button"
            className="m-3 mb-0 inline-flex items-center gap-2 self-start rounded-md px-3 py-2 text-sm text-slate-100 hover:bg-white/10 nav:hidden"
            onClick={() => setMenuOpen(false)}
          >
            <MenuIcon />
            {t('menu.collapse')}
          </button>
          <SideMenu
            accountIndex={account.accountIndex}
            permissions={account.permissions}
            onNavigate={() => setMenuOpen(false)}
          />
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <main id="main-content" tabIndex={-1} className="flex-1 p-4 md:p-6">
            <Breadcrumbs />
            {datesReady ? (
              <Fragment key={`${dates.dateFormat}|${dates.timeFormat}|${dates.timeZone}`}>
                <Outlet />
              </Fragment>
            ) : (
              <Spinner label={t('common:status.loading')} />
            )}
          </main>
          {/* Small print, each part a block of its own: as one line of normal text the footer was
              the page's largest text, so the largest contentful paint of every list was the
              footer, painted before the table (issue 14, bench/list-long-tasks.ts). */}
          <footer className="flex flex-wrap items-center justify-between gap-2 bg-chrome px-4 py-2 text-xs text-slate-100">
            <div className="flex flex-wrap gap-x-3">
              <p>
                {t('footer.copyright', {
                  year: new Date().getFullYear(),
                  product: t('common:product.name'),
                })}
              </p>
              <p>{t('footer.build', { build: getAppConfig().buildId })}</p>
            </div>
            <ConnectionState />
          </footer>
        </div>
      </div>
      <TourDialog open={tourOpen} onClose={() => setTourOpen(false)} />
    </div>
  );
}
