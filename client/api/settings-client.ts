import type { CustomSchemaEntity, CustomSchemaFieldInput } from '#common/custom-schema-field.ts';
import { ApiError, fetchJson } from './fetch-json.ts';
import type {
  TenantSettingValue,
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
export type { BrandingRecord, CustomSchemaRecord, SettingValue, TenantSettingValue };

/**
 * Tenant settings, branding, custom schemas and the user's own settings (tenant service through
 * the BFF proxy). One function per request; every one takes an AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1`;

export function getTenantSettings(
  accountIndex: number,
  keys: readonly string[],
  signal?: AbortSignal,
): Promise<{ values: TenantSettingValue[] }> {
  const query = new URLSearchParams({ keys: keys.join(',') });
  return fetchJson(`${base(accountIndex)}/settings/tenant?${query.toString()}`, { signal });
}

export function saveTenantSetting(
  accountIndex: number,
  setting: SettingSave,
  signal?: AbortSignal,
): Promise<TenantSettingValue> {
  return fetchJson(`${base(accountIndex)}/settings/tenant`, {
    method: 'POST',
    body: setting,
    signal,
  });
}

/**
 * The keys of a settings tab (chat widget, payment, dashboard) as one versioned record: their
 * values, and the version and stamps of the newest of them (the sandbox gives every save the
 * tenant's next settings revision, so the newest key tells whether any of them changed).
 */
export interface SettingsGroup {
  values: Readonly<Record<string, unknown>>;
  version: number;
  updatedAt: string;
  updatedBy: string;
}

export function settingsGroupOf(values: readonly TenantSettingValue[]): SettingsGroup {
  const newest = values.reduce<TenantSettingValue | null>(
    (found, setting) => (found === null || setting.version > found.version ? setting : found),
    null,
  );
  return {
    values: Object.fromEntries(values.map((setting) => [setting.key, setting.value])),
    version: newest?.version ?? 0,
    updatedAt: newest?.updatedAt ?? '',
    updatedBy: newest?.updatedBy ?? '',
  };
}

/**
 * Saves the keys of a settings tab in the order given, one call each (the spec's POST takes one
 * key), each on top of the tab's version. A key somebody saved since is refused 409 with that key
 * alone; the tab as saved now is read then and the conflict carries it whole, under `group`, as
 * a versioned record's conflict does. Keys saved before the refused one stay saved (they had not
 * changed, so nothing was overwritten); the conflict shows the tab with them.
 */
export async function saveSettingsGroup(
  accountIndex: number,
  settings: readonly SettingSave[],
  version: number,
): Promise<SettingsGroup> {
  const saved: TenantSettingValue[] = [];
  for (const setting of settings) {
    try {
      saved.push(await saveTenantSetting(accountIndex, { ...setting, version }));
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'version_conflict')) throw error;
      const keys = settings.map((entry) => entry.key);
      const { values } = await getTenantSettings(accountIndex, keys);
      throw new ApiError(error.status, error.code, error.message, {
        group: settingsGroupOf(values),
      });
    }
  }
  return settingsGroupOf(saved);
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

/** Saves on top of the schema's `version` as read, 0 for an entity without one yet. */
export function saveCustomSchema(
  accountIndex: number,
  entity: CustomSchemaEntity,
  fields: readonly CustomSchemaFieldInput[],
  version: number,
  signal?: AbortSignal,
): Promise<{ schema: CustomSchemaRecord }> {
  return fetchJson(`${base(accountIndex)}/custom-schemas/${entity}`, {
    method: 'PUT',
    body: { fields, version },
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
