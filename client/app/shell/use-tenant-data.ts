import { useEffect, useState } from 'react';
import i18next from 'i18next';
import type { SessionAccount } from '#machines/session.machine.ts';
import { getBranding, getGeneral, getTenant, type Branding } from '#client/api/tenant-client.ts';
import { cacheGeneralSettings, isLanguage, readChosenLanguage } from '#client/i18n/language.ts';

export const DEFAULT_TENANT_COLOR = '#1dc4e9';
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export interface TenantData {
  tenantName: string;
  branding: Branding | undefined;
}

/**
 * Tenant, general settings and branding of the account, loaded when its shell opens. Failures
 * fall back to the data of the token (spec, error catalogue) with a warning.
 */
export function useTenantData(account: SessionAccount): TenantData {
  const [tenantName, setTenantName] = useState(account.tenantName);
  const [branding, setBranding] = useState<Branding | undefined>();
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
    getGeneral(accountIndex, signal)
      .then(({ general }) => {
        cacheGeneralSettings(general);
        // The tenant's language applies unless the user chose one in the switcher.
        if (!readChosenLanguage() && isLanguage(general.language)) {
          void i18next.changeLanguage(general.language);
        }
      })
      .catch(warn('general settings load'));
    getBranding(accountIndex, signal)
      .then(({ branding: value }) => setBranding(value))
      .catch(warn('branding load'));
    return () => controller.abort();
  }, [accountIndex, tenantId]);

  const color = branding?.main_color;
  useEffect(() => {
    const value = color && HEX_COLOR.test(color) ? color : DEFAULT_TENANT_COLOR;
    document.documentElement.style.setProperty('--color-brand', value);
  }, [color]);

  return { tenantName, branding };
}
