import { Router } from 'express';
import { isCustomSchemaEntity } from '#common/custom-schema-field.ts';
import { CustomSchemaBody } from '#common/contracts/tenant.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { customSchemasOf } from '#server/sandbox/platform/admin-shared.ts';

/**
 * Editing a tenant's custom schemas (the spec shows only `GET /custom-schemas`; saving is the
 * sandbox's decision, see docs/contracts.md). A tenant has one general schema per entity (no
 * product code); registration and the organisation forms read that one.
 */
export function settingsRouter(deps: { db: Db; signer: TokenSigner }): Router {
  const { db } = deps;
  const router = Router();
  router.use('/custom-schemas', requireAuth(db, deps.signer));

  router.put(
    '/custom-schemas/:entity',
    requirePermission('tenant-management.settings.update'),
    async (req, res) => {
      const auth = getAuth(res);
      const entity = String(req.params.entity);
      if (!isCustomSchemaEntity(entity)) {
        throw new HttpError(400, 'invalid_entity', 'unknown entity');
      }
      const body = parseBody(CustomSchemaBody, req.body);
      const id = await db.transaction(async (tx) => {
        const [existing] = await tx.query<{ id: number }>(
          `SELECT id FROM custom_schemas WHERE tenant_id = $1 AND entity = $2 AND product_code IS NULL
            ORDER BY id LIMIT 1 FOR UPDATE`,
          [auth.tenantId, entity],
        );
        if (existing) {
          await tx.query(
            `UPDATE custom_schemas SET fields = $1::jsonb, updated_at = now(), updated_by = $2
              WHERE id = $3 AND tenant_id = $4`,
            [JSON.stringify(body.fields), auth.userCode, existing.id, auth.tenantId],
          );
          return existing.id;
        }
        // Two first saves at once meet on the unique code; the later one simply wins.
        const [created] = await tx.query<{ id: number }>(
          `INSERT INTO custom_schemas (tenant_id, code, entity, fields, created_by, updated_by)
           VALUES ($1, $2, $3, $4::jsonb, $5, $5)
           ON CONFLICT (tenant_id, code) DO UPDATE SET fields = $4::jsonb, updated_at = now(),
             updated_by = $5
           RETURNING id`,
          [auth.tenantId, `${entity}-custom`, entity, JSON.stringify(body.fields), auth.userCode],
        );
        if (!created) throw new Error('custom schema not saved');
        return created.id;
      });
      const schema = (await customSchemasOf(db, auth.tenantId, entity)).find((s) => s.id === id);
      res.json({ schema });
    },
  );

  return router;
}
