import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  factorValuesForVersion,
  getBookingFunnelVersion,
  getProductTestCase,
  listBookingFunnels,
  listDefaultProductFields,
  listInsuredObjectTypes,
  listNamedRanges,
  newestFactorUpdate,
  type FactorValues,
} from './product-extras-client.ts';
import {
  getProduct,
  listAllProducts,
  listInsuredObjects,
  listPremiumFormulas,
  type Product,
} from './products-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';
import { getTenantSettings } from './settings-client.ts';
import { productSettingKey } from '#common/product-settings.ts';
import { getProductTexts, listProductLanguages } from './translations-client.ts';

/** The keys and loads of products and their versions' parts, defined once. */
export const productQueries = {
  /** Everything of the products: invalidated after a product, version or part is saved. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'products'] as const,
  /** Every product of the tenant, for a filter or a chooser. */
  list: (accountIndex: number) =>
    keyedQuery([...productQueries.all(accountIndex), 'list'], (signal) =>
      listAllProducts(accountIndex, signal),
    ),
  detail: (accountIndex: number, productId: string) =>
    keyedQuery([...productQueries.all(accountIndex), 'detail', productId], (signal) =>
      getProduct(accountIndex, productId, signal),
    ),
  /** A version's parts live under one prefix, so a change to one of them invalidates them all. */
  version: (accountIndex: number, versionId: number) =>
    [...productQueries.all(accountIndex), 'version', versionId] as const,
  insuredObjects: (accountIndex: number, versionId: number) =>
    keyedQuery([...productQueries.version(accountIndex, versionId), 'insured-objects'], (signal) =>
      listInsuredObjects(accountIndex, versionId, signal),
    ),
  /** The product's texts in one language, for the labels of the version's fields. */
  texts: (accountIndex: number, versionId: number, language: string) =>
    keyedQuery([...productQueries.version(accountIndex, versionId), 'texts', language], (signal) =>
      getProductTexts(accountIndex, versionId, language, signal),
    ),
  premiumFormulas: (accountIndex: number, versionId: number) =>
    keyedQuery([...productQueries.version(accountIndex, versionId), 'premium-formulas'], (signal) =>
      listPremiumFormulas(accountIndex, versionId, signal),
    ),
  namedRanges: (accountIndex: number, versionId: number) =>
    keyedQuery([...productQueries.version(accountIndex, versionId), 'named-ranges'], (signal) =>
      listNamedRanges(accountIndex, versionId, signal),
    ),
  /** The version's stored test case (the values the activation trial uses). */
  testCase: (accountIndex: number, versionId: number) =>
    keyedQuery([...productQueries.version(accountIndex, versionId), 'test-case'], (signal) =>
      getProductTestCase(accountIndex, versionId, signal),
    ),
  /** The version's factor tables under the cache rule of `loadFactorTables`. */
  factors: (accountIndex: number, versionId: number, source: FactorSource = serviceFactors) =>
    queryOptions({
      queryKey: [...productQueries.version(accountIndex, versionId), 'factors'],
      queryFn: ({ client, signal }) =>
        loadFactorTables(client, accountIndex, versionId, signal, source),
    }),
  /** The product's translation languages; keyed by the product's slug, which the service filters by. */
  languages: (accountIndex: number, productSlug: string) =>
    keyedQuery([...productQueries.all(accountIndex), 'languages', productSlug], (signal) =>
      listProductLanguages(accountIndex, productSlug, signal),
    ),
  bookingFunnels: (accountIndex: number, productId: number) =>
    keyedQuery([...productQueries.all(accountIndex), 'booking-funnels', productId], (signal) =>
      listBookingFunnels(accountIndex, productId, signal),
    ),
  /** A saved version of a funnel never changes, so one key per funnel and version. */
  bookingFunnelVersion: (accountIndex: number, code: string, version: number) =>
    keyedQuery(
      [...productQueries.all(accountIndex), 'booking-funnel-version', code, version],
      (signal) => getBookingFunnelVersion(accountIndex, code, version, signal),
    ),
  insuredObjectTypes: (accountIndex: number) =>
    keyedQuery([...productQueries.all(accountIndex), 'insured-object-types'], (signal) =>
      listInsuredObjectTypes(accountIndex, signal),
    ),
  /** Per product its booking funnel's CSS and summary heading (the product settings page). */
  settings: (accountIndex: number) =>
    keyedQuery([...productQueries.all(accountIndex), 'settings'], (signal) =>
      loadProductSettings(accountIndex, signal),
    ),
  defaultFields: (accountIndex: number, insuredObjectTypeId: number) =>
    keyedQuery(
      [...productQueries.all(accountIndex), 'default-fields', insuredObjectTypeId],
      (signal) => listDefaultProductFields(accountIndex, insuredObjectTypeId, signal),
    ),
};

// -- product settings

export interface ProductSettings {
  css: string;
  summaryLabel: string;
}

/** The tenant service reads at most 50 keys per call: two per product. */
const PRODUCTS_PER_READ = 25;

