import type { RangeBand } from '#common/named-range.ts';
import type {
  BookingFunnel,
  BookingFunnelInput,
  BookingFunnelSnapshot,
  DefaultProductField,
  FactorSummary,
  FactorValues,
  InsuredObjectType,
  NamedRange,
  ProductFactor,
} from '#common/contracts/product-extras.ts';
import type { ErrorIssue } from '#common/contracts/error.ts';
import { fetchJson } from './fetch-json.ts';
import type { InsuredObject } from './products-client.ts';
import { listParams, type Page } from './tenant-admin-client.ts';

/**
 * The rest of product management through the BFF proxy (docs/contracts.md, "Insurance: product
 * extras"): factor tables, named ranges, insured objects and their types, booking funnels. One
 * function per request; each takes an AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/insuranceservice/v1`;

/** Spec, section 9: page sizes. */
export const FACTOR_CHECK_PAGE_SIZE = 1;
export const NAMED_RANGES_PAGE_SIZE = 1_000_000;
export const INSURED_OBJECT_TYPES_PAGE_SIZE = 30;
export const DEFAULT_FIELDS_PAGE_SIZE = 30;
export const BOOKING_FUNNELS_PAGE_SIZE = 50;

// The records are the insurance service's contract (common/contracts/product-extras.ts).
export type * from '#common/contracts/product-extras.ts';
export type { FileProblem } from '#common/file-problem.ts';

// -- product factors

function factorForm(productVersionId: number, name: string, file: File): FormData {
  const form = new FormData();
  form.set('productVersionId', String(productVersionId));
  form.set('name', name);
  form.set('file', file);
  return form;
}

/** Checks a factor file without saving it; a bad file is a 400 whose body lists `problems`. */
export async function validateProductFactor(
  accountIndex: number,
  input: { productVersionId: number; name: string; file: File },
  signal?: AbortSignal,
): Promise<FactorSummary> {
  const res = await fetchJson<{ summary: FactorSummary }>(
    `${base(accountIndex)}/product-factors/validate`,
    { method: 'POST', body: factorForm(input.productVersionId, input.name, input.file), signal },
  );
  return res.summary;
}

export async function uploadProductFactor(
  accountIndex: number,
  input: { productVersionId: number; name: string; file: File },
  signal?: AbortSignal,
): Promise<ProductFactor> {
  const res = await fetchJson<{ productFactor: ProductFactor }>(
    `${base(accountIndex)}/product-factors`,
    { method: 'POST', body: factorForm(input.productVersionId, input.name, input.file), signal },
  );
  return res.productFactor;
}

/** The newest change of a version's factors (the cache check): null when it has none. */
export async function newestFactorUpdate(
  accountIndex: number,
  productVersionId: number,
  signal?: AbortSignal,
): Promise<string | null> {
  const params = listParams({
    pageSize: FACTOR_CHECK_PAGE_SIZE,
    filter: { productVersionId: String(productVersionId) },
  });
  const page = await fetchJson<Page<ProductFactor>>(
    `${base(accountIndex)}/product-factors?${params}`,
    { signal },
  );
  return page.items[0]?.updatedAt ?? null;
}

/** Every factor table of the version with its rows. */
export async function factorValuesForVersion(
  accountIndex: number,
  productVersionId: number,
  signal?: AbortSignal,
): Promise<FactorValues> {
  const params = new URLSearchParams({ productVersionId: String(productVersionId) });
  const res = await fetchJson<{ values: FactorValues }>(
    `${base(accountIndex)}/product-factors/for-version?${params.toString()}`,
    { signal },
  );
  return res.values;
}

export function deleteProductFactor(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/product-factors/${id}`, { method: 'DELETE', signal });
}

// -- a version's stored test case (issue 15 point 2): the values the activation trial uses

/** Per insured object name, per field name, a value; a field left out takes its sample value. */
export type TestCaseObjects = Record<string, Record<string, string | number | boolean | null>>;

export interface ProductTestCase {
  objects: TestCaseObjects;
  /** 0 while the version has none; a save names the one it is based on (409 when stale). */
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

/**
 * The trial calculation as an activation now would run it with the stored test case: the
 * premium, or the refusal the activation would answer (its `error` and the formula's issue).
 */
export type TrialCalculation =
  | {
      premium: {
        premiumItems: { premiumFormulaId: number; total: number; isOverride: boolean }[];
        grandTotal: number;
        currency: string;
      };
    }
  | { error: string; issues: ErrorIssue[] };

export interface TestCaseAnswer {
  testCase: ProductTestCase;
  trial: TrialCalculation;
}

export function getProductTestCase(
  accountIndex: number,
  productVersionId: number,
  signal: AbortSignal,
): Promise<TestCaseAnswer> {
  return fetchJson<TestCaseAnswer>(
    `${base(accountIndex)}/product-versions/${productVersionId}/test-case`,
    { signal },
  );
}

export function saveProductTestCase(
  accountIndex: number,
  productVersionId: number,
  body: { objects: TestCaseObjects; version: number },
  signal?: AbortSignal,
): Promise<TestCaseAnswer> {
  return fetchJson<TestCaseAnswer>(
    `${base(accountIndex)}/product-versions/${productVersionId}/test-case`,
    { method: 'PUT', body, signal },
  );
}

// -- named ranges

export async function listNamedRanges(
  accountIndex: number,
  productVersionId: number,
  signal: AbortSignal,
): Promise<NamedRange[]> {
  const params = listParams({
    pageSize: NAMED_RANGES_PAGE_SIZE,
    filter: { productVersionId: String(productVersionId) },
  });
  const page = await fetchJson<Page<NamedRange>>(`${base(accountIndex)}/named-ranges?${params}`, {
    signal,
  });
  return page.items;
}

export async function createNamedRange(
  accountIndex: number,
  body: { productVersionId: number; name: string; bands: RangeBand[] },
  signal?: AbortSignal,
): Promise<NamedRange> {
  const res = await fetchJson<{ namedRange: NamedRange }>(`${base(accountIndex)}/named-ranges`, {
    method: 'POST',
    body,
    signal,
  });
  return res.namedRange;
}

/** The id goes in the path only (spec); `version` is the one the edit is based on. */
export async function updateNamedRange(
  accountIndex: number,
  id: number,
  body: { name: string; bands: RangeBand[]; version: number },
  signal?: AbortSignal,
): Promise<NamedRange> {
  const res = await fetchJson<{ namedRange: NamedRange }>(
    `${base(accountIndex)}/named-ranges/${id}`,
    { method: 'PUT', body, signal },
  );
  return res.namedRange;
}

export function deleteNamedRange(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/named-ranges/${id}`, { method: 'DELETE', signal });
}

