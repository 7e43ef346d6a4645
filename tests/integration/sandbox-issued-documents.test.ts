import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Db } from '#server/sandbox/platform/db.ts';
import { issueDocument } from '#server/sandbox/services/document/issued-documents.ts';
import { ISSUERS } from '#server/sandbox/services/document/issuers.ts';
import { policyScheduleFacts } from '#server/sandbox/services/insurance/index.ts';
import { isoToday } from '#common/claims.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import { pdfPages } from '#tests/support/pdf.ts';

// Documents the sandbox issues itself besides the policy schedule (issue 19): the claim
// acknowledgement when a claim is reported, the invoice when a user creates one. Each is listed
// with its record's documents, printed on its first download from what was kept when it was
// issued, once per record, and only in its own workspace.
const kit = withSandbox({
  admin: 'admin@demo.test',
  nord: 'admin@nordlicht.test',
  viewer: 'viewer@demo.test',
});
const { admin, nord, viewer } = kit.sessions;
const claims = serviceCalls(kit, '/claimservice/v1');
const billing = serviceCalls(kit, '/billingservice/v1');
const documents = serviceCalls(kit, '/documentservice/v1');

type Session = typeof admin;
interface Doc {
  code: string;
  entityType: string;
  entityId: string;
  policyCode: string | null;
  description: string;
  filename: string;
  requester: string;
  templateSlug: string | null;
  contentType: string;
  sizeBytes: number | null;
}

const ZONE = 'Europe/Berlin';
let policy: { code: string; policyNumber: string; startDay: string; holder: string };
let demoId: number;

beforeAll(async () => {
  const res = await kit
    .db()
    .query<{ code: string; policy_number: string; policy_start_date: Date }>(
      `SELECT p.code, p.policy_number, p.policy_start_date FROM policies p
         JOIN tenants t ON t.id = p.tenant_id
        WHERE t.slug = 'demo' AND p.status = 'ACTIVE' ORDER BY p.id LIMIT 1`,
    );
  const row = res[0]!;
  const [tenant] = await kit
    .db()
    .query<{ id: number }>("SELECT id FROM tenants WHERE slug = 'demo'");
  demoId = tenant!.id;
  const facts = await policyScheduleFacts(kit.db(), demoId, row.code);
  policy = {
    code: row.code,
    policyNumber: row.policy_number,
    startDay: isoToday(ZONE, new Date(row.policy_start_date)),
    holder: (facts!.values.holder as { name: string }).name,
  };
});

const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const filterOf = (filter: Record<string, string>) =>
  `filter=${encodeURIComponent(
    Object.entries(filter)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('&'),
  )}`;

