import type { Queryable } from '#server/sandbox/platform/db.ts';

const DAY_MS = 86_400_000;
const day = (at: Date | string | null) => (at ? new Date(at).toISOString().slice(0, 10) : null);

interface PolicyFacts {
  code: string;
  policy_number: string;
  status: string;
  account_code: string | null;
  holder: Record<string, string | null> | null;
  policy_start_date: Date | null;
  created_at: Date;
  product_name: string;
  version_number: number;
  version_id: number;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  email: string | null;
  street: string | null;
  house_number: string | null;
  zip_code: string | null;
  city: string | null;
}

/** What the policy schedule prints of a policy, and the customer the document belongs to. */
export interface PolicyScheduleFacts {
  /** The policy's customer, whose documents the schedule joins; null for a holder by value. */
  accountCode: string | null;
  /** The current version as the document kinds' `policy` variables. */
  values: Record<string, unknown>;
}

/**
 * The facts of a policy's current version that its schedule prints (the document service's
 * `policy` kind, notification/document-variables.ts); null when the workspace has no such policy.
 * The insurance service owns its tables; the document service asks it here instead of reading
 * them.
 */
export async function policyScheduleFacts(
  db: Queryable,
  tenantId: number,
  code: string,
): Promise<PolicyScheduleFacts | null> {
  const [p] = await db.query<PolicyFacts>(
    `SELECT p.code, p.policy_number, p.status, p.account_code, p.holder, p.policy_start_date,
            p.created_at, pr.name AS product_name, v.version_number, v.id AS version_id,
            a.first_name, a.last_name, a.company_name, a.email, a.street, a.house_number,
            a.zip_code, a.city
       FROM policies p
       JOIN products pr ON pr.id = p.product_id
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       LEFT JOIN accounts a ON a.tenant_id = p.tenant_id AND a.code = p.account_code
      WHERE p.tenant_id = $1 AND p.code = $2`,
    [tenantId, code],
  );
  if (!p) return null;
  const [slice] = await db.query<{
    id: number;
    from: Date;
    to: Date | null;
    premium: {
      premiumItems?: { premiumFormulaId: number; total: number }[];
      grandTotal?: number;
    };
  }>(
    `SELECT id, "from", "to", premium FROM timeslices WHERE policy_version_id = $1
      ORDER BY "from" DESC LIMIT 1`,
    [p.version_id],
  );
  const objects = slice
    ? await db.query<{
        name: string;
        label: string;
        summary: string;
        data: Record<string, unknown>;
      }>(
        `SELECT insured_object_name AS name, insured_object_label AS label, summary, data
           FROM policy_objects WHERE timeslice_id = $1 ORDER BY "order"`,
        [slice.id],
      )
    : [];
  const items = slice?.premium.premiumItems ?? [];
  const formulas = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM premium_formulas WHERE id = ANY($1::int[])',
    [items.map((i) => i.premiumFormulaId)],
  );
  const formulaName = new Map(formulas.map((f) => [f.id, f.name]));
  const byValue = p.holder ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const person = (first: unknown, last: unknown, company: unknown) =>
    text(company) || [text(first), text(last)].filter(Boolean).join(' ');
  const street = (s: unknown, n: unknown) => [text(s), text(n)].filter(Boolean).join(' ');
  const holder = p.account_code
    ? {
        name: person(p.first_name, p.last_name, p.company_name),
        email: text(p.email),
        street: street(p.street, p.house_number),
        zipCode: text(p.zip_code),
        city: text(p.city),
      }
    : {
        name: person(byValue.firstName, byValue.lastName, byValue.companyName),
        email: text(byValue.email),
        street: street(byValue.street, byValue.houseNumber),
        zipCode: text(byValue.zipCode),
        city: text(byValue.city),
      };
  const defaults = objects.find((o) => o.name === 'default')?.data ?? {};
  const cents = (euros: number | undefined) => Math.round((euros ?? 0) * 100);
  const values = {
    number: p.policy_number,
    productName: p.product_name,
    status: p.status,
    version: p.version_number,
    startDate: day(p.policy_start_date ?? p.created_at),
    // A term's end is exclusive (the next term's start): the schedule names its last day.
    endDate: slice?.to ? day(new Date(new Date(slice.to).getTime() - DAY_MS)) : null,
    holder,
    premiumCents: cents(slice?.premium.grandTotal),
    premiumFrequency: text(defaults.billingFrequencyUnit) || 'yearly',
    premiumItems: items.map((i) => ({
      name: formulaName.get(i.premiumFormulaId) ?? '',
      amountCents: cents(i.total),
    })),
    insuredObjects: objects
      .filter((o) => o.name !== 'default')
      .map((o) => ({ name: o.name, label: o.label, summary: o.summary })),
  };
  return { accountCode: p.account_code, values };
}