/** Every product with its settings, kept as tenant settings bf_custom_css_{slug} and summary_label_setting_{slug}. */
async function loadProductSettings(
  accountIndex: number,
  signal: AbortSignal,
): Promise<{ product: Product; settings: ProductSettings }[]> {
  const products = await listAllProducts(accountIndex, signal);
  const values = new Map<string, unknown>();
  for (let i = 0; i < products.length; i += PRODUCTS_PER_READ) {
    const keys = products
      .slice(i, i + PRODUCTS_PER_READ)
      .flatMap((p) => [
        productSettingKey('bookingFunnelCss', p.slug),
        productSettingKey('summaryLabel', p.slug),
      ]);
    const res = await getTenantSettings(accountIndex, keys, signal);
    for (const entry of res.values) values.set(entry.key, entry.value);
  }
  const text = (key: string) => {
    const value = values.get(key);
    return typeof value === 'string' ? value : '';
  };
  return products.map((product) => ({
    product,
    settings: {
      css: text(productSettingKey('bookingFunnelCss', product.slug)),
      summaryLabel: text(productSettingKey('summaryLabel', product.slug)),
    },
  }));
}

// -- the factor rule (spec section 9: factor tables are "cached per product version and refreshed
// when the newest updatedAt differs"; docs/decisions/003: two queries)

/** Where the factor rule reads from: the service, or a fake one in the unit test. */
export interface FactorSource {
  /** The newest updatedAt of the version's factor tables, null without any. */
  newest: (accountIndex: number, versionId: number, signal: AbortSignal) => Promise<string | null>;
  tables: (accountIndex: number, versionId: number, signal: AbortSignal) => Promise<FactorValues>;
}

const serviceFactors: FactorSource = { newest: newestFactorUpdate, tables: factorValuesForVersion };

/** The key part of a version without factor tables. */
export const NO_FACTORS_KEY = 'none';

export const factorQueries = {
  /**
   * The tables of one version, every `updatedAt` they were loaded at. Outside the version's prefix
   * on purpose: saving a field or a formula invalidates the version's parts, and the tables must
   * then be checked (the newest updatedAt), not fetched again.
   */
  tablesOf: (accountIndex: number, versionId: number) =>
    [...productQueries.all(accountIndex), 'factor-tables', versionId] as const,
  /** The newest change: never fresh (`staleTime: 0`), so every read asks the service again. */
  newest: (accountIndex: number, versionId: number, source: FactorSource) =>
    keyedQuery(
      [...productQueries.version(accountIndex, versionId), 'factors-newest'],
      (signal) => source.newest(accountIndex, versionId, signal),
      { staleTime: 0 },
    ),
  /**
   * The tables as of one newest change. Their key holds that `updatedAt`, so they stay fresh
   * until it differs (a new key), and they are kept while the tab lives (the page that shows them
   * is left and opened again).
   */
  tables: (accountIndex: number, versionId: number, newest: string | null, source: FactorSource) =>
    keyedQuery(
      [...factorQueries.tablesOf(accountIndex, versionId), newest ?? NO_FACTORS_KEY],
      (signal) => source.tables(accountIndex, versionId, signal),
      { staleTime: Infinity, gcTime: Infinity },
    ),
};

/**
 * A version's factor tables: first the newest `updatedAt` (always asked again), then the tables
 * keyed by it, from the cache while it is the same. A failed check gives no key (the spec's
 * `invalid`, never fresh): the tables are then loaded past the cache and not kept, so a failure
 * can never show stale tables. Tables kept at an older `updatedAt` are dropped once a newer one is
 * known. An abort of the reader aborts the loads it started.
 */
export async function loadFactorTables(
  client: QueryClient,
  accountIndex: number,
  versionId: number,
  signal: AbortSignal,
  source: FactorSource = serviceFactors,
): Promise<FactorValues> {
  const newestOptions = factorQueries.newest(accountIndex, versionId, source);
  const prefix = factorQueries.tablesOf(accountIndex, versionId);
  const cancel = () => {
    void client.cancelQueries({ queryKey: newestOptions.queryKey });
    void client.cancelQueries({ queryKey: prefix });
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    let newest: string | null;
    try {
      newest = await client.fetchQuery(newestOptions);
    } catch (error) {
      if (signal.aborted) throw error;
      return await source.tables(accountIndex, versionId, signal);
    }
    const options = factorQueries.tables(accountIndex, versionId, newest, source);
    const current = options.queryKey.at(-1);
    client.removeQueries({
      queryKey: prefix,
      predicate: (query) => query.queryKey.at(-1) !== current,
    });
    return await client.fetchQuery(options);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/**
 * Drops a version's tables after an own change: deleting an older table leaves the newest
 * updatedAt as it was, so the check alone would not see it.
 */
export function forgetFactorTables(client: QueryClient, accountIndex: number, versionId: number) {
  client.removeQueries({ queryKey: factorQueries.tablesOf(accountIndex, versionId) });
}
