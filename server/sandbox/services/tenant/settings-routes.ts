import { Router } from 'express';
import { isCustomSchemaEntity } from '#common/custom-schema-field.ts';
import { CustomSchemaSaveBody } from '#common/contracts/tenant.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { customSchemasOf, type CustomSchema } from '#server/sandbox/platform/admin-shared.ts';
import type { Clock } from '#common/clock.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';

/** A schema's fields by name, so that the log names the field whose label or rule changed. */
const fieldsByName = (fields: readonly { name: string }[]) =>
  Object.fromEntries(fields.map((f) => [f.name, f]));

/**
 * Editing a tenant's custom schemas (the spec shows only `GET /custom-schemas`; saving is the
 * sandbox's decision, see docs/contracts.md). A tenant has one general schema per entity (no
 * product code); registration and the organisation forms read that one. A save sends the version
 * it was based on (0 for an entity without a schema) and a stale one is refused 409 with the
 * schema as saved now (migration 014).
 */
export function settingsRouter(deps: { db: Db; signer: TokenSigner; clock: Clock }): Router {
  const { db, clock } = deps;
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
      const body = parseBody(CustomSchemaSaveBody, req.body);
      const conflict = (current: CustomSchema | undefined) =>
        new HttpError(
          409,
          'version_conflict',
          `the ${entity} schema was changed meanwhile (version ${current?.version}, yours ${body.version})`,
          { schema: current ?? null },
        );
      const audit = (tx: Parameters<typeof recordChange>[0], before: { name: string }[] | null) =>
        recordChange(
          tx,
          { auth, clock },
          {
            entityType: 'setting',
            entityId: `custom_schema.${entity}`,
            entityLabel: `custom_schema.${entity}`,
            action: before ? 'updated' : 'created',
            before: { fields: fieldsByName(before ?? []) },
            after: { fields: fieldsByName(body.fields) },
          },
        );
      const outcome = await db.transaction(async (tx) => {
        const [existing] = await tx.query<{
          id: number;
          version: number;
          fields: { name: string }[];
        }>(
          `SELECT id, version, fields FROM custom_schemas
            WHERE tenant_id = $1 AND entity = $2 AND product_code IS NULL
            ORDER BY id LIMIT 1 FOR UPDATE`,
          [auth.tenantId, entity],
        );
        if (existing) {
          // Saved on top of the version the editor read only: a stale save would drop fields
          // another admin added unseen.
          if (existing.version !== body.version) return { stale: existing.id };
          await tx.query(
            `UPDATE custom_schemas SET fields = $1::jsonb, version = version + 1, updated_at = now(),
                    updated_by = $2
              WHERE id = $3 AND tenant_id = $4`,
            [JSON.stringify(body.fields), auth.userCode, existing.id, auth.tenantId],
          );
          await audit(tx, existing.fields);
          return { saved: existing.id };
        }
        // No schema yet: nothing to overwrite, whatever version was sent. Of two first saves at
        // once, the later one meets the first on the unique code and is a conflict like any other.
        const [created] = await tx.query<{ id: number }>(
          `INSERT INTO custom_schemas (tenant_id, code, entity, fields, created_by, updated_by)
           VALUES ($1, $2, $3, $4::jsonb, $5, $5)
           ON CONFLICT (tenant_id, code) DO NOTHING
           RETURNING id`,
          [auth.tenantId, `${entity}-custom`, entity, JSON.stringify(body.fields), auth.userCode],
        );
        if (!created) return { stale: null };
        await audit(tx, null);
        return { saved: created.id };
      });
      const schemas = await customSchemasOf(db, auth.tenantId, entity);
      if ('stale' in outcome) {
        throw conflict(
          schemas.find((s) => s.id === outcome.stale) ??
            schemas.find((s) => s.productCode === null),
        );
      }
      const schema = schemas.find((s) => s.id === outcome.saved);
      res.json({ schema });
    },
  );

  return router;
}
