import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import { composeIban } from '#common/leads.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { DAY_MS, isoDay, mix, stableCode } from '#server/sandbox/platform/seeding.ts';
import { GERMAN_BANKS } from './bank-details.ts';

const BANK_CODES = Object.keys(GERMAN_BANKS);
const BRANDS = ['visa', 'mastercard', 'amex'] as const;

/** The demo workspaces whose seeded customers get payment methods. */
const DEMO_SLUGS = ['demo', 'nordlicht'];

/**
 * Which method the i-th seeded customer of a workspace pays with: SEPA for most, invoice for
 * some, a card stand-in for a few, and none for every twelfth (a customer still to be asked).
 */
export function seedMethodKind(i: number): 'sepa' | 'invoice' | 'card' | null {
  if (i % 12 === 11) return null;
  const slot = i % 10;
  return slot === 9 ? 'card' : slot >= 7 ? 'invoice' : 'sepa';
}

interface SeedAccountRow {
  tenant_id: number;
  slug: string;
  code: string;
  account_number: string;
  holder: string;
  i: number;
}

/**
 * Adds the demo payment methods where missing: a method for the seeded customers that have none
 * (a SEPA one with its bank account and mandate), then the current method of every policy of a
 * customer with a method that has none. Deterministic (codes and numbers from the index), so two
 * seeds give the same world; a customer created by a user is left alone.
 */
export async function seedPaymentMethods(db: Db, logger: Logger, clock: Clock): Promise<void> {
  const started = Date.now();
  const added = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724314)');
    const accounts = await tx.query<SeedAccountRow>(
      `SELECT a.tenant_id, t.slug, a.code, a.account_number,
              coalesce(nullif(trim(a.first_name || ' ' || a.last_name), ''), a.company_name, '') AS holder,
              (row_number() OVER (PARTITION BY a.tenant_id ORDER BY a.id) - 1)::int AS i
         FROM accounts a JOIN tenants t ON t.id = a.tenant_id
        WHERE t.slug = ANY($1::text[]) AND a.created_by = 'system'
        ORDER BY a.tenant_id, a.id`,
      [DEMO_SLUGS],
    );
    const bare = await tx.query<{ code: string }>(
      `SELECT a.code FROM accounts a
        WHERE a.code = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM payment_methods m
                           WHERE m.tenant_id = a.tenant_id AND m.account_code = a.code)`,
      [accounts.map((a) => a.code)],
    );
    const missing = new Set(bare.map((r) => r.code));
    const now = clock.now();
    let methods = 0;
    for (const a of accounts) {
      const kind = seedMethodKind(a.i);
      if (!kind || !missing.has(a.code)) continue;
      const seed = `${a.slug}:payment:${a.i}`;
      const signedAt = isoDay(now - (30 + (mix(a.i, 41) % 700)) * DAY_MS);
      let bankAccountId: number | null = null;
      if (kind === 'sepa') {
        const blz = BANK_CODES[mix(a.i, 17) % BANK_CODES.length]!;
        const bban = blz + String(1_000_000_000 + (mix(a.i, 23) % 8_999_999_999)).slice(0, 10);
        const iban = composeIban('DE', bban);
        const bank = GERMAN_BANKS[blz]!;
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO bank_accounts (tenant_id, code, account_code, iban, bic, bank_name,
                                      holder_name, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
           ON CONFLICT (tenant_id, account_code, iban) DO UPDATE SET iban = excluded.iban
           RETURNING id`,
          [
            a.tenant_id,
            stableCode('ba', seed),
            a.code,
            iban,
            bank.bic,
            bank.name,
            a.holder,
            signedAt,
          ],
        );
        bankAccountId = row!.id;
      }
      const year = new Date(now).getUTCFullYear();
      await tx.query(
        `INSERT INTO payment_methods (tenant_id, code, account_code, type, bank_account_id,
            holder_name, mandate_reference, mandate_signed_at, card_brand, card_last4,
            card_expiry_month, card_expiry_year, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date, $9, $10, $11, $12, $8::date, $8::date)`,
        [
          a.tenant_id,
          stableCode('pm', seed),
          a.code,
          kind,
          bankAccountId,
          kind === 'invoice' ? null : a.holder,
          kind === 'sepa' ? `MNDT-${a.account_number}-1` : null,
          signedAt,
          kind === 'card' ? BRANDS[a.i % BRANDS.length] : null,
          kind === 'card' ? String(1000 + (mix(a.i, 5) % 9000)) : null,
          kind === 'card' ? 1 + (mix(a.i, 7) % 12) : null,
          kind === 'card' ? year + 1 + (a.i % 3) : null,
        ],
      );
      methods++;
    }
    // Every policy of a customer with a method pays with the customer's first one, from the
    // policy's start (or its creation).
    const policies = await tx.query(
      `INSERT INTO policy_payment_methods (tenant_id, code, policy_code, payment_method_id,
                                           valid_from, created_at, updated_at)
       SELECT p.tenant_id, 'ppm_' || substr(md5('policy-payment:' || p.code), 1, 16), p.code, m.id,
              coalesce(p.policy_start_date, p.created_at), p.created_at, p.created_at
         FROM policies p
         JOIN tenants t ON t.id = p.tenant_id AND t.slug = ANY($1::text[])
         JOIN LATERAL (SELECT id FROM payment_methods m
                        WHERE m.tenant_id = p.tenant_id AND m.account_code = p.account_code
                        ORDER BY m.id LIMIT 1) m ON true
        WHERE p.created_by = 'system'
          AND NOT EXISTS (SELECT 1 FROM policy_payment_methods x
                           WHERE x.tenant_id = p.tenant_id AND x.policy_code = p.code)
       RETURNING id`,
      [DEMO_SLUGS],
    );
    return methods + policies.length;
  });
  if (added) logger.info({ ms: Date.now() - started, added }, 'sandbox payment methods seeded');
}
