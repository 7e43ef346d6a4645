import { normalizeIban } from '#common/leads.ts';
import { maskIban } from '#common/payment-methods.ts';
import { userNameSql, type Audit } from '#server/sandbox/platform/records.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { notFound } from '#server/sandbox/platform/errors.ts';

/**
 * What the payment method and bank account routes share: the bank of a German IBAN, the
 * customer account a record belongs to, and the bank account as the answers show it.
 */

/**
 * A few German banks by their bank code (Bankleitzahl, the IBAN's characters 5–12): the bank's
 * name and BIC, so that a German IBAN needs no BIC typed and the list names the bank. A stand-in
 * for the Bundesbank's full table; an unknown code leaves the name empty.
 */
export const GERMAN_BANKS: Readonly<Record<string, { name: string; bic: string }>> = {
  '10010010': { name: 'Postbank', bic: 'PBNKDEFFXXX' },
  '10070000': { name: 'Deutsche Bank Berlin', bic: 'DEUTDEBBXXX' },
  '12030000': { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
  '20050550': { name: 'Hamburger Sparkasse', bic: 'HASPDEHHXXX' },
  '37040044': { name: 'Commerzbank Köln', bic: 'COBADEFFXXX' },
  '43060967': { name: 'GLS Gemeinschaftsbank', bic: 'GENODEM1GLS' },
  '50010517': { name: 'ING-DiBa', bic: 'INGDDEFFXXX' },
  '50070010': { name: 'Deutsche Bank Frankfurt', bic: 'DEUTDEFFXXX' },
  '60050101': { name: 'BW-Bank Stuttgart', bic: 'SOLADEST600' },
  '70150000': { name: 'Stadtsparkasse München', bic: 'SSKMDEMMXXX' },
};

/** The bank of an IBAN when the table knows it (German IBANs only). */
export function bankOf(iban: string): { name: string; bic: string } | null {
  const normal = normalizeIban(iban);
  if (!normal.startsWith('DE')) return null;
  return GERMAN_BANKS[normal.slice(4, 12)] ?? null;
}

export interface AccountRef {
  code: string;
  account_number: string;
  name: string;
}

/** A customer account of the caller's tenant by its code, or 404: another tenant's looks missing. */
export async function findAccount(
  db: Queryable,
  tenantId: number,
  code: string,
): Promise<AccountRef> {
  const [row] = await db.query<AccountRef>(
    `SELECT code, account_number,
            coalesce(nullif(trim(first_name || ' ' || last_name), ''), company_name, '') AS name
       FROM accounts WHERE tenant_id = $1 AND code = $2`,
    [tenantId, code],
  );
  if (!row) throw notFound('account');
  return row;
}

export interface BankAccountRow extends Audit {
  id: number;
  code: string;
  account_code: string;
  account_number: string;
  account_name: string;
  iban: string;
  bic: string | null;
  bank_name: string | null;
  holder_name: string;
  created_by_name: string | null;
}

/** A bank account with its customer's number and name; `b` and `a` for filters and sorts. */
export const BANK_ACCOUNT_SELECT = `SELECT b.id, b.code, b.account_code, a.account_number,
    coalesce(nullif(trim(a.first_name || ' ' || a.last_name), ''), a.company_name, '') AS account_name,
    b.iban, b.bic, b.bank_name, b.holder_name, b.created_at, b.updated_at, b.created_by,
    b.updated_by, ${userNameSql('b.created_by', 'created_by_name')}
  FROM bank_accounts b
  JOIN accounts a ON a.tenant_id = b.tenant_id AND a.code = b.account_code`;

/** A bank account as the answers show it: the IBAN masked, never whole (docs/contracts.md). */
export function presentBankAccount(r: BankAccountRow, expandAccount = false) {
  return {
    id: r.id,
    code: r.code,
    accountCode: r.account_code,
    accountNumber: r.account_number,
    ibanMasked: maskIban(r.iban),
    country: r.iban.slice(0, 2),
    bic: r.bic,
    bankName: r.bank_name,
    holderName: r.holder_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
    createdByName: r.created_by_name,
    ...(expandAccount
      ? {
          account: { code: r.account_code, accountNumber: r.account_number, name: r.account_name },
        }
      : {}),
  };
}
export type PresentedBankAccount = ReturnType<typeof presentBankAccount>;
