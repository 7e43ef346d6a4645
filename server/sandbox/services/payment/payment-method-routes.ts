import { Router } from 'express';
import type { Clock } from '#common/clock.ts';
import {
  PaymentMethodCreateBody,
  PolicyPaymentMethodCreateBody,
  cardExpired,
  maskIban,
} from '#common/payment-methods.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { getAuth, requireAuth } from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidField, notFound } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { equals, listRoute, oneOf, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { uniqueViolation, userNameSql, type Audit } from '#server/sandbox/platform/records.ts';
import { isoDay } from '#server/sandbox/platform/seeding.ts';
import { ensureBankAccount, paymentPermission, refuseCardNumbers } from './bank-account-routes.ts';
import { findAccount } from './bank-details.ts';

interface PaymentMethodRow extends Audit {
  id: number;
  code: string;
  account_code: string;
  account_number: string;
  type: 'sepa' | 'invoice' | 'card';
  holder_name: string | null;
  mandate_reference: string | null;
  mandate_signed_at: string | null;
  bank_account_code: string | null;
  iban: string | null;
  bic: string | null;
  bank_name: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_expiry_month: number | null;
  card_expiry_year: number | null;
  created_by_name: string | null;
}

const METHOD_SELECT = `SELECT m.id, m.code, m.account_code, a.account_number, m.type, m.holder_name,
    m.mandate_reference, to_char(m.mandate_signed_at, 'YYYY-MM-DD') AS mandate_signed_at,
    b.code AS bank_account_code, b.iban, b.bic, b.bank_name, m.card_brand, m.card_last4,
    m.card_expiry_month, m.card_expiry_year, m.created_at, m.updated_at, m.created_by,
    m.updated_by, ${userNameSql('m.created_by', 'created_by_name')}
  FROM payment_methods m
  JOIN accounts a ON a.tenant_id = m.tenant_id AND a.code = m.account_code
  LEFT JOIN bank_accounts b ON b.id = m.bank_account_id`;

/** A payment method as the answers show it: a SEPA IBAN masked, a card by brand and last four. */
function presentMethod(r: PaymentMethodRow) {
  return {
    id: r.id,
    code: r.code,
    accountCode: r.account_code,
    accountNumber: r.account_number,
    type: r.type,
    ...(r.type === 'sepa'
      ? {
          sepa: {
            bankAccountCode: r.bank_account_code,
            ibanMasked: maskIban(r.iban ?? ''),
            bic: r.bic,
            bankName: r.bank_name,
            holderName: r.holder_name,
            mandateReference: r.mandate_reference,
            mandateSignedAt: r.mandate_signed_at,
          },
        }
      : {}),
    ...(r.type === 'card'
      ? {
          card: {
            brand: r.card_brand,
            last4: r.card_last4,
            expiryMonth: r.card_expiry_month,
            expiryYear: r.card_expiry_year,
            holderName: r.holder_name,
          },
        }
      : {}),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
    createdByName: r.created_by_name,
  };
}
type PresentedMethod = ReturnType<typeof presentMethod>;

/** How the history names a method: its kind and what tells it apart, never a full number. */
function methodLabel(m: PresentedMethod): string {
  if (m.sepa) return `sepa ${m.sepa.ibanMasked}`;
  if (m.card) return `card ${m.card.brand} •••• ${m.card.last4}`;
  return m.type;
}

const METHOD_LIST: ListSource = {
  filters: {
    accountCode: equals('m.account_code'),
    accountNumber: equals('a.account_number'),
    type: oneOf('m.type', new Set(['sepa', 'invoice', 'card']), 'type: sepa, invoice or card'),
  },
  orders: { id: 'm.id', createdAt: 'm.created_at', type: 'm.type' },
  defaultOrder: ['createdAt', 'DESC'],
  unique: 'm.id',
};

interface PolicyMethodRow {
  id: number;
  code: string;
  policy_code: string;
  payment_method_id: number;
  valid_from: Date;
  valid_to: Date | null;
  created_at: Date;
  created_by: string;
  created_by_name: string | null;
}

const POLICY_METHOD_SELECT = `SELECT pp.id, pp.code, pp.policy_code, pp.payment_method_id,
    pp.valid_from, pp.valid_to, pp.created_at, pp.created_by,
    ${userNameSql('pp.created_by', 'created_by_name')}
  FROM policy_payment_methods pp`;

const POLICY_METHOD_LIST: ListSource = {
  filters: {
    policyCode: equals('pp.policy_code'),
    paymentMethodCode: {
      where: (p) => `pp.payment_method_id = (SELECT id FROM payment_methods WHERE code = ${p})`,
    },
    current: {
      where: (p) => `(pp.valid_to IS NULL) = ${p}::boolean`,
      value: (text) => {
        if (text !== 'true' && text !== 'false')
          throw new HttpError(400, 'invalid_query', 'current: true or false');
        return text === 'true';
      },
    },
  },
  orders: { validFrom: 'pp.valid_from', id: 'pp.id' },
  defaultOrder: ['validFrom', 'DESC'],
  unique: 'pp.id',
};