// -- insured objects

export async function listInsuredObjectTypes(
  accountIndex: number,
  signal: AbortSignal,
): Promise<InsuredObjectType[]> {
  const params = listParams({ pageSize: INSURED_OBJECT_TYPES_PAGE_SIZE });
  const page = await fetchJson<Page<InsuredObjectType>>(
    `${base(accountIndex)}/insured-object-types?${params}`,
    { signal },
  );
  return page.items;
}

export async function listDefaultProductFields(
  accountIndex: number,
  insuredObjectTypeId: number,
  signal: AbortSignal,
): Promise<DefaultProductField[]> {
  const params = listParams({
    pageSize: DEFAULT_FIELDS_PAGE_SIZE,
    filter: { insuredObjectTypeId: String(insuredObjectTypeId) },
  });
  const page = await fetchJson<Page<DefaultProductField>>(
    `${base(accountIndex)}/default-product-fields?${params}`,
    { signal },
  );
  return page.items;
}

export async function createInsuredObject(
  accountIndex: number,
  body: {
    productVersionId: number;
    insuredObjectTypeId: number | null;
    name: string;
    label: string;
  },
  signal?: AbortSignal,
): Promise<InsuredObject> {
  const res = await fetchJson<{ insuredObject: InsuredObject }>(
    `${base(accountIndex)}/insured-objects`,
    { method: 'POST', body, signal },
  );
  return res.insuredObject;
}

export async function updateInsuredObject(
  accountIndex: number,
  id: number,
  body: { name: string; label: string; version: number },
  signal?: AbortSignal,
): Promise<InsuredObject> {
  const res = await fetchJson<{ insuredObject: InsuredObject }>(
    `${base(accountIndex)}/insured-objects/${id}`,
    { method: 'PUT', body, signal },
  );
  return res.insuredObject;
}

export function deleteInsuredObject(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/insured-objects/${id}`, { method: 'DELETE', signal });
}

// -- booking funnels

export async function listBookingFunnels(
  accountIndex: number,
  productId: number,
  signal: AbortSignal,
): Promise<BookingFunnel[]> {
  const params = listParams({
    pageSize: BOOKING_FUNNELS_PAGE_SIZE,
    filter: { productId: String(productId) },
  });
  const page = await fetchJson<Page<BookingFunnel>>(
    `${base(accountIndex)}/booking-funnels?${params}`,
    { signal },
  );
  return page.items;
}

export async function createBookingFunnel(
  accountIndex: number,
  body: BookingFunnelInput & { productSlug: string },
  signal?: AbortSignal,
): Promise<BookingFunnel> {
  const res = await fetchJson<{ bookingFunnel: BookingFunnel }>(
    `${base(accountIndex)}/booking-funnels`,
    { method: 'POST', body, signal },
  );
  return res.bookingFunnel;
}

/** Replaces the funnel's content (PUT): a new version, based on `version`. */
export async function replaceBookingFunnel(
  accountIndex: number,
  code: string,
  body: BookingFunnelInput & { version: number },
  signal?: AbortSignal,
): Promise<BookingFunnel> {
  const res = await fetchJson<{ bookingFunnel: BookingFunnel }>(
    `${base(accountIndex)}/booking-funnels/${encodeURIComponent(code)}`,
    { method: 'PUT', body, signal },
  );
  return res.bookingFunnel;
}

export function deleteBookingFunnel(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/booking-funnels/${encodeURIComponent(code)}`, {
    method: 'DELETE',
    signal,
  });
}

export async function getBookingFunnelVersion(
  accountIndex: number,
  code: string,
  version: number,
  signal: AbortSignal,
): Promise<BookingFunnelSnapshot> {
  const res = await fetchJson<{ bookingFunnel: BookingFunnelSnapshot }>(
    `${base(accountIndex)}/booking-funnels/${encodeURIComponent(code)}/versions/${version}`,
    { signal },
  );
  return res.bookingFunnel;
}
