import { accountKey, keyedQuery } from './query-keys.ts';
import type { CustomSchemaEntity } from '#common/custom-schema-field.ts';
import {
  getBrandingRecord,
  getCustomSchemas,
  getTenantSettings,
  settingsGroupOf,
} from './settings-client.ts';
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
  /** The keys of a settings tab as one versioned record (a save sends its version back). */
  group: (accountIndex: number, keys: readonly string[]) =>
    keyedQuery([...settingsQueries.all(accountIndex), 'group', ...keys], async (signal) =>
      settingsGroupOf((await getTenantSettings(accountIndex, keys, signal)).values),
    ),
  /**
   * The tenant's general schema of an entity (the one without a product, which forms read), with
   * its version; version 0 and no fields while the entity has none.
   */
  customSchema: (accountIndex: number, entity: CustomSchemaEntity) =>
    keyedQuery([...settingsQueries.all(accountIndex), 'custom-schema', entity], async (signal) => {
      const { items } = await getCustomSchemas(accountIndex, signal);
      const schema = items.find((item) => item.entity === entity && item.productCode === null);
      return {
        entity,
        fields: schema?.fields ?? [],
        version: schema?.version ?? 0,
        updatedAt: schema?.updatedAt ?? '',
        updatedBy: schema?.updatedBy ?? '',
      };
    }),
  customSchemas: (accountIndex: number) =>
    keyedQuery(
      [...settingsQueries.all(accountIndex), 'custom-schemas'],
      async (signal) => (await getCustomSchemas(accountIndex, signal)).items,
    ),
};