async function methodsByIds(db: Queryable, tenantId: number, ids: number[]) {
  if (!ids.length) return new Map<number, PresentedMethod>();
  const rows = await db.query<PaymentMethodRow>(
    `${METHOD_SELECT} WHERE m.tenant_id = $1 AND m.id = ANY($2::int[])`,
    [tenantId, ids],
  );
  return new Map(rows.map((r) => [r.id, presentMethod(r)]));
}

function presentPolicyMethod(r: PolicyMethodRow, method: PresentedMethod | undefined) {
  return {
    id: r.id,
    code: r.code,
    policyCode: r.policy_code,
    paymentMethodCode: method?.code ?? null,
    paymentMethod: method ?? null,
    isCurrent: r.valid_to === null,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    createdAt: r.created_at,
    createdBy: r.created_by,
    createdByName: r.created_by_name,
  };
}

/**
 * Payment methods of the tenant's customers (SEPA with a mandate, invoice, a card stand-in) and
 * which one each policy pays with (spec: GET and POST payment-methods, policy-payment-methods).
 */
export function paymentMethodRouter(deps: { db: Db; signer: TokenSigner; clock: Clock }): Router {
  const { db, clock } = deps;
  const router = Router();
  router.use(['/payment-methods', '/policy-payment-methods'], requireAuth(db, deps.signer));

  async function findMethod(q: Queryable, tenantId: number, code: string) {
    const [row] = await q.query<PaymentMethodRow>(
      `${METHOD_SELECT} WHERE m.tenant_id = $1 AND m.code = $2`,
      [tenantId, code],
    );
    if (!row) throw notFound('payment method');
    return row;
  }

  router.get(
    '/payment-methods',
    paymentPermission('payment-methods', 'view'),
    listRoute<PaymentMethodRow>(db, METHOD_LIST, METHOD_SELECT, 'm.tenant_id', (rows) =>
      rows.map(presentMethod),
    ),
  );

  router.get(
    '/payment-methods/:code',
    paymentPermission('payment-methods', 'view'),
    async (req, res) => {
      const auth = getAuth(res);
      res.json({
        paymentMethod: presentMethod(await findMethod(db, auth.tenantId, String(req.params.code))),
      });
    },
  );

  router.post(
    '/payment-methods',
    paymentPermission('payment-methods', 'create'),
    async (req, res) => {
      const auth = getAuth(res);
      refuseCardNumbers(req.body);
      const body = parseBody(PaymentMethodCreateBody, req.body);
      const today = isoDay(clock.now());
      if (body.type === 'card' && cardExpired(body.card.expiryMonth, body.card.expiryYear, today)) {
        throw invalidField('card.expiryYear', 'card_expired', 'the card has expired');
      }
      if (body.type === 'sepa' && body.sepa.mandateSignedAt > today) {
        throw invalidField(
          'sepa.mandateSignedAt',
          'date_in_future',
          'a mandate is signed before it is used',
        );
      }
      const account = await findAccount(db, auth.tenantId, body.accountCode);
      const who = { auth, clock };
      let code: string;
      try {
        code = await db.transaction(async (tx) => {
          const at = new Date(clock.now());
          const values = {
            bankAccountId: null as number | null,
            holderName: null as string | null,
            mandateReference: null as string | null,
            mandateSignedAt: null as string | null,
            card: null as null | { brand: string; last4: string; month: number; year: number },
          };
          if (body.type === 'sepa') {
            const { row } = await ensureBankAccount(
              tx,
              who,
              {
                accountCode: account.code,
                iban: body.sepa.iban,
                bic: body.sepa.bic,
                holderName: body.sepa.holderName,
              },
              'sepa.bic',
            );
            values.bankAccountId = row.id;
            values.holderName = body.sepa.holderName;
            values.mandateReference =
              body.sepa.mandateReference || `MNDT-${newCode('x').slice(2, 14).toUpperCase()}`;
            values.mandateSignedAt = body.sepa.mandateSignedAt;
          } else if (body.type === 'card') {
            values.holderName = body.card.holderName;
            values.card = {
              brand: body.card.brand,
              last4: body.card.last4,
              month: body.card.expiryMonth,
              year: body.card.expiryYear,
            };
          }
          const created = newCode('pm');
          await tx.query(
            `INSERT INTO payment_methods (tenant_id, code, account_code, type, bank_account_id,
                holder_name, mandate_reference, mandate_signed_at, card_brand, card_last4,
                card_expiry_month, card_expiry_year, created_at, updated_at, created_by, updated_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date, $9, $10, $11, $12, $13, $13, $14, $14)`,
            [
              auth.tenantId,
              created,
              account.code,
              body.type,
              values.bankAccountId,
              values.holderName,
              values.mandateReference,
              values.mandateSignedAt,
              values.card?.brand ?? null,
              values.card?.last4 ?? null,
              values.card?.month ?? null,
              values.card?.year ?? null,
              at,
              auth.userCode,
            ],
          );
          const method = presentMethod(await findMethod(tx, auth.tenantId, created));
          await recordChange(tx, who, {
            entityType: 'account',
            entityId: account.code,
            action: 'payment_method_added',
            changes: [{ field: 'paymentMethod', before: null, after: methodLabel(method) }],
          });
          return created;
        });
      } catch (error) {
        if (uniqueViolation(error)) {
          throw new HttpError(
            409,
            'mandate_reference_taken',
            'another mandate has this reference',
            undefined,
            [{ path: 'sepa.mandateReference', code: 'mandate_reference_taken' }],
          );
        }
        throw error;
      }
      res
        .status(201)
        .json({ paymentMethod: presentMethod(await findMethod(db, auth.tenantId, code)) });
    },
  );

  router.get(
    '/policy-payment-methods',
    paymentPermission('payment-methods', 'view'),
    listRoute<PolicyMethodRow>(
      db,
      POLICY_METHOD_LIST,
      POLICY_METHOD_SELECT,
      'pp.tenant_id',
      async (rows, _list, auth) => {
        const methods = await methodsByIds(
          db,
          auth.tenantId,
          rows.map((r) => r.payment_method_id),
        );
        return rows.map((r) => presentPolicyMethod(r, methods.get(r.payment_method_id)));
      },
    ),
  );

  /**
   * Sets the method a policy pays with from now on: the current one is closed (kept as history,
   * nothing deleted) and the new one opened, in one transaction on the locked policy, so two
   * changes at once end with one current method. The method must be of the policy's customer.
   */
  router.post(
    '/policy-payment-methods',
    paymentPermission('payment-methods', 'create'),
    async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(PolicyPaymentMethodCreateBody, req.body);
      const who = { auth, clock };
      const outcome = await db.transaction(async (tx) => {
        const [policy] = await tx.query<{ code: string; account_code: string | null }>(
          'SELECT code, account_code FROM policies WHERE tenant_id = $1 AND code = $2 FOR UPDATE',
          [auth.tenantId, body.policyCode],
        );
        if (!policy) throw notFound('policy');
        const method = presentMethod(await findMethod(tx, auth.tenantId, body.paymentMethodCode));
        if (policy.account_code !== method.accountCode) {
          throw new HttpError(
            422,
            'payment_method_of_other_account',
            'the payment method belongs to another customer than the policy',
            undefined,
            [{ path: 'paymentMethodCode', code: 'payment_method_of_other_account' }],
          );
        }
        const [current] = await tx.query<PolicyMethodRow>(
          `${POLICY_METHOD_SELECT} WHERE pp.tenant_id = $1 AND pp.policy_code = $2
              AND pp.valid_to IS NULL`,
          [auth.tenantId, policy.code],
        );
        // The method it pays with already: nothing changes, the current entry is the answer.
        if (current && current.payment_method_id === method.id)
          return { code: current.code, created: false };
        const at = new Date(clock.now());
        let before: string | null = null;
        if (current) {
          await tx.query(
            `UPDATE policy_payment_methods SET valid_to = $3, updated_at = $3, updated_by = $4
              WHERE tenant_id = $1 AND id = $2`,
            [auth.tenantId, current.id, at, auth.userCode],
          );
          const previous = (await methodsByIds(tx, auth.tenantId, [current.payment_method_id])).get(
            current.payment_method_id,
          );
          before = previous ? methodLabel(previous) : null;
        }
        const code = newCode('ppm');
        await tx.query(
          `INSERT INTO policy_payment_methods (tenant_id, code, policy_code, payment_method_id,
              valid_from, created_at, updated_at, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $5, $5, $6, $6)`,
          [auth.tenantId, code, policy.code, method.id, at, auth.userCode],
        );
        await recordChange(tx, who, {
          entityType: 'policy',
          entityId: policy.code,
          action: 'payment_method_changed',
          changes: [{ field: 'paymentMethod', before, after: methodLabel(method) }],
        });
        return { code, created: true };
      });
      const [row] = await db.query<PolicyMethodRow>(
        `${POLICY_METHOD_SELECT} WHERE pp.tenant_id = $1 AND pp.code = $2`,
        [auth.tenantId, outcome.code],
      );
      if (!row) throw new Error('policy payment method not stored');
      const methods = await methodsByIds(db, auth.tenantId, [row.payment_method_id]);
      res.status(outcome.created ? 201 : 200).json({
        policyPaymentMethod: presentPolicyMethod(row, methods.get(row.payment_method_id)),
      });
    },
  );

  return router;
}