/** A record's documents issued from `slug`, once the document service has heard the event. */
async function issuedOf(filter: Record<string, string>, slug: string, count = 1) {
  for (let i = 0; i < 100; i++) {
    const res = await documents.call(admin, `/documents?${filterOf(filter)}`);
    expect(res.status).toBe(200);
    const items = (res.body.items as Doc[]).filter((d) => d.templateSlug === slug);
    if (items.length >= count) return items;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${count} ${slug} document(s) for ${JSON.stringify(filter)}`);
}

async function download(session: Session, code: string): Promise<string> {
  const address = await documents.call(session, `/documents/${code}/download-url`);
  expect(address.status).toBe(200);
  const res = await fetch(new URL(address.body.url, kit.base));
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return (await pdfPages(bytes)).join('\n').replace(/\u00a0/g, ' ');
}

async function newClaim(title: string) {
  const res = await claims.send(admin, 'POST', '/claims', {
    policyCode: policy.code,
    title,
    description: 'Rohrbruch hinter der Wand; der Fußboden ist durchnässt.',
    damageDate: dayAfter(policy.startDay, 1),
    claimType: 'damage',
    customFields: { damageLocation: 'Berlin' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.claim as { id: number; code: string; claimNumber: string };
}

/** The claim documents panel's own filter (client/api/documents-client.ts). */
const ofClaim = (claim: { id: number }) => ({
  entityType: 'ClaimDocument',
  entityId: String(claim.id),
});

async function templateOf(slug: string) {
  const res = await documents.call(admin, `/doc-templates?${filterOf({ slug })}`);
  return res.body.items[0] as { id: number; code: string; isSystem: boolean };
}

/** A user's socket to the notification service, collecting its frames. */
async function socketOf(session: Session) {
  const socket = new WebSocket(
    `${kit.base.replace('http', 'ws')}/notificationservice/v1/ws?authToken=${session.accessToken}`,
  );
  const frames: Record<string, unknown>[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { frames, close: () => socket.close() };
}

describe('the claim acknowledgement', () => {
  it('is told to the workspace’s open sockets when issued, not to another workspace’s', async () => {
    const [mine, theirs] = await Promise.all([socketOf(admin), socketOf(nord)]);
    try {
      const claim = await newClaim('Leitungswasser im Keller');
      const [doc] = await issuedOf(ofClaim(claim), 'claim-acknowledgement');
      await expect
        .poll(() => mine.frames.filter((f) => f.kind === 'document.issued'))
        .toContainEqual({
          type: 'notification',
          kind: 'document.issued',
          code: doc!.code,
          entityType: 'ClaimDocument',
          entityId: String(claim.id),
          policyCode: policy.code,
        });
      expect(theirs.frames.filter((f) => f.kind === 'document.issued')).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('is issued when a claim is reported, listed with the claim’s documents, printed on download', async () => {
    const claim = await newClaim('Wasserschaden in der Küche');
    const [doc] = await issuedOf(ofClaim(claim), 'claim-acknowledgement');
    expect(doc).toMatchObject({
      entityType: 'ClaimDocument',
      entityId: String(claim.id),
      policyCode: policy.code,
      requester: 'documentservice',
      contentType: 'application/pdf',
      description: `Schadenbestätigung ${claim.claimNumber}`,
      filename: `Schadenbestätigung-${claim.claimNumber}.pdf`,
      sizeBytes: null,
    });
    const text = await download(admin, doc!.code);
    expect(policy.holder).not.toBe('');
    const printed = [
      ...['Schadenbestätigung', claim.claimNumber, policy.policyNumber, policy.holder],
      ...['Wasserschaden in der Küche', 'Fußboden', 'Wie es weitergeht'],
    ];
    for (const part of printed) expect(text).toContain(part);
    expect(text).toMatch(/Seite 1 von \d/);
    // Printed once: the size now says it is kept.
    const [kept] = await issuedOf(ofClaim(claim), 'claim-acknowledgement');
    expect(kept!.sizeBytes).toBeGreaterThan(0);
  });

  it('is issued once per claim, whatever the events say', async () => {
    const claim = await newClaim('Glasbruch');
    await issuedOf(ofClaim(claim), 'claim-acknowledgement');
    const issuer = ISSUERS.find((i) => i.template.slug === 'claim-acknowledgement')!;
    const event = { tenantId: demoId, entityCode: claim.code, by: 'system' };
    const again = await issueDocument(kit.db() as Db, issuer, event, new Date());
    expect(again).toBeNull();
    expect(await issuedOf(ofClaim(claim), 'claim-acknowledgement')).toHaveLength(1);
  });

  it('follows a change of the workspace’s template in the next one, not in one issued before', async () => {
    const before = await newClaim('Sturmschaden am Dach');
    const [earlier] = await issuedOf(ofClaim(before), 'claim-acknowledgement');
    const template = await templateOf('claim-acknowledgement');
    expect(template.isSystem).toBe(true);
    const changed = await documents.send(admin, 'PUT', `/doc-templates/${template.id}`, {
      data: { bodyTemplate: '<h1>Eingang bestätigt</h1><p>{{ claim.number }} – Grüße</p>' },
    });
    expect(changed.status).toBe(200);
    const after = await newClaim('Hagelschaden');
    const [later] = await issuedOf(ofClaim(after), 'claim-acknowledgement');
    const laterText = await download(admin, later!.code);
    expect(laterText).toContain('Eingang bestätigt');
    expect(laterText).toContain(after.claimNumber);
    // Issued before the change and first downloaded after it: as issued.
    const earlierText = await download(admin, earlier!.code);
    expect(earlierText).toContain('Wie es weitergeht');
    expect(earlierText).not.toContain('Eingang bestätigt');
    // A system template is changed, never deleted.
    const deleted = await documents.send(admin, 'DELETE', `/doc-templates/${template.id}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toBe('system_template');
  });
});

