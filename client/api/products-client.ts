import type { ProductVersionStatus } from '#common/products.ts';
import type {
  InsuredObject,
  PremiumFormula,
  PremiumFormulaInput,
  Product,
  ProductField,
  ProductFieldInput,
  ProductInput,
  ProductVersion,
} from '#common/contracts/product.ts';
import { fetchJson } from './fetch-json.ts';
import { listAll, listParams, type ListQuery, type Page } from './tenant-admin-client.ts';

/**
 * Product management of the insurance service through the BFF proxy (docs/contracts.md,
 * "Insurance: products (issue 4)"). One function per request; each takes an AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/insuranceservice/v1`;

/** Spec, section 9: page sizes of the product editor's lists. */
export const PRODUCTS_PAGE_SIZE = 30;
export const INSURED_OBJECTS_PAGE_SIZE = 100;
export const PREMIUM_FORMULAS_PAGE_SIZE = 50;

// The records and bodies are the insurance service's contract (common/contracts/product.ts).
export type * from '#common/contracts/product.ts';

export function listProducts(
  accountIndex: number,
  query: {
    page: number;
    /** The previous page's nextPageToken (a keyset token: wins over `page`). */
    pageToken?: string | null;
    search?: string;
    order?: ListQuery['order'];
  },
  signal: AbortSignal,
): Promise<Page<Product>> {
  const params = listParams({ pageSize: PRODUCTS_PAGE_SIZE, ...query, expand: ['versions'] });
  return fetchJson(`${base(accountIndex)}/products?${params}`, { signal });
}

/** All the tenant's products (a few dozen at most), for a list's filter or a chooser. */
export function listAllProducts(accountIndex: number, signal: AbortSignal): Promise<Product[]> {
  return listAll((page) => listProducts(accountIndex, { page }, signal), signal);
}

export async function getProduct(
  accountIndex: number,
  id: string,
  signal: AbortSignal,
): Promise<Product> {
  const res = await fetchJson<{ product: Product }>(
    `${base(accountIndex)}/products/${encodeURIComponent(id)}?expand=versions`,
    { signal },
  );
  return res.product;
}

export async function createProduct(
  accountIndex: number,
  body: ProductInput,
  signal?: AbortSignal,
): Promise<Product> {
  const res = await fetchJson<{ product: Product }>(`${base(accountIndex)}/products`, {
    method: 'POST',
    body,
    signal,
  });
  return res.product;
}

export async function createProductVersion(
  accountIndex: number,
  body: { productId: number; description: string; copyFromVersionId?: number },
  signal?: AbortSignal,
): Promise<ProductVersion> {
  const res = await fetchJson<{ productVersion: ProductVersion }>(
    `${base(accountIndex)}/product-versions`,
    { method: 'POST', body, signal },
  );
  return res.productVersion;
}

export async function updateProductVersion(
  accountIndex: number,
  id: number,
  body: { description?: string; status?: ProductVersionStatus },
  signal?: AbortSignal,
): Promise<ProductVersion> {
  const res = await fetchJson<{ productVersion: ProductVersion }>(
    `${base(accountIndex)}/product-versions/${id}`,
    { method: 'PUT', body, signal },
  );
  return res.productVersion;
}

export async function listInsuredObjects(
  accountIndex: number,
  productVersionId: number,
  signal: AbortSignal,
): Promise<InsuredObject[]> {
  const params = listParams({
    pageSize: INSURED_OBJECTS_PAGE_SIZE,
    filter: { productVersionId: String(productVersionId) },
    expand: ['productFields'],
  });
  const page = await fetchJson<Page<InsuredObject>>(
    `${base(accountIndex)}/insured-objects?${params}`,
    { signal },
  );
  return page.items;
}

/**
 * Create, edit and delete of a version's part that the service keeps under one path and answers
 * wrapped in one property (`{ productField: ... }`): the fields and the premium formulas.
 */
function partCrud<T, I, Swap>(path: string, property: string) {
  const one = async (request: Promise<Record<string, T>>) => (await request)[property] as T;
  return {
    create: (accountIndex: number, body: I, signal?: AbortSignal): Promise<T> =>
      one(fetchJson(`${base(accountIndex)}/${path}`, { method: 'POST', body, signal })),
    update: (accountIndex: number, id: number, body: I, signal?: AbortSignal): Promise<T> =>
      one(fetchJson(`${base(accountIndex)}/${path}/${id}`, { method: 'PUT', body, signal })),
    remove: (accountIndex: number, id: number, signal?: AbortSignal): Promise<void> =>
      fetchJson(`${base(accountIndex)}/${path}/${id}`, { method: 'DELETE', signal }),
    /** Swaps two neighbours (the service names the two ids its own way per part). */
    reorder: (accountIndex: number, ids: Swap, signal?: AbortSignal): Promise<{ items: T[] }> =>
      fetchJson(`${base(accountIndex)}/${path}/reorder`, { method: 'POST', body: ids, signal }),
  };
}

const productFields = partCrud<
  ProductField,
  ProductFieldInput,
  { productFieldIdOne: number; productFieldIdTwo: number }
>('product-fields', 'productField');
export const createProductField = productFields.create;
export const updateProductField = productFields.update;
export const deleteProductField = productFields.remove;
export const reorderProductFields = productFields.reorder;

export async function listPremiumFormulas(
  accountIndex: number,
  productVersionId: number,
  signal: AbortSignal,
): Promise<PremiumFormula[]> {
  const params = listParams({
    pageSize: PREMIUM_FORMULAS_PAGE_SIZE,
    filter: { productVersionId: String(productVersionId) },
  });
  const page = await fetchJson<Page<PremiumFormula>>(
    `${base(accountIndex)}/premium-formulas?${params}`,
    { signal },
  );
  return page.items;
}

const premiumFormulas = partCrud<PremiumFormula, PremiumFormulaInput, { id1: number; id2: number }>(
  'premium-formulas',
  'premiumFormula',
);
export const createPremiumFormula = premiumFormulas.create;
export const updatePremiumFormula = premiumFormulas.update;
export const deletePremiumFormula = premiumFormulas.remove;
export const reorderPremiumFormulas = premiumFormulas.reorder;
