import { Router } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { HttpError, invalidField, notFound } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  equals,
  equalsIgnoringCase,
  listRoute,
  numeric,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { AccountFields, type AccountValues } from '#common/account-fields.ts';
import {
  AccountCreateBody,
  AccountPatchBody,
  AccountUpdateBody,
} from '#common/contracts/account.ts';
import { historyPage, writeAudited } from '#server/sandbox/platform/audit-trail.ts';
import type { Clock } from '#common/clock.ts';
import { updatedByNameSql, type Audit } from '#server/sandbox/platform/records.ts';

const can = (action: string) => requireServicePermission('account-management', 'accounts', action);

export interface AccountRow extends Audit {
  id: number;
  code: string;
  account_number: string;
  type: 'person' | 'org';
  title: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  email: string;
  gender: string;
  street: string;
  house_number: string;
  zip_code: string;
  city: string;
  birth_date: string | null;
  phone: string | null;
  broker_code: string | null;
  custom_fields: Record<string, unknown>;
  version: number;
  updated_by_name: string | null;
}

// birth_date as text: a DATE turned into a JavaScript Date would shift with the time zone.
const COLUMNS = `id, code, account_number, type, title, first_name, last_name, company_name, email,
  gender, street, house_number, zip_code, city, to_char(birth_date, 'YYYY-MM-DD') AS birth_date,
  phone, broker_code, custom_fields, version, created_at, updated_at, created_by, updated_by,
  ${updatedByNameSql('accounts')}`;

export function presentAccount(r: AccountRow) {
  return {
    id: r.id,
    code: r.code,
    accountNumber: r.account_number,
    type: r.type,
    title: r.title,
    firstName: r.first_name,
    lastName: r.last_name,
    companyName: r.company_name,
    email: r.email,
    gender: r.gender,
    street: r.street,
    houseNumber: r.house_number,
    zipCode: r.zip_code,
    city: r.city,
    birthDate: r.birth_date,
    phone: r.phone,
    brokerCode: r.broker_code,
    customFields: r.custom_fields,
    // Policies arrive with the insurance service; the contract's field is already there.
    policies: [] as unknown[],
    version: r.version,
    ern: `ern:account:account:${r.code}`,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
    updatedBy: r.updated_by,
    updatedByName: r.updated_by_name,
  };
}

/**
 * The customer list: its filters, search and the sorts its table offers (issue 15), paged by
 * keyset on (sort, id). Each sort expression is never NULL.
 */
