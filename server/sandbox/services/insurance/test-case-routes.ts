import { Router } from 'express';
import * as v from 'valibot';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import type { ErrorIssue } from '#common/contracts/error.ts';
import { validateObjectData } from '#common/policy-object-data.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { idOf } from '#server/sandbox/platform/records.ts';
import { assertDraft, versionById } from './insurance-product-routes.ts';
import { loadTariffs } from './premium.ts';
import { trialCalculation, type TestCaseValues } from './formula-check.ts';

/**
 * A product version's stored test case (issue 15 point 2, docs/decisions/007): per insured object
 * (by name), the field values the trial calculation at activation uses instead of the fields'
 * defaults. Edited on a draft like the rest of the version; read by whoever reads products.
 */

/** Per object name, per field name, a value: at most what a version's form could hold. */
const TestCaseObjects = v.pipe(
  v.record(
    v.pipe(v.string(), v.maxLength(100)),
    v.pipe(
      v.record(
        v.pipe(v.string(), v.maxLength(100)),
        v.union([v.string(), v.number(), v.boolean(), v.null()]),
      ),
      v.check((fields) => Object.keys(fields).length <= 200, 'at most 200 fields an object'),
    ),
  ),
  v.check((objects) => Object.keys(objects).length <= 50, 'at most 50 objects'),
);

const TestCaseBody = v.strictObject({
  objects: TestCaseObjects,
  /** The test case's version the edit is based on, 0 for none yet: 409 when stale. */
  version: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

interface TestCaseRow {
  objects: TestCaseValues;
  version: number;
  updated_at: Date;
  updated_by: string;
}

const present = (row: TestCaseRow | undefined) => ({
  objects: row?.objects ?? {},
  version: row?.version ?? 0,
  updatedAt: row?.updated_at ?? null,
  updatedBy: row?.updated_by ?? null,
});

/**
 * The test case's values checked against the version's fields, as a policy's data is (the shared
 * check of common/policy-object-data.ts), except that no field is required: a field left out
 * takes its sample value at the trial. An object or field the version does not have, or a value
 * of the wrong type, is refused at `<object>.<field>` so that the screen names the field; stored,
 * it would only fail the trial later with a less precise message.
 */
async function assertTestCaseFits(
  db: Queryable,
  tenantId: number,
  versionId: number,
  objects: TestCaseValues,
): Promise<void> {
  const [tariff] = await loadTariffs(db, tenantId, 'v.id = $2', [versionId]);
  // `limit`: the bound a range issue crossed, as the policies' refusals carry it.
  const issues: (ErrorIssue & { limit?: number })[] = [];
  for (const [name, data] of Object.entries(objects)) {
    const object = tariff?.objects.find((o) => o.name === name);
    if (!object) {
      issues.push({ path: name, code: 'unknown_insured_object' });
      continue;
    }
    const fields = object.fields.map((field) => ({ ...field, isRequired: false }));
    const result = validateObjectData(fields, data);
    for (const issue of result.issues) {
      issues.push({ ...issue, path: issue.path ? `${name}.${issue.path}` : name });
    }
  }
  if (issues.length) throw invalidInput(issues);
}

/**
 * The trial calculation as an activation now would run it, with the test case as stored: the
 * premium, or the refusal (`error` and the formula's issue) the activation would answer. So the
 * product manager sees what a test case gives before activating.
 */
async function trialOf(db: Queryable, tenantId: number, versionId: number, nowMs: number) {
  const outcome = await trialCalculation(db, tenantId, versionId, nowMs);
  return outcome.ok
    ? { premium: outcome.premium }
    : { error: outcome.refusal.code, issues: outcome.refusal.issues ?? [] };
}

export function testCaseRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));
  const notFound = () => new HttpError(404, 'not_found', 'product version not found');

  router.get(
    '/product-versions/:id/test-case',
    requireServicePermission('policy-management', 'products', 'view'),
    async (req, res) => {
      const { tenantId } = getAuth(res);
      const version = await versionById(
        db,
        tenantId,
        idOf(String(req.params.id), notFound),
        notFound,
      );
      const [row] = await db.query<TestCaseRow>(
        'SELECT * FROM product_version_test_cases WHERE tenant_id = $1 AND product_version_id = $2',
        [tenantId, version.id],
      );
      res.json({
        testCase: present(row),
        trial: await trialOf(db, tenantId, version.id, ctx.clock.now()),
      });
    },
  );

  router.put(
    '/product-versions/:id/test-case',
    requireServicePermission('policy-management', 'product-versions', 'update'),
    async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(TestCaseBody, req.body);
      const version = await versionById(
        db,
        auth.tenantId,
        idOf(String(req.params.id), notFound),
        notFound,
      );
      assertDraft(version);
      await assertTestCaseFits(db, auth.tenantId, version.id, body.objects);
      const saved = await db.transaction(async (tx) => {
        const [current] = await tx.query<TestCaseRow>(
          `SELECT * FROM product_version_test_cases
            WHERE tenant_id = $1 AND product_version_id = $2 FOR UPDATE`,
          [auth.tenantId, version.id],
        );
        if ((current?.version ?? 0) !== body.version) {
          throw new HttpError(409, 'version_conflict', 'the test case was changed meanwhile', {
            testCase: present(current),
          });
        }
        const [row] = await tx.query<TestCaseRow>(
          `INSERT INTO product_version_test_cases
             (tenant_id, product_version_id, objects, version, updated_at, updated_by)
           VALUES ($1, $2, $3, 1, $4, $5)
           ON CONFLICT (product_version_id) DO UPDATE
             SET objects = $3, version = product_version_test_cases.version + 1,
                 updated_at = $4, updated_by = $5
           RETURNING *`,
          [
            auth.tenantId,
            version.id,
            JSON.stringify(body.objects),
            new Date(ctx.clock.now()),
            auth.userCode,
          ],
        );
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'product_version',
            entityId: version.code,
            action: 'test_case_changed',
            before: { testCase: current?.objects ?? {} },
            after: { testCase: body.objects },
          },
        );
        return row!;
      });
      res.json({
        testCase: present(saved),
        trial: await trialOf(db, auth.tenantId, version.id, ctx.clock.now()),
      });
    },
  );
  return router;
}
