import { Router } from 'express';
import type { Clock } from '#common/clock.ts';
import { BankAccountCreateBody, bicMatchesIban, cardNumberPath } from '#common/payment-methods.ts';
import { maskIban } from '#common/payment-methods.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidField, notFound } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { equals, listRoute, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import {
  BANK_ACCOUNT_SELECT,
  bankOf,
  findAccount,
  presentBankAccount,
  type BankAccountRow,
} from './bank-details.ts';

/**
 * The payment service's permission (`payment-management.{resource}.{action}`) or the legacy
 * finance form of the older platform (`eis.finance.{resource}.{action}`, which `eis.finance.*`
 * covers).
 */
export const paymentPermission = (resource: string, action: 'view' | 'create') =>
  requirePermission(
    `payment-management.${resource}.${action}`,
    `eis.finance.${resource}.${action}`,
  );

/** Refuses a body holding a full card number anywhere: 400 naming the field, nothing stored. */
export function refuseCardNumbers(body: unknown): void {
  const path = cardNumberPath(body);
  if (path) throw invalidField(path, 'card_number_refused', 'a full card number is never accepted');
}

const BANK_ACCOUNT_LIST: ListSource = {
  filters: {
    accountCode: equals('b.account_code'),
    accountNumber: equals('a.account_number'),
  },
  orders: { id: 'b.id', createdAt: 'b.created_at' },
  defaultOrder: ['createdAt', 'DESC'],
  unique: 'b.id',
  expands: ['account'],
};

export interface BankAccountInput {
  accountCode: string;
  iban: string;
  bic: string | null;
  holderName: string;
}

/**
 * A customer's bank account for an IBAN, inside the caller's transaction: the one the customer
 * has for it already (`existing: true`), else a new one with the bank's name and BIC from the
 * BLZ table where the caller gave none. A BIC of another country than the IBAN's is refused.
 */
export async function ensureBankAccount(
  tx: Queryable,
  who: { auth: AuthContext; clock: Clock },
  input: BankAccountInput,
  bicPath: string,
): Promise<{ row: BankAccountRow; existing: boolean }> {
  const { auth } = who;
  const bic = input.bic || null;
  if (bic && !bicMatchesIban(bic, input.iban)) {
    throw invalidField(
      bicPath,
      'bic_country_mismatch',
      'the BIC is of another country than the IBAN',
    );
  }
  const bank = bankOf(input.iban);
  const [inserted] = await tx.query<{ code: string }>(
    `INSERT INTO bank_accounts (tenant_id, code, account_code, iban, bic, bank_name, holder_name,
                                created_at, updated_at, created_by, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9)
     ON CONFLICT (tenant_id, account_code, iban) DO NOTHING
     RETURNING code`,
    [
      auth.tenantId,
      newCode('ba'),
      input.accountCode,
      input.iban,
      bic ?? bank?.bic ?? null,
      bank?.name ?? null,
      input.holderName,
      new Date(who.clock.now()),
      auth.userCode,
    ],
  );
  const [row] = await tx.query<BankAccountRow>(
    `${BANK_ACCOUNT_SELECT} WHERE b.tenant_id = $1 AND b.account_code = $2 AND b.iban = $3`,
    [auth.tenantId, input.accountCode, input.iban],
  );
  if (!row) throw new Error('bank account not stored');
  if (inserted) {
    await recordChange(tx, who, {
      entityType: 'account',
      entityId: input.accountCode,
      action: 'bank_account_added',
      changes: [{ field: 'bankAccount', before: null, after: maskIban(row.iban) }],
    });
  }
  return { row, existing: !inserted };
}

/**
 * Bank accounts of the tenant's customers (spec: GET bank-accounts with expand). The spec creates
 * one by a POST to an external pages host (`create-bank-account`); the sandbox stands in with the
 * same POST under the payment service, at `/bank-accounts` and at `/create-bank-account`
 * (docs/contracts.md).
 */
export function bankAccountRouter(deps: { db: Db; signer: TokenSigner; clock: Clock }): Router {
  const { db, clock } = deps;
  const router = Router();
  router.use(['/bank-accounts', '/create-bank-account'], requireAuth(db, deps.signer));

  router.get(
    '/bank-accounts',
    paymentPermission('bank-accounts', 'view'),
    listRoute<BankAccountRow>(
      db,
      BANK_ACCOUNT_LIST,
      BANK_ACCOUNT_SELECT,
      'b.tenant_id',
      (rows, list) => rows.map((r) => presentBankAccount(r, list.expand.has('account'))),
    ),
  );

  router.get(
    '/bank-accounts/:code',
    paymentPermission('bank-accounts', 'view'),
    async (req, res) => {
      const auth = getAuth(res);
      const [row] = await db.query<BankAccountRow>(
        `${BANK_ACCOUNT_SELECT} WHERE b.tenant_id = $1 AND b.code = $2`,
        [auth.tenantId, String(req.params.code)],
      );
      if (!row) throw notFound('bank account');
      res.json({ bankAccount: presentBankAccount(row, true) });
    },
  );

  router.post(
    ['/bank-accounts', '/create-bank-account'],
    paymentPermission('bank-accounts', 'create'),
    async (req, res) => {
      const auth = getAuth(res);
      refuseCardNumbers(req.body);
      const body = parseBody(BankAccountCreateBody, req.body);
      await findAccount(db, auth.tenantId, body.accountCode);
      const { row, existing } = await db.transaction((tx) =>
        ensureBankAccount(tx, { auth, clock }, body, 'bic'),
      );
      if (existing) {
        throw new HttpError(
          409,
          'bank_account_exists',
          'the customer has a bank account with this IBAN already',
          { bankAccount: presentBankAccount(row) },
          [{ path: 'iban', code: 'bank_account_exists' }],
        );
      }
      res.status(201).json({ bankAccount: presentBankAccount(row) });
    },
  );

  return router;
}
