import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import { seedShiftMs } from '#server/sandbox/platform/seed-time.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { LEAD_ENTITY_TYPE, composeIban } from '#common/leads.ts';
import { leadCore, type StoredPolicy } from './lead-routes.ts';
import { leadWorkflow } from './lead-workflow.ts';
import { loadTariffs, premiumOf } from './premium.ts';
import { seedObjectsData } from './seed-policies.ts';
import {
  Columns,
  DAY_MS,
  mix,
  moveSequencesPast,
  seedWorkspaces,
  stableCode,
} from '#server/sandbox/platform/seeding.ts';

/**
 * Lead statuses and their transition rules for every workspace, and demo leads: spread over the
 * tenant's customers and its active product versions, in every status, each with one to three
 * versions whose statuses follow the rules, and the documents a lead of that status would have
 * (a quote, a signed application, an uploaded identity document). Every value derives from the
 * lead's index, so two seeds produce the same world.
 */

/** The statuses a seeded lead passed through to reach its status, along the default rules. */
const PATHS: Record<string, string[]> = {
  new: ['new'],
  contacted: ['new', 'contacted'],
  quoted: ['new', 'contacted', 'quoted'],
  approved: ['new', 'contacted', 'quoted', 'approved'],
  declined: ['new', 'contacted', 'declined'],
  converted: ['new', 'contacted', 'quoted', 'approved', 'converted'],
};
/** i % 20 -> status: a quarter new, a fifth each contacted and quoted, the rest closing. */
const STATUS_BY_SLOT = [
  ...Array<string>(5).fill('new'),
  ...Array<string>(4).fill('contacted'),
  ...Array<string>(4).fill('quoted'),
  ...Array<string>(2).fill('approved'),
  ...Array<string>(3).fill('declined'),
  ...Array<string>(2).fill('converted'),
];
const SOURCES = ['website', 'broker', 'phone', 'branch'];
const NOTES = ['Callback requested', 'Compared with a competitor', 'Asked about the deductible'];
const PROSPECTS = [
  { firstName: 'Mila', lastName: 'Hartmann', email: 'mila.hartmann@example.com' },
  { firstName: 'Theo', lastName: 'Busch', email: 'theo.busch@example.com' },
  { firstName: 'Ella', lastName: 'Vogt', email: 'ella.vogt@example.com' },
];
/**
 * Leads are created from here on, 19 hours apart: fixed, so the seed is reproducible, and moved
 * with the clock as the whole demo world is (platform/seed-time.ts).
 */
const FIRST_CREATED = Date.UTC(2025, 0, 6, 8, 0, 0);

const COUNTS: Record<string, number> = { demo: 400, nordlicht: 12 };

/** A valid German IBAN (bank code 37040044) whose account number derives from the index. */
function ibanOf(i: number): string {
  const bban = `37040044${String(mix(i, 99) % 10_000_000_000).padStart(10, '0')}`;
  return composeIban('DE', bban);
}

