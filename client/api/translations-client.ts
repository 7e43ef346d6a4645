import { ApiError, fetchFile, fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';
import type {
  LanguageCreateInput,
  LanguageUpdateInput,
  ProductLanguage,
  Translation,
} from '#common/contracts/translation.ts';

// The records' types are the translationservice's contract (common/contracts/translation.ts).
export type {
  ProductLanguage,
  Translation,
  TranslationStatus,
} from '#common/contracts/translation.ts';

/**
 * Product languages and translations of the translation service through the BFF proxy
 * (docs/contracts.md, "Insurance: product extras"). One function per request; each takes an
 * AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/translationservice/v1`;

export async function listProductLanguages(
  accountIndex: number,
  productSlug: string,
  signal: AbortSignal,
): Promise<ProductLanguage[]> {
  const params = listParams({ pageSize: 50, filter: { productSlug } });
  const page = await fetchJson<Page<ProductLanguage>>(`${base(accountIndex)}/languages?${params}`, {
    signal,
  });
  return page.items;
}

export async function addProductLanguage(
  accountIndex: number,
  body: LanguageCreateInput,
  signal?: AbortSignal,
): Promise<ProductLanguage> {
  const res = await fetchJson<{ productLanguage: ProductLanguage }>(
    `${base(accountIndex)}/languages`,
    { method: 'POST', body, signal },
  );
  return res.productLanguage;
}

export async function updateProductLanguage(
  accountIndex: number,
  id: number,
  body: LanguageUpdateInput,
  signal?: AbortSignal,
): Promise<ProductLanguage> {
  const res = await fetchJson<{ productLanguage: ProductLanguage }>(
    `${base(accountIndex)}/languages/${id}`,
    { method: 'PUT', body, signal },
  );
  return res.productLanguage;
}

/** Replaces the language's translations with the file's; a bad file is a 400 with `problems`. */
export async function uploadTranslations(
  accountIndex: number,
  productSlug: string,
  language: string,
  file: File,
  signal?: AbortSignal,
): Promise<Translation[]> {
  const form = new FormData();
  form.set('file', file);
  const params = new URLSearchParams({ language });
  const res = await fetchJson<{ translations: Translation[] }>(
    `${base(accountIndex)}/product/${encodeURIComponent(productSlug)}/upload?${params.toString()}`,
    { method: 'POST', body: form, signal },
  );
  return res.translations;
}

export function downloadTranslations(
  accountIndex: number,
  productSlug: string,
  language: string,
  format: 'json' | 'csv',
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string | null }> {
  const params = new URLSearchParams({ language, format });
  return fetchFile(
    `${base(accountIndex)}/product/${encodeURIComponent(productSlug)}/download?${params.toString()}`,
    signal,
  );
}

/**
 * The texts of a product version's product in one language (`vehicle.vehicleValue` ->
 * "Fahrzeugwert"): the labels its fields show in. Without them (no active language, a product
 * without translations, a role that may not read them) the fields keep their own labels, so a
 * refusal is no texts rather than a failure of the page.
 */
export async function getProductTexts(
  accountIndex: number,
  productVersionId: number,
  language: string,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const params = new URLSearchParams({ productVersionId: String(productVersionId), language });
  try {
    const res = await fetchJson<{ texts: Record<string, string> }>(
      `${base(accountIndex)}/product-texts?${params.toString()}`,
      { signal },
    );
    return res.texts;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return {};
    throw error;
  }
}
