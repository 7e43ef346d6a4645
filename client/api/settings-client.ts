import type { CustomSchemaEntity, CustomSchemaFieldInput } from '#common/custom-schema-field.ts';
import { fetchJson } from './fetch-json.ts';
import type {
  SettingInput,
  BrandingInput,
  GeneralInput,
  GeneralSettings,
  BrandingRecord,
  CustomSchemaRecord,
  SettingValue,
} from '#common/contracts/tenant.ts';

/**
 * A setting to save: the contract's body, its value typed by the form that owns the key (the
 * chat widget's, the payment's...; common/product-settings.ts), which the service checks as JSON.
 */
type SettingSave = Omit<SettingInput, 'value'> & { value: unknown };

// The records' types are the tenantservice's contract (common/contracts/tenant.ts).
export type { BrandingRecord, CustomSchemaRecord, SettingValue };

/**
 * Tenant settings, branding, custom schemas and the user's own settings (tenant service through
 * the BFF proxy). One function per request; every one takes an AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1`;

export function getTenantSettings(
  accountIndex: number,
  keys: readonly string[],
  signal?: AbortSignal,
): Promise<{ values: SettingValue[] }> {
  const query = new URLSearchParams({ keys: keys.join(',') });
  return fetchJson(`${base(accountIndex)}/settings/tenant?${query.toString()}`, { signal });
}

export function saveTenantSetting(
  accountIndex: number,
  setting: SettingSave,
  signal?: AbortSignal,
): Promise<SettingValue> {
  return fetchJson(`${base(accountIndex)}/settings/tenant`, {
    method: 'POST',
    body: setting,
    signal,
  });
}

export function saveGeneral(
  accountIndex: number,
  general: GeneralInput,
  signal?: AbortSignal,
): Promise<{ general: GeneralSettings }> {
  return fetchJson(`${base(accountIndex)}/general`, { method: 'PUT', body: general, signal });
}

export function getBrandingRecord(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ branding: BrandingRecord }> {
  return fetchJson(`${base(accountIndex)}/branding`, { signal });
}

export function saveBranding(
  accountIndex: number,
  branding: BrandingInput,
  signal?: AbortSignal,
): Promise<{ branding: BrandingRecord }> {
  return fetchJson(`${base(accountIndex)}/branding`, { method: 'PUT', body: branding, signal });
}

export function getCustomSchemas(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ items: CustomSchemaRecord[] }> {
  return fetchJson(`${base(accountIndex)}/custom-schemas`, { signal });
}

/** The tenant's custom schema of one entity (organisations, claims, ...), or null when none. */
export async function getCustomSchema(
  accountIndex: number,
  entity: CustomSchemaEntity,
  signal?: AbortSignal,
): Promise<CustomSchemaRecord | null> {
  const params = new URLSearchParams({ filter: `entity=${entity}` });
  const page = await fetchJson<{ items: CustomSchemaRecord[] }>(
    `${base(accountIndex)}/custom-schemas?${params}`,
    { signal },
  );
  return page.items[0] ?? null;
}

export function saveCustomSchema(
  accountIndex: number,
  entity: CustomSchemaEntity,
  fields: readonly CustomSchemaFieldInput[],
  signal?: AbortSignal,
): Promise<{ schema: CustomSchemaRecord }> {
  return fetchJson(`${base(accountIndex)}/custom-schemas/${entity}`, {
    method: 'PUT',
    body: { fields },
    signal,
  });
}

export function getUserSettings(
  accountIndex: number,
  keys: readonly string[],
  signal?: AbortSignal,
): Promise<{ values: SettingValue[] }> {
  const query = new URLSearchParams({ keys: keys.join(',') });
  return fetchJson(`${base(accountIndex)}/settings/user?${query.toString()}`, { signal });
}

export function saveUserSetting(
  accountIndex: number,
  setting: Omit<SettingSave, 'isSensitive'>,
  signal?: AbortSignal,
): Promise<SettingValue> {
  return fetchJson(`${base(accountIndex)}/settings/user`, {
    method: 'POST',
    body: setting,
    signal,
  });
}

/** The value of `key` in a settings answer (null when the tenant or user has none). */
export function settingValue(values: readonly SettingValue[], key: string): unknown {
  return values.find((entry) => entry.key === key)?.value ?? null;
}
