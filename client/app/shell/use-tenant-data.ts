import { useEffect, useState } from 'react';
import i18next from 'i18next';
import type { SessionAccount } from '#machines/session.machine.ts';
import { textOnBrand } from '#client/ui/brand-contrast.ts';
import {
  DEFAULT_TENANT_COLOR,
  getBranding,
  getGeneral,
  getTenant,
  type Branding,
} from '#client/api/tenant-client.ts';
import { getUserSettings, settingValue } from '#client/api/settings-client.ts';
import { onBrandingSaved } from '#client/api/tenant-branding-events.ts';
import {
  USER_LANGUAGE_SETTING,
  cacheGeneralSettings,
  loadedLanguage,
  readCachedGeneral,
  readChosenLanguage,
} from '#client/i18n/language.ts';
import { dateDisplayOf } from '#common/date-display-settings.ts';
import { setDateDisplay } from '#client/ui/form/date-display-store.ts';

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export interface TenantData {
  tenantName: string;
  branding: Branding | undefined;
  /**
   * The tenant's date display is known: from this browser's cache at once, else when the general
   * settings have answered (or failed, then the defaults). Pages wait for it, so that no date is
   * shown in a format that changes a moment later.
   */
  datesReady: boolean;
}

/**
 * Tenant, general settings and branding of the account, loaded when its shell opens. Failures
 * fall back to the data of the token (spec, error catalogue) with a warning.
 */
export function useTenantData(account: SessionAccount): TenantData {
  const [tenantName, setTenantName] = useState(account.tenantName);
  const [branding, setBranding] = useState<Branding | undefined>();
  const [datesReady, setDatesReady] = useState(() => {
    const cached = readCachedGeneral();
    if (cached) setDateDisplay(dateDisplayOf(cached));
    return cached !== null;
  });
  const { accountIndex, tenantId } = account;

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const warn = (what: string) => (error: unknown) => {
      if (!signal.aborted) console.warn(`${what} failed; using the token's data`, error);
    };
    getTenant(accountIndex, tenantId, signal)
      .then(({ tenant }) => setTenantName(tenant.name))
      .catch(warn('tenant load'));
    // Both before choosing: the user's own language outranks the tenant's (no flicker between).
    void Promise.allSettled([
      getGeneral(accountIndex, signal),
      getUserSettings(accountIndex, [USER_LANGUAGE_SETTING], signal),
    ]).then(([general, user]) => {
      if (general.status === 'fulfilled') {
        cacheGeneralSettings(general.value.general);
        if (!signal.aborted) setDateDisplay(dateDisplayOf(general.value.general));
      } else warn('general settings load')(general.reason);
      if (!signal.aborted) setDatesReady(true);
      if (user.status === 'rejected') warn('user settings load')(user.reason);
      if (signal.aborted) return;
      const language = loadedLanguage(
        readChosenLanguage(),
        user.status === 'fulfilled' ? settingValue(user.value.values, USER_LANGUAGE_SETTING) : null,
        general.status === 'fulfilled' ? general.value.general.language : null,
      );
      if (language && language !== i18next.language) void i18next.changeLanguage(language);
    });
    getBranding(accountIndex, signal)
      .then(({ branding: value }) => setBranding(value))
      .catch(warn('branding load'));
    // Branding saved on the settings screen applies at once.
    const stopListening = onBrandingSaved((savedFor, value) => {
      if (savedFor === accountIndex) setBranding(value);
    });
    return () => {
      controller.abort();
      stopListening();
    };
  }, [accountIndex, tenantId]);

  const color = branding?.main_color;
  useEffect(() => {
    const value = color && HEX_COLOR.test(color) ? color : DEFAULT_TENANT_COLOR;
    document.documentElement.style.setProperty('--color-brand', value);
    document.documentElement.style.setProperty('--color-on-brand', textOnBrand(value));
  }, [color]);

  return { tenantName, branding, datesReady };
}