async function seedLeads(
  tx: Queryable,
  tenantId: number,
  slug: string,
  count: number,
  firstCreatedMs: number,
): Promise<void> {
  // Applications are made for the version on sale.
  const tariffs = await loadTariffs(tx, tenantId, "v.status = 'active'");
  const accounts = await tx.query<{
    code: string;
    type: string;
    first_name: string;
    last_name: string;
    company_name: string | null;
  }>(
    'SELECT code, type, first_name, last_name, company_name FROM accounts WHERE tenant_id = $1 ORDER BY id',
    [tenantId],
  );
  const products = await tx.query<{ id: number; name: string; slug: string }>(
    'SELECT id, name, slug FROM products WHERE tenant_id = $1',
    [tenantId],
  );
  if (!tariffs.length || !accounts.length) return;
  const [next] = await tx.query<{ l: number; d: number }>(
    `SELECT (SELECT coalesce(max(id), 0) FROM leads) AS l,
            (SELECT coalesce(max(id), 0) FROM documents) AS d`,
  );
  let { l: leadId, d: documentId } = next!;

  const leads = new Columns([
    'id',
    'code',
    'number',
    'status',
    'account',
    'product',
    'version',
    'policy',
    'bank',
    'payment',
    'custom',
    'premium',
    'revision',
    'created',
    'updated',
  ] as const);
  const versions = new Columns([
    'lead',
    'revision',
    'status',
    'changed',
    'snapshot',
    'created',
  ] as const);
  const documents = new Columns([
    'id',
    'code',
    'entity',
    'lead',
    'description',
    'type',
    'filename',
    'key',
    'requester',
    'created',
  ] as const);

  for (let i = 0; i < count; i += 1) {
    const tariff = tariffs[i % tariffs.length]!;
    const product = products.find((p) => p.id === tariff.product_id)!;
    const createdMs = firstCreatedMs + i * 19 * 3_600_000;
    const startMs = (Math.floor(createdMs / DAY_MS) + 14) * DAY_MS;
    leadId += 1;
    const code = stableCode('lea', `${slug}:lead:${i}`);
    const number = `LEA-${100000 + leadId}`;
    // Every twelfth lead is a prospect without a customer account yet.
    const account = i % 12 === 5 ? null : accounts[(i * 7 + 3) % accounts.length]!;
    const prospect = PROSPECTS[i % PROSPECTS.length]!;
    const holderName = account
      ? account.type === 'org'
        ? (account.company_name ?? '')
        : `${account.first_name} ${account.last_name}`
      : `${prospect.firstName} ${prospect.lastName}`;
    const objects = seedObjectsData(tariff, i, 500, startMs);
    const policy: StoredPolicy = {
      productVersionId: tariff.id,
      accountCode: account?.code ?? null,
      holder: account ? null : { type: 'person', ...prospect },
      policyObjects: objects.map(({ object, data }) => ({
        insuredObjectId: object.id,
        insuredObjectName: object.name,
        insuredObjectLabel: object.label,
        data,
      })),
      premiumOverride: null,
    };
    const premium = premiumOf(
      tariff,
      objects.map((x) => ({ name: x.object.name, data: x.data })),
    );
    const iban = ibanOf(i);
    const payment = i % 5;
    const paymentMethod =
      payment === 0
        ? null
        : payment === 4
          ? { type: 'invoice' }
          : { type: 'sepa', sepa: { iban, holderName } };
    const bankAccount = paymentMethod?.type === 'sepa' ? { iban } : null;

    // One to three versions: the last steps of the lead's path; a path shorter than that starts
    // with edits of the data in its first status.
    const status = STATUS_BY_SLOT[i % 20]!;
    const path = PATHS[status]!;
    const revisions = 1 + (i % 3);
    const steps = [
      ...Array<string>(Math.max(0, revisions - path.length)).fill(path[0]!),
      ...path,
    ].slice(-revisions);
    let customData: Record<string, string> = { source: SOURCES[i % SOURCES.length]! };
    let updatedMs = createdMs;
    const row = {
      id: leadId,
      code,
      lead_number: number,
      account_code: account?.code ?? null,
      product_id: tariff.product_id,
      product_version_id: tariff.id,
      product_name: product.name,
      product_slug: product.slug,
      policy,
      bank_account: bankAccount,
      payment_method: paymentMethod,
      premium_override: null,
      premium,
      created_at: new Date(createdMs),
      created_by: 'system',
      updated_by: 'system',
    };
    for (const [v, step] of steps.entries()) {
      const revision = v + 1;
      const statusChanged = v > 0 && step !== steps[v - 1];
      if (v > 0 && !statusChanged) {
        customData = { ...customData, note: NOTES[(i + v) % NOTES.length]! };
      }
      updatedMs = createdMs + v * 2 * DAY_MS + ((i * 5) % 7) * 3_600_000;
      const snapshot = leadCore(slug, {
        ...row,
        status: step,
        custom_data: customData,
        version: revision,
        updated_at: new Date(updatedMs),
      });
      versions.push({
        lead: leadId,
        revision,
        status: step,
        // A PostgreSQL array literal: one cast per row instead of a subquery.
        changed: v === 0 ? '{created}' : statusChanged ? '{status}' : '{customData}',
        snapshot: JSON.stringify(snapshot),
        created: new Date(updatedMs).toISOString(),
      });
    }
    leads.push({
      id: leadId,
      code,
      number,
      status,
      account: account?.code ?? null,
      product: tariff.product_id,
      version: tariff.id,
      policy: JSON.stringify(policy),
      bank: bankAccount ? JSON.stringify(bankAccount) : null,
      payment: paymentMethod ? JSON.stringify(paymentMethod) : null,
      custom: JSON.stringify(customData),
      premium: JSON.stringify(premium),
      revision: steps.length,
      created: new Date(createdMs).toISOString(),
      updated: new Date(updatedMs).toISOString(),
    });

    const document = (
      kind: string,
      description: string,
      filename: string,
      type: string,
      at: number,
    ) => {
      documentId += 1;
      documents.push({
        id: documentId,
        code: stableCode('doc', `${slug}:lead:${i}:${kind}`),
        entity: code,
        lead: code,
        description,
        type,
        filename,
        key: `${slug}/leads/${code}/${filename}`,
        requester: kind === 'id' ? 'customer' : 'insuranceservice',
        created: new Date(at).toISOString(),
      });
    };
    if (i % 9 === 0) {
      document(
        'id',
        'Identity document',
        `id-card-${number}.jpg`,
        'image/jpeg',
        createdMs + 3_600_000,
      );
    }
    if (path.includes('quoted')) {
      document('quote', 'Quote', `quote-${number}.pdf`, 'application/pdf', createdMs + DAY_MS);
    }
    if (path.includes('approved')) {
      document(
        'application',
        'Signed application',
        `application-${number}-signed.pdf`,
        'application/pdf',
        createdMs + 2 * DAY_MS,
      );
    }
  }

  const l = leads.data;
  await tx.query(
    `INSERT INTO leads (id, tenant_id, code, lead_number, status, account_code, product_id,
                        product_version_id, policy, bank_account, payment_method, custom_data,
                        premium, version, created_at, updated_at)
     SELECT id, $1, c, n, s, a, p, v, po::jsonb, b::jsonb, pm::jsonb, cu::jsonb, pr::jsonb, r, cr, up
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[],
                   $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::int[],
                   $15::timestamptz[], $16::timestamptz[])
         AS x(id, c, n, s, a, p, v, po, b, pm, cu, pr, r, cr, up)`,
    [
      tenantId,
      l.id,
      l.code,
      l.number,
      l.status,
      l.account,
      l.product,
      l.version,
      l.policy,
      l.bank,
      l.payment,
      l.custom,
      l.premium,
      l.revision,
      l.created,
      l.updated,
    ],
  );
  const lv = versions.data;
  await tx.query(
    `INSERT INTO lead_versions (tenant_id, lead_id, version, status, changed_fields, snapshot,
                                created_at)
     SELECT $1, le, r, s, ch::text[], sn::jsonb, cr
       FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
         AS x(le, r, s, ch, sn, cr)`,
    [tenantId, lv.lead, lv.revision, lv.status, lv.changed, lv.snapshot, lv.created],
  );
  const d = documents.data;
  await tx.query(
    `INSERT INTO documents (id, tenant_id, code, entity_type, entity_id, lead_code, description,
                            content_type, filename, s3_key, requester, created_at, updated_at)
     SELECT id, $1, c, $2, e, le, de, ty, f, k, rq, cr, cr
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::text[], $12::timestamptz[])
         AS x(id, c, e, le, de, ty, f, k, rq, cr)`,
    [
      tenantId,
      LEAD_ENTITY_TYPE,
      d.id,
      d.code,
      d.entity,
      d.lead,
      d.description,
      d.type,
      d.filename,
      d.key,
      d.requester,
      d.created,
    ],
  );
  await moveSequencesPast(tx, ['leads', 'documents']);
}

/**
 * Gives every workspace without lead statuses the default statuses and rules, and the demo
 * workspaces without leads their leads and lead documents. After products and customers, so that
 * a data directory seeded before migration 007 gets them too.
 */
export async function seedLeadsStep(db: Db, logger: Logger, clock: Clock): Promise<boolean> {
  const firstCreatedMs = FIRST_CREATED + seedShiftMs(clock.now());
  const seeded = await seedWorkspaces(db, logger, {
    name: 'leads',
    configTable: 'lead_statuses',
    configure: (tx, t) => leadWorkflow.seedDefaults(tx, t.id, t.slug),
    recordTable: 'leads',
    counts: COUNTS,
    populate: (tx, t, count) => seedLeads(tx, t.id, t.slug, count, firstCreatedMs),
  });
  return seeded;
}
