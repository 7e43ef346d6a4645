import type { Queryable } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';

/**
 * Copies the parts of a product version into a new (empty) one: its insured objects with their
 * fields, premium formulas, factor tables, named ranges, and the booking funnels that sell that
 * version (docs/decisions/005-product-version-copy.md). Every copy gets a new id and code, starts
 * at edit version 1 and is stamped as created and updated by `by` now: the copy is a change of
 * that user's, not of the source's authors. The source is only read. Run it in the transaction
 * that created the target, so that a failure leaves no half-copied draft.
 */
export async function copyVersionParts(
  tx: Queryable,
  tenantId: number,
  fromId: number,
  toId: number,
  by: string,
): Promise<void> {
  const objects = await tx.query<{ id: number }>(
    'SELECT id FROM insured_objects WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY id',
    [tenantId, fromId],
  );
  for (const object of objects) {
    const [copy] = await tx.query<{ id: number }>(
      `INSERT INTO insured_objects (tenant_id, code, product_version_id, name, label,
                                    insured_object_type_id, created_by, updated_by)
       SELECT tenant_id, $2, $3, name, label, insured_object_type_id, $4, $4
         FROM insured_objects WHERE id = $1
       RETURNING id`,
      [object.id, newCode('ino'), toId, by],
    );
    const fields = await tx.query<{ id: number }>(
      'SELECT id FROM product_fields WHERE insured_object_id = $1 ORDER BY "order", id',
      [object.id],
    );
    for (const field of fields) {
      await tx.query(
        `INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind,
                                     is_required, minimum, maximum, default_value, "order",
                                     created_by, updated_by)
         SELECT tenant_id, $2, $3, name, label, type, kind, is_required, minimum, maximum,
                default_value, "order", $4, $4
           FROM product_fields WHERE id = $1`,
        [field.id, newCode('pfi'), copy!.id, by],
      );
    }
  }

  // The rows of one version, each copied with a new code: the columns named are copied as they are.
  const copyRows = async (table: string, prefix: string, columns: string) => {
    const rows = await tx.query<{ id: number }>(
      `SELECT id FROM ${table} WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY id`,
      [tenantId, fromId],
    );
    for (const row of rows) {
      await tx.query(
        `INSERT INTO ${table} (tenant_id, code, product_version_id, ${columns}, created_by, updated_by)
         SELECT tenant_id, $2, $3, ${columns}, $4, $4 FROM ${table} WHERE id = $1`,
        [row.id, newCode(prefix), toId, by],
      );
    }
  };
  await copyRows(
    'premium_formulas',
    'pfo',
    '"group", name, expression, type, unit, item_type, variable_name, "order"',
  );
  await copyRows('product_factors', 'pfa', 'name, key_columns, rows, row_count, filename');
  await copyRows('named_ranges', 'nra', 'name, bands');

  // A funnel that sells the source version gets a twin selling the copy; a funnel that follows
  // the active version (none named) needs none. Each twin starts its own history at version 1.
  const funnels = await tx.query<{ id: number }>(
    `SELECT id FROM booking_funnels WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY id`,
    [tenantId, fromId],
  );
  for (const funnel of funnels) {
    const [twin] = await tx.query<{ id: number }>(
      `INSERT INTO booking_funnels (tenant_id, code, product_id, product_version_id, name, steps,
                                    created_by, updated_by)
       SELECT tenant_id, $2, product_id, $3, name, steps, $4, $4
         FROM booking_funnels WHERE id = $1
       RETURNING id`,
      [funnel.id, newCode('bfn'), toId, by],
    );
    await tx.query(
      `INSERT INTO booking_funnel_versions (tenant_id, booking_funnel_id, version, snapshot, created_by)
       SELECT f.tenant_id, f.id, f.version,
              jsonb_build_object('name', f.name, 'productSlug', p.slug,
                                 'productVersionId', f.product_version_id, 'steps', f.steps),
              $2
         FROM booking_funnels f JOIN products p ON p.id = f.product_id
        WHERE f.id = $1`,
      [twin!.id, by],
    );
  }
}
