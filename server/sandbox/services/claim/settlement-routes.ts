import { Router } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth } from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { equals, listRoute, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { canClaims, findClaim, presentClaim, refused, type ClaimRow } from './claim-routes.ts';
import { canSettleClaim } from '#common/claims.ts';
import { SettlementCreateBody, SettlementUpdateBody } from '#common/contracts/claim.ts';

/**
 * Settlements of a claim (docs/contracts.md, "Claims (sandbox)"): per insured object of the
 * claim's policy, the reserve set aside, the payment made and the recourse recovered, in cents of
 * the workspace's currency. Written only while the claim is neither closed nor rejected; edits
 * carry the version they were based on.
 */

const iso = (value: Date | string) => new Date(value).toISOString();

interface SettlementRow {
  id: number;
  code: string;
  claim_code: string;
  insured_object: string;
  reserve: string | number;
  payment: string | number;
  recourse: string | number;
  currency: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
}

const SELECT_SETTLEMENT = `
  SELECT s.id, s.code, c.code AS claim_code, s.insured_object, s.reserve, s.payment, s.recourse,
         s.currency, s.version, s.created_at, s.updated_at, s.created_by, s.updated_by
    FROM settlements s
    JOIN claims c ON c.id = s.claim_id AND c.tenant_id = s.tenant_id`;

// bigint columns come back as text from PostgreSQL; amounts stay below 2^53.
const presentSettlement = (r: SettlementRow) => ({
  id: r.id,
  code: r.code,
  claimCode: r.claim_code,
  insuredObject: r.insured_object,
  reserve: Number(r.reserve),
  payment: Number(r.payment),
  recourse: Number(r.recourse),
  currency: r.currency,
  version: r.version,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  createdBy: r.created_by,
  updatedBy: r.updated_by,
});

const settlementDoesNotExist = () => new HttpError(404, 'not_found', 'Settlement does not exist');

async function findSettlement(
  db: Queryable,
  tenantId: number,
  key: string,
  lock = false,
): Promise<SettlementRow> {
  const byId = /^\d{1,9}$/.test(key);
  if (!byId && !/^stl_[A-Za-z0-9]{1,64}$/.test(key)) throw settlementDoesNotExist();
  const [row] = await db.query<SettlementRow>(
    `${SELECT_SETTLEMENT} WHERE s.tenant_id = $1 AND ${byId ? 's.id = $2' : 's.code = $2'}
     ${lock ? 'FOR UPDATE OF s' : ''}`,
    [tenantId, byId ? Number(key) : key],
  );
  if (!row) throw settlementDoesNotExist();
  return row;
}

/**
 * A settlement and its claim, both locked for the transaction: the claim first, as every write
 * that touches a claim's rows takes it first (deleting the claim, a status move), so that two
 * writes never wait for each other crosswise.
 */
async function lockSettlement(tx: Queryable, tenantId: number, key: string) {
  const found = await findSettlement(tx, tenantId, key);
  const claim = await findClaim(tx, tenantId, found.claim_code, true);
  return { ...(await findSettlement(tx, tenantId, found.code, true)), claim };
}

/** 409 `claim_closed` unless the claim still takes settlements (not closed, not rejected). */
function assertSettleable(claim: ClaimRow): void {
  if (!canSettleClaim(claim.status)) {
    throw new HttpError(
      409,
      'claim_closed',
      `a claim in status "${claim.status}" takes no settlement changes`,
      { claim: presentClaim(claim) },
    );
  }
}

/** 400 unless the name is one of the policy objects of the current version of the claim's policy. */
async function assertInsuredObject(db: Queryable, tenantId: number, claim: ClaimRow, name: string) {
  const [row] = await db.query(
    `SELECT 1 FROM policies p
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       JOIN timeslices t ON t.policy_version_id = v.id
       JOIN policy_objects o ON o.timeslice_id = t.id
      WHERE p.tenant_id = $1 AND p.code = $2 AND o.insured_object_name = $3
      LIMIT 1`,
    [tenantId, claim.policy_code, name],
  );
  if (!row) throw refused('insuredObject', 'unknown_insured_object');
}

/** Spec: lists default to 30; a claim has few settlements, shown on one page of up to 100. */
const MAX_SETTLEMENTS_PAGE_SIZE = 100;

const SETTLEMENT_LIST: ListSource = {
  filters: { claimCode: equals('c.code') },
  orders: { id: 's.id', createdAt: 's.created_at' },
  defaultOrder: ['id', 'ASC'],
  unique: 's.id',
  maxPageSize: MAX_SETTLEMENTS_PAGE_SIZE,
};

export function settlementRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get(
    '/settlements',
    canClaims('view'),
    listRoute<SettlementRow>(db, SETTLEMENT_LIST, SELECT_SETTLEMENT, 's.tenant_id', (rows) =>
      rows.map(presentSettlement),
    ),
  );

  router.get('/settlements/:code', canClaims('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await findSettlement(db, tenantId, String(req.params.code));
    res.json({ settlement: presentSettlement(row) });
  });

  router.post('/settlements', canClaims('update'), async (req, res) => {
    const { tenantId, userCode } = getAuth(res);
    const body = parseBody(SettlementCreateBody, req.body);
    const created = await db.transaction(async (tx) => {
      // Locked, so that a concurrent status move cannot close the claim under a new settlement.
      const claim = await findClaim(tx, tenantId, body.claimCode, true).catch((error: unknown) => {
        throw error instanceof HttpError && error.status === 404
          ? refused('claimCode', 'unknown_claim')
          : error;
      });
      assertSettleable(claim);
      await assertInsuredObject(tx, tenantId, claim, body.insuredObject);
      const [row] = await tx.query<{ code: string }>(
        `INSERT INTO settlements (tenant_id, code, claim_id, insured_object, reserve, payment,
                                  recourse, currency, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING code`,
        [
          tenantId,
          newCode('stl'),
          claim.id,
          body.insuredObject,
          body.reserve,
          body.payment,
          body.recourse,
          // The claim's currency: the workspace's.
          claim.currency,
          userCode,
        ],
      );
      return findSettlement(tx, tenantId, row!.code);
    });
    res.status(201).json({ settlement: presentSettlement(created) });
  });

  router.put('/settlements/:code', canClaims('update'), async (req, res) => {
    const { tenantId, userCode } = getAuth(res);
    const body = parseBody(SettlementUpdateBody, req.body);
    const saved = await db.transaction(async (tx) => {
      const current = await lockSettlement(tx, tenantId, String(req.params.code));
      if (body.version !== current.version) {
        throw new HttpError(
          409,
          'version_conflict',
          `settlement was changed meanwhile (version ${current.version}, yours ${body.version})`,
          { settlement: presentSettlement(current) },
        );
      }
      assertSettleable(current.claim);
      await assertInsuredObject(tx, tenantId, current.claim, body.insuredObject);
      const updated = await tx.query(
        `UPDATE settlements SET insured_object = $3, reserve = $4, payment = $5, recourse = $6,
                version = version + 1, updated_at = now(), updated_by = $7
          WHERE tenant_id = $1 AND id = $2
            AND (insured_object, reserve, payment, recourse)
                IS DISTINCT FROM ($3, $4::bigint, $5::bigint, $6::bigint)
          RETURNING id`,
        [
          tenantId,
          current.id,
          body.insuredObject,
          body.reserve,
          body.payment,
          body.recourse,
          userCode,
        ],
      );
      // Sending what is saved already is no change: the version stays.
      return updated.length ? findSettlement(tx, tenantId, current.code) : current;
    });
    res.json({ settlement: presentSettlement(saved) });
  });

  router.delete('/settlements/:code', canClaims('update'), async (req, res) => {
    const { tenantId } = getAuth(res);
    await db.transaction(async (tx) => {
      const current = await lockSettlement(tx, tenantId, String(req.params.code));
      assertSettleable(current.claim);
      await tx.query('DELETE FROM settlements WHERE tenant_id = $1 AND id = $2', [
        tenantId,
        current.id,
      ]);
    });
    res.status(204).end();
  });

  return router;
}
