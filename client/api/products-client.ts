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
import { listAll, listParams, type Page } from './tenant-admin-client.ts';

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
  query: { page: number; search?: string },
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
  body: { productId: number; description: string },
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

export async function createProductField(
  accountIndex: number,
  body: ProductFieldInput,
  signal?: AbortSignal,
): Promise<ProductField> {
  const res = await fetchJson<{ productField: ProductField }>(
    `${base(accountIndex)}/product-fields`,
    { method: 'POST', body, signal },
  );
  return res.productField;
}

export async function updateProductField(
  accountIndex: number,
  id: number,
  body: ProductFieldInput,
  signal?: AbortSignal,
): Promise<ProductField> {
  const res = await fetchJson<{ productField: ProductField }>(
    `${base(accountIndex)}/product-fields/${id}`,
    { method: 'PUT', body, signal },
  );
  return res.productField;
}

export function deleteProductField(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/product-fields/${id}`, { method: 'DELETE', signal });
}

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

export async function createPremiumFormula(
  accountIndex: number,
  body: PremiumFormulaInput,
  signal?: AbortSignal,
): Promise<PremiumFormula> {
  const res = await fetchJson<{ premiumFormula: PremiumFormula }>(
    `${base(accountIndex)}/premium-formulas`,
    { method: 'POST', body, signal },
  );
  return res.premiumFormula;
}

export async function updatePremiumFormula(
  accountIndex: number,
  id: number,
  body: PremiumFormulaInput,
  signal?: AbortSignal,
): Promise<PremiumFormula> {
  const res = await fetchJson<{ premiumFormula: PremiumFormula }>(
    `${base(accountIndex)}/premium-formulas/${id}`,
    { method: 'PUT', body, signal },
  );
  return res.premiumFormula;
}

export function deletePremiumFormula(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/premium-formulas/${id}`, { method: 'DELETE', signal });
}

export function reorderPremiumFormulas(
  accountIndex: number,
  ids: { id1: number; id2: number },
  signal?: AbortSignal,
): Promise<{ items: PremiumFormula[] }> {
  return fetchJson(`${base(accountIndex)}/premium-formulas/reorder`, {
    method: 'POST',
    body: ids,
    signal,
  });
}

export function reorderProductFields(
  accountIndex: number,
  ids: { productFieldIdOne: number; productFieldIdTwo: number },
  signal?: AbortSignal,
): Promise<{ items: ProductField[] }> {
  return fetchJson(`${base(accountIndex)}/product-fields/reorder`, {
    method: 'POST',
    body: ids,
    signal,
  });
}