describe('the invoice', () => {
  const manual = (key: string) => ({
    body: {
      policyCode: policy.code,
      dueDate: '2026-12-31',
      invoiceItems: [
        { name: 'Mahngebühr', quantity: 1, pricePerUnit: 500, taxRate: 0 },
        { name: 'Zusatzleistung Übergabe', quantity: 3, pricePerUnit: 1999, taxRate: 19 },
      ],
    },
    headers: { 'Idempotency-Key': key },
  });

  it('is issued when a user creates one, listed with the invoice’s documents, in cents as money', async () => {
    const res = await billing.call(admin, '/invoices', manual('issued-invoice-1'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const invoice = res.body.invoice as { code: string; invoiceNumber: string };
    const [doc] = await issuedOf({ entityType: 'invoice', entityId: invoice.code }, 'invoice');
    expect(doc).toMatchObject({
      entityType: 'invoice',
      entityId: invoice.code,
      policyCode: policy.code,
      requester: 'documentservice',
      contentType: 'application/pdf',
      description: `Rechnung ${invoice.invoiceNumber}`,
      filename: `Rechnung-${invoice.invoiceNumber}.pdf`,
    });
    const text = await download(admin, doc!.code);
    const printed = [
      ...['Rechnung', invoice.invoiceNumber, policy.policyNumber, policy.holder],
      ...['Mahngebühr', 'Zusatzleistung Übergabe', '31.12.2026'],
      // 5,00 € untaxed; 3 x 19,99 € = 59,97 € net, 11,39 € tax: 64,97 € net, 76,36 € in all.
      ...['19,99 €', '64,97 €', '11,39 €', '76,36 €'],
    ];
    for (const part of printed) expect(text).toContain(part);

    // The same request again creates nothing, nor issues anything.
    const replay = await billing.call(admin, '/invoices', manual('issued-invoice-1'));
    expect(replay.status).toBe(200);
    const issuer = ISSUERS.find((i) => i.template.slug === 'invoice')!;
    const event = { tenantId: demoId, entityCode: invoice.code, by: 'system' };
    expect(await issueDocument(kit.db() as Db, issuer, event, new Date())).toBeNull();
    expect(
      await issuedOf({ entityType: 'invoice', entityId: invoice.code }, 'invoice'),
    ).toHaveLength(1);
  });

  it('is not issued for the billing run’s and the seed’s invoices', async () => {
    const [row] = await kit.db().query<{ issued: number; invoices: number }>(
      `SELECT (SELECT count(*)::int FROM documents WHERE template_slug = 'invoice') AS issued,
              (SELECT count(*)::int FROM invoices) AS invoices`,
    );
    expect(row!.invoices).toBeGreaterThan(100);
    // Only those made through POST /invoices in this file.
    expect(row!.issued).toBeLessThan(5);
  });
});

describe('isolation', () => {
  it('keeps another workspace from listing or downloading them', async () => {
    const claim = await newClaim('Einbruch im Keller');
    const [doc] = await issuedOf(ofClaim(claim), 'claim-acknowledgement');
    const theirs = await documents.call(nord, `/documents?${filterOf(ofClaim(claim))}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    expect((await documents.call(nord, `/documents/${doc!.code}/download-url`)).status).toBe(404);
    const [invoiceDoc] = await kit
      .db()
      .query<{ code: string; entity_id: string }>(
        "SELECT code, entity_id FROM documents WHERE template_slug = 'invoice' LIMIT 1",
      );
    const invoiceList = await documents.call(
      nord,
      `/documents?${filterOf({ entityType: 'invoice', entityId: invoiceDoc!.entity_id })}`,
    );
    expect(invoiceList.body.items).toEqual([]);
    expect((await documents.call(nord, `/documents/${invoiceDoc!.code}/download-url`)).status).toBe(
      404,
    );
    // Their own templates are theirs: the same slugs, other records.
    const mine = await templateOf('invoice');
    const other = await documents.call(nord, `/doc-templates?${filterOf({ slug: 'invoice' })}`);
    expect(other.body.items).toHaveLength(1);
    expect(other.body.items[0].code).not.toBe(mine.code);
  });
});

describe('issued on request', () => {
  it('issues a record’s document again from a chosen template of its kind, beside the first', async () => {
    const claim = await newClaim('Hagelschaden am Wintergarten');
    const [first] = await issuedOf(ofClaim(claim), 'claim-acknowledgement');
    // A template of the workspace's own, of the claim kind, with its own words.
    const created = await documents.send(admin, 'POST', '/doc-templates', {
      name: `Rückfrage ${Date.now().toString(36)}`,
      kind: 'claim',
      bodyTemplate: '<p>Rückfrage zu {{ claim.number }}: {{ claim.title }}</p>',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const own = created.body.template as { code: string; slug: string; name: string };
    const issued = await documents.send(admin, 'POST', `/doc-templates/${own.code}/issue`, {
      entityCode: claim.code,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    expect(issued.body).toMatchObject({ entityType: 'ClaimDocument', entityId: String(claim.id) });
    const [doc] = await issuedOf(ofClaim(claim), own.slug);
    expect(doc!.code).toBe(issued.body.code);
    expect(await download(admin, doc!.code)).toContain(
      `Rückfrage zu ${claim.claimNumber}: Hagelschaden am Wintergarten`,
    );
    // The system template again: a second acknowledgement, the first kept.
    const system = await templateOf('claim-acknowledgement');
    const again = await documents.send(admin, 'POST', `/doc-templates/${system.code}/issue`, {
      entityCode: claim.code,
    });
    expect(again.status).toBe(201);
    const both = await issuedOf(ofClaim(claim), 'claim-acknowledgement', 2);
    expect(both.map((d) => d.code)).toContain(first!.code);
  });

  it('refuses an unknown record, a reader, another workspace and a template of no record', async () => {
    const system = await templateOf('policy-schedule');
    const path = `/doc-templates/${system.code}/issue`;
    const unknown = await documents.send(admin, 'POST', path, { entityCode: 'pol_unknown' });
    expect(unknown.status).toBe(404);
    expect((await documents.send(admin, 'POST', path, {})).status).toBe(400);
    const read = await documents.send(viewer, 'POST', path, { entityCode: policy.code });
    expect(read.status).toBe(403);
    expect((await documents.send(nord, 'POST', path, { entityCode: policy.code })).status).toBe(
      404,
    );
    const terms = await documents.send(admin, 'POST', '/doc-templates', {
      name: `AGB ${Date.now().toString(36)}`,
      kind: 'terms',
      bodyTemplate: '<p>Allgemeine Bedingungen</p>',
    });
    expect(terms.status, JSON.stringify(terms.body)).toBe(201);
    const refused = await documents.send(
      admin,
      'POST',
      `/doc-templates/${terms.body.template.code}/issue`,
      {
        entityCode: policy.code,
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('not_issuable');
  });
});

describe('the editor’s preview with a real record', () => {
  it('prints the unsaved source with one of the workspace’s records, for who may read it', async () => {
    const claim = await newClaim('Sturm am Carport');
    const body = {
      kind: 'claim',
      name: 'Vorschau',
      bodyTemplate: '<p>Schaden {{ claim.number }}: {{ claim.title }}</p>',
    };
    const res = await fetch(`${kit.base}/documentservice/v1/doc-templates/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, entityCode: claim.code }),
    });
    expect(res.status).toBe(200);
    const text = (await pdfPages(Buffer.from(await res.arrayBuffer()))).join('\n');
    expect(text).toContain(`Schaden ${claim.claimNumber}: Sturm am Carport`);
    // Another workspace's claim is not there; a kind without records has none to print.
    const theirs = await documents.send(nord, 'POST', '/doc-templates/preview', {
      ...body,
      entityCode: claim.code,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.issues).toEqual([{ path: 'entityCode', code: 'not_found' }]);
    const terms = await documents.send(admin, 'POST', '/doc-templates/preview', {
      kind: 'terms',
      bodyTemplate: '<p>AGB</p>',
      entityCode: claim.code,
    });
    expect(terms.status).toBe(400);
    expect(terms.body.error).toBe('not_issuable');
  });
});