const ACCOUNT_LIST: ListSource = {
  filters: {
    id: numeric('id', 'id must be numeric'),
    code: equals('code'),
    type: equals('type'),
    gender: equals('gender'),
    city: equalsIgnoringCase('city'),
    zipCode: equals('zip_code'),
    brokerCode: equals('broker_code'),
  },
  search: [
    "first_name || ' ' || last_name",
    'company_name',
    'email',
    'city',
    'account_number',
    'code',
    'zip_code',
  ],
  orders: {
    id: 'id',
    lastName: "lower(coalesce(nullif(last_name, ''), company_name, ''))",
    accountNumber: 'account_number',
    type: 'type',
    city: 'lower(city)',
    email: 'lower(email)',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  keyset: {
    id: 'int',
    lastName: 'text',
    accountNumber: 'text',
    type: 'text',
    city: 'text',
    email: 'text',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
  },
  defaultOrder: ['id', 'ASC'],
  unique: 'id',
};

/** The columns written from a validated body; an organisation keeps no personal name, and back. */
function columnValues(a: AccountValues) {
  const person = a.type === 'person';
  return [
    a.type,
    person ? a.title : '',
    person ? a.firstName : '',
    person ? a.lastName : '',
    person ? null : a.companyName,
    a.email.toLowerCase(),
    person ? a.gender : 'unspecified',
    a.street,
    a.houseNumber,
    a.zipCode,
    a.city,
    person && a.birthDate ? a.birthDate : null,
    a.phone,
    a.brokerCode,
  ];
}

async function assertBroker(db: Queryable, tenantId: number, code: string | null): Promise<void> {
  if (code === null) return;
  const [row] = await db.query('SELECT 1 FROM partners WHERE tenant_id = $1 AND code = $2', [
    tenantId,
    code,
  ]);
  if (!row) throw invalidField('brokerCode', 'unknown_partner');
}

export function accountRouter(deps: { db: Db; signer: TokenSigner; clock: Clock }): Router {
  const { db, clock } = deps;
  const router = Router();
  router.use(requireAuth(db, deps.signer));

  /** `{id}` is the numeric id or the code (`acc_...`), as the customer routes use the code. */
  async function findAccount(q: Queryable, tenantId: number, ref: string): Promise<AccountRow> {
    const byId = /^\d{1,9}$/.test(ref);
    if (!byId && !/^acc_[a-z0-9]{1,40}$/.test(ref)) throw notFound('account');
    const [row] = await q.query<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE tenant_id = $1 AND ${byId ? 'id' : 'code'} = $2`,
      [tenantId, byId ? Number(ref) : ref],
    );
    if (!row) throw notFound('account');
    return row;
  }

  router.get(
    '/accounts',
    can('view'),
    listRoute<AccountRow>(
      db,
      ACCOUNT_LIST,
      `SELECT ${COLUMNS} FROM accounts`,
      'tenant_id',
      (rows) => rows.map(presentAccount),
    ),
  );

  router.get('/accounts/:id', can('view'), async (req, res) => {
    const auth = getAuth(res);
    res.json({
      account: presentAccount(await findAccount(db, auth.tenantId, String(req.params.id))),
    });
  });

  router.post('/accounts', can('create'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(AccountCreateBody, req.body);
    await assertBroker(db, auth.tenantId, body.brokerCode);
    // The account number follows the id, so two concurrent creations cannot draw the same one.
    const [row] = await writeAudited(
      db,
      { auth, clock },
      (tx) =>
        tx.query<AccountRow>(
          `WITH n AS (SELECT nextval('accounts_id_seq')::int AS id)
       INSERT INTO accounts (id, tenant_id, code, account_number, type, title, first_name,
                             last_name, company_name, email, gender, street, house_number,
                             zip_code, city, birth_date, phone, broker_code, created_by, updated_by)
       SELECT n.id, $1, $2, 'K-' || (100000 + n.id), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
              $13, $14::date, $15, $16, $17, $17 FROM n
       RETURNING ${COLUMNS}`,
          [auth.tenantId, newCode('acc'), ...columnValues(body), auth.userCode],
        ),
      ([saved]) =>
        saved && {
          entityType: 'account',
          entityId: saved.code,
          action: 'created',
          after: presentAccount(saved),
        },
    );
    if (!row) throw new Error('account not created');
    res.status(201).json({ account: presentAccount(row) });
  });

  /**
   * Writes the checked fields on top of `version`, comparing and writing in one statement: two
   * saves based on the same version cannot both win. The loser gets 409 `version_conflict` with
   * the record as saved now (who saved it, by name, too), so the client can show what changed.
   */
  async function saveOnVersion(
    auth: AuthContext,
    current: AccountRow,
    values: AccountValues,
    version: number,
  ) {
    await assertBroker(db, auth.tenantId, values.brokerCode);
    // The change and its audit event commit together (platform/audit-trail.ts).
    const [row] = await writeAudited(
      db,
      { auth, clock },
      (tx) =>
        tx.query<AccountRow>(
          `UPDATE accounts SET type = $3, title = $4, first_name = $5, last_name = $6,
              company_name = $7, email = $8, gender = $9, street = $10, house_number = $11,
              zip_code = $12, city = $13, birth_date = $14::date, phone = $15, broker_code = $16,
              updated_by = $17, updated_at = now(), version = version + 1
        WHERE tenant_id = $1 AND id = $2 AND version = $18
        RETURNING ${COLUMNS}`,
          [auth.tenantId, current.id, ...columnValues(values), auth.userCode, version],
        ),
      ([saved]) =>
        saved && {
          entityType: 'account',
          entityId: saved.code,
          action: 'updated',
          before: presentAccount(current),
          after: presentAccount(saved),
        },
    );
    if (row) return presentAccount(row);
    const latest = await findAccount(db, auth.tenantId, String(current.id));
    throw new HttpError(
      409,
      'version_conflict',
      `account was changed meanwhile (version ${latest.version}, yours ${version})`,
      { account: presentAccount(latest) },
    );
  }

  router.put('/accounts/:id', can('update'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(AccountUpdateBody, req.body);
    const current = await findAccount(db, auth.tenantId, String(req.params.id));
    res.json({ account: await saveOnVersion(auth, current, body, body.version) });
  });

  /**
   * Only the fields named change; the others keep what is saved, whoever saved it. The result is
   * checked whole (a person still needs a last name), with the field errors of PUT.
   */
  router.patch('/accounts/:id', can('update'), async (req, res) => {
    const auth = getAuth(res);
    const { version, ...changes } = parseBody(AccountPatchBody, req.body);
    const current = await findAccount(db, auth.tenantId, String(req.params.id));
    const saved = presentAccount(current);
    const values = parseBody(AccountFields, {
      type: saved.type,
      title: saved.title,
      firstName: saved.firstName,
      lastName: saved.lastName,
      companyName: saved.companyName,
      email: saved.email,
      gender: saved.gender,
      street: saved.street,
      houseNumber: saved.houseNumber,
      zipCode: saved.zipCode,
      city: saved.city,
      birthDate: saved.birthDate,
      phone: saved.phone,
      brokerCode: saved.brokerCode,
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    });
    res.json({ account: await saveOnVersion(auth, current, values, version) });
  });

  router.get('/accounts/:id/history', can('view'), async (req, res) => {
    const auth = getAuth(res);
    const account = await findAccount(db, auth.tenantId, String(req.params.id));
    res.json(await historyPage(db, req, auth.tenantId, 'account', account.code));
  });

  return router;
}
