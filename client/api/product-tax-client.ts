import { fetchJson } from './fetch-json.ts';
import { accountKey } from './query-keys.ts';

/**
 * The insurance tax of a product (docs/contracts.md, "Tax rate of a product"): served by the
 * billing service, in basis points (19 % = 1900), integers only; the screen shows it as percent.
 */
export interface ProductTaxRate {
  productId: number;
  taxRateBp: number;
  /** The product has no rate of its own: the default 19 % applies. */
  isDefault: boolean;
  updatedAt: string | null;
  updatedByName: string | null;
}

/** The highest rate, 100 %, in basis points. */
export const MAX_TAX_RATE_BP = 10_000;

const path = (accountIndex: number, productId: number | string) =>
  `/api/${accountIndex}/billingservice/v1/products/${encodeURIComponent(String(productId))}/tax-rate`;

/** Under the account's key, so that signing the account out drops it with the rest. */
export const productTaxRateKey = (accountIndex: number, productId: number | string) =>
  [...accountKey(accountIndex), 'product-tax-rate', String(productId)] as const;

export async function getProductTaxRate(
  accountIndex: number,
  productId: number | string,
  signal?: AbortSignal,
): Promise<ProductTaxRate> {
  const res = await fetchJson<{ taxRate: ProductTaxRate }>(path(accountIndex, productId), {
    signal,
  });
  return res.taxRate;
}

export async function setProductTaxRate(
  accountIndex: number,
  productId: number | string,
  taxRateBp: number,
): Promise<ProductTaxRate> {
  const res = await fetchJson<{ taxRate: ProductTaxRate }>(path(accountIndex, productId), {
    method: 'PUT',
    body: { taxRateBp },
  });
  return res.taxRate;
}