describe('the editor’s preview', () => {
  it('prints the claim acknowledgement and the invoice with their sample records', async () => {
    for (const [slug, expected] of [
      ['claim-acknowledgement', ['CLM-000042', 'Łódź-Süd', 'Jürgen Wałęsa-Öztürk']],
      ['invoice', ['INV-2026-004711', '488,50 €', '371,76 €', 'SEPA-Lastschrift']],
    ] as const) {
      // The claim acknowledgement's template was changed above: the seeded source, its version 1.
      const res = await fetch(`${kit.base}/documentservice/v1/doc-templates/preview`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          kind: slug === 'invoice' ? 'invoice' : 'claim',
          bodyTemplate: (await templateSource(slug)) ?? '',
        }),
      });
      expect(res.status).toBe(200);
      const text = (await pdfPages(Buffer.from(await res.arrayBuffer())))
        .join('\n')
        .replace(/\u00a0/g, ' ');
      for (const part of expected) expect(text).toContain(part);
    }
  });
});

/** The template's first (seeded) source. */
async function templateSource(slug: string): Promise<string | undefined> {
  const template = await templateOf(slug);
  const versions = await documents.call(admin, `/doc-templates/${template.id}/versions`);
  const items = versions.body.items as { version: number; bodyTemplate: string }[];
  return items.find((v) => v.version === 1)?.bodyTemplate;
}
