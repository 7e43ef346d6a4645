import { fetchJson } from './fetch-json.ts';
import type { GeneralSettings } from '#common/contracts/tenant.ts';

// The record's type is the tenantservice's contract (common/contracts/tenant.ts).
export type { GeneralSettings };

/** The tenant service through the BFF proxy, with the account's token added server-side. */

export interface Tenant {
  id: number | string;
  name: string;
  slug: string;
}

/** Spec, section 9: the default tenant colour. */
export const DEFAULT_TENANT_COLOR = '#1dc4e9';

export interface Branding {
  main_color?: string | null;
  logo?: string | null;
  name?: string | null;
}

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1`;

export function getTenant(
  accountIndex: number,
  tenantId: number | string,
  signal?: AbortSignal,
): Promise<{ tenant: Tenant }> {
  return fetchJson(`${base(accountIndex)}/tenants/${encodeURIComponent(String(tenantId))}`, {
    signal,
  });
}

export function getGeneral(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ general: GeneralSettings }> {
  return fetchJson(`${base(accountIndex)}/general`, { signal });
}

export function getBranding(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ branding: Branding }> {
  return fetchJson(`${base(accountIndex)}/branding`, { signal });
}
