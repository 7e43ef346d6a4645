import type { Queryable } from '#server/sandbox/platform/db.ts';

/** What the product information sheet (IPID) prints of a product version, and whose it is. */
export interface ProductVersionFacts {
  productCode: string;
  productSlug: string;
  versionId: number;
  versionCode: string;
  /** The document kind `ipid`'s `product` variables (notification/document-variables.ts). */
  values: {
    name: string;
    slug: string;
    category: string;
    version: number;
    description: string;
    contractDurationDays: number;
    insuredObjects: {
      name: string;
      label: string;
      fields: { name: string; label: string; type: string }[];
    }[];
    coverages: { name: string; group: string; unit: string }[];
  };
}

/**
 * The facts of a product version that its IPID prints (decision 020): the product, the version,
 * its insured objects with their fields (the `default` object first, as everywhere) and its
 * premium formulas as the cover's parts. The insurance service owns these tables; the document
 * service asks it here instead of reading them. Null when the workspace has no such version.
 */
export async function productVersionFacts(
  db: Queryable,
  tenantId: number,
  versionCode: string,
): Promise<ProductVersionFacts | null> {
  const [v] = await db.query<{
    id: number;
    code: string;
    version: number;
    description: string;
    product_code: string;
    slug: string;
    name: string;
    category: string;
    contract_duration_days: number;
  }>(
    `SELECT v.id, v.code, v.version, v.description, p.code AS product_code, p.slug, p.name,
            p.category, p.contract_duration_days
       FROM product_versions v JOIN products p ON p.id = v.product_id
      WHERE v.tenant_id = $1 AND v.code = $2`,
    [tenantId, versionCode],
  );
  if (!v) return null;
  const objects = await db.query<{
    name: string;
    label: string;
    fields: { name: string; label: string; type: string }[];
  }>(
    `SELECT o.name, o.label,
            coalesce(json_agg(json_build_object('name', f.name, 'label', f.label, 'type', f.type)
                              ORDER BY f."order", f.id) FILTER (WHERE f.id IS NOT NULL),
                     '[]') AS fields
       FROM insured_objects o LEFT JOIN product_fields f ON f.insured_object_id = o.id
      WHERE o.tenant_id = $1 AND o.product_version_id = $2
      GROUP BY o.id ORDER BY o.name <> 'default', o.id`,
    [tenantId, v.id],
  );
  const coverages = await db.query<{ name: string; group: string; unit: string }>(
    `SELECT name, "group", unit FROM premium_formulas
      WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY "order", id`,
    [tenantId, v.id],
  );
  return {
    productCode: v.product_code,
    productSlug: v.slug,
    versionId: v.id,
    versionCode: v.code,
    values: {
      name: v.name,
      slug: v.slug,
      category: v.category,
      version: v.version,
      description: v.description,
      contractDurationDays: v.contract_duration_days,
      insuredObjects: objects,
      coverages,
    },
  };
}

/**
 * The workspaces' active product versions (tenant and code): the document service's seed gives
 * each its IPID, as a version going active does later (`product_version.published`).
 */
export async function activeProductVersions(
  db: Queryable,
): Promise<{ tenantId: number; id: number; code: string }[]> {
  return db.query<{ tenantId: number; id: number; code: string }>(
    `SELECT tenant_id AS "tenantId", id, code FROM product_versions WHERE status = 'active'
      ORDER BY tenant_id, id`,
  );
}
