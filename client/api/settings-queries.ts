import { accountKey, keyedQuery } from './query-keys.ts';
import { getBrandingRecord, getCustomSchemas, getTenantSettings } from './settings-client.ts';
import { getGeneral } from './tenant-client.ts';

/** The keys and loads of the tenant's settings (the settings tabs), defined once. */
export const settingsQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'settings'] as const,
  /** The general settings with their version (a save sends it back). */
  general: (accountIndex: number) =>
    keyedQuery(
      [...settingsQueries.all(accountIndex), 'general'],
      async (signal) => (await getGeneral(accountIndex, signal)).general,
    ),
  /** The branding record as stored, with its version (not the shell's public branding). */
  branding: (accountIndex: number) =>
    keyedQuery(
      [...settingsQueries.all(accountIndex), 'branding'],
      async (signal) => (await getBrandingRecord(accountIndex, signal)).branding,
    ),
  /** Stored values of the tenant's setting keys, in the order asked. */
  values: (accountIndex: number, keys: readonly string[]) =>
    keyedQuery(
      [...settingsQueries.all(accountIndex), 'values', ...keys],
      async (signal) => (await getTenantSettings(accountIndex, keys, signal)).values,
    ),
  customSchemas: (accountIndex: number) =>
    keyedQuery(
      [...settingsQueries.all(accountIndex), 'custom-schemas'],
      async (signal) => (await getCustomSchemas(accountIndex, signal)).items,
    ),
};
