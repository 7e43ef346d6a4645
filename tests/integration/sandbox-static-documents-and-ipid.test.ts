import { describe, expect, it } from 'vitest';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import { pdfPages } from '#tests/support/pdf.ts';

// Static documents and the IPID (issue 19, docs/decisions/020-static-documents-and-ipid.md)
// against the real sandbox: a record-less template published under its key, printed once per
// publication and served by GET documents/download-static/{key} (older versions by number), a
// record variable refused, permissions and workspaces kept apart; and a product version that
// goes live getting its product information sheet in the product's documents.
const D = '/documentservice/v1';
const kit = withSandbox({
  manager: 'manager@demo.test',
  viewer: 'viewer@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
});
const { manager, viewer, noui, nord } = kit.sessions;
const docs = serviceCalls(kit, D);
const insurance = serviceCalls(kit, '/insuranceservice/v1');

interface Listed {
  key: string;
  name: string;
  kind: string;
  publishedVersion: number | null;
  publishedByName: string | null;
}
interface Published {
  key: string;
  version: number;
  templateVersion: number;
  filename: string;
  publishedByName: string;
}

async function download(session: typeof manager, route: string) {
  const res = await fetch(kit.base + D + route, {
    headers: { authorization: `Bearer ${session.accessToken}` },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes,
    text: async () => (await pdfPages(bytes)).join('\n').replace(/\u00a0/g, ' '),
  };
}

describe('static documents', () => {
  it('seeds terms, privacy notice and complaints, each published once, per workspace', async () => {
    const res = await docs.call(manager, '/static-documents');
    expect(res.status).toBe(200);
    const items = res.body.items as Listed[];
    expect(items.map((d) => [d.key, d.kind, d.publishedVersion])).toEqual([
      ['terms', 'terms', 1],
      ['privacy-notice', 'static', 1],
      ['complaints', 'mediation', 1],
    ]);
    // The seed's publication prints on its first download; the workspace's name is in it.
    const terms = await download(manager, '/documents/download-static/terms');
    expect(terms.status).toBe(200);
    expect(terms.type).toBe('application/pdf');
    expect(terms.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(terms.disposition).toMatch(/^attachment;/);
    const text = await terms.text();
    expect(text).toContain('Allgemeine Geschäftsbedingungen');
    // The other workspace has its own, naming itself.
    const theirs = await download(nord, '/documents/download-static/terms');
    expect(theirs.status).toBe(200);
    expect(await theirs.text()).not.toEqual(text);
    // A restart publishes nothing twice.
    await kit.restart();
    const again = await docs.call(kit.sessions.manager, '/static-documents');
    expect((again.body.items as Listed[]).map((d) => d.publishedVersion)).toEqual([1, 1, 1]);
  });

  it('publishes a new version on each publish; the newest is served, older ones by number', async () => {
    const created = await docs.send(manager, 'POST', '/doc-templates', {
      slug: 'widerruf',
      name: 'Widerrufsbelehrung',
      kind: 'rules',
      bodyTemplate: '<h1>Widerrufsbelehrung</h1><p>Erste Fassung der {{ tenant.name }}</p>',
    });
    expect(created.status).toBe(201);
    const template = created.body.template as { id: number; code: string };
    // Not published yet: listed without a version, nothing to download.
    const listed = (await docs.call(manager, '/static-documents')).body.items as Listed[];
    expect(listed.find((d) => d.key === 'widerruf')).toMatchObject({ publishedVersion: null });
    expect((await download(manager, '/documents/download-static/widerruf')).status).toBe(404);

    const first = await docs.send(manager, 'POST', '/static-documents/widerruf/publish');
    expect(first.status).toBe(201);
    expect(first.body.version).toMatchObject({ key: 'widerruf', version: 1, templateVersion: 1 });
    expect((first.body.version as Published).publishedByName).toBeTruthy();

    const changed = await docs.send(manager, 'PUT', `/doc-templates/${template.id}`, {
      bodyTemplate: '<h1>Widerrufsbelehrung</h1><p>Zweite Fassung</p>',
    });
    expect(changed.status).toBe(200);
    const second = await docs.send(manager, 'POST', '/static-documents/widerruf/publish');
    expect(second.body.version).toMatchObject({ version: 2, templateVersion: 2 });

    // Each publication is in the activity log, by name.
    const logged = await kit.db().query<{ action: string; actor_name: string; changes: unknown }>(
      `SELECT action, actor_name, changes FROM audit_events
        WHERE entity_type = 'doc_template' AND entity_id = $1 AND action = 'published'
        ORDER BY id`,
      [template.code],
    );
    expect(logged.map((e) => e.changes)).toEqual([
      [{ field: 'publishedVersion', before: null, after: 1 }],
      [{ field: 'publishedVersion', before: 1, after: 2 }],
    ]);
    expect(logged[0]!.actor_name).toBeTruthy();

    const newest = await download(manager, '/documents/download-static/widerruf');
    expect(newest.status).toBe(200);
    expect(await newest.text()).toContain('Zweite Fassung');
    const older = await download(manager, '/documents/download-static/widerruf?version=1');
    expect(await older.text()).toContain('Erste Fassung');
    expect((await download(manager, '/documents/download-static/widerruf?version=9')).status).toBe(
      404,
    );
    expect((await download(manager, '/documents/download-static/widerruf?version=x')).status).toBe(
      400,
    );

    const one = await docs.call(manager, '/static-documents/widerruf');
    expect(one.status).toBe(200);
    expect((one.body.versions as Published[]).map((v) => v.version)).toEqual([2, 1]);
    expect(one.body.staticDocument).toMatchObject({ publishedVersion: 2, templateVersion: 2 });

    // Deleting the template keeps what was published: nothing is hard-deleted.
    expect((await docs.send(manager, 'DELETE', `/doc-templates/${template.id}`)).status).toBe(204);
    const kept = await download(manager, '/documents/download-static/widerruf');
    expect(kept.status).toBe(200);
    expect(await kept.text()).toContain('Zweite Fassung');
  });

  it('refuses a record variable with line and column, and a template of a record', async () => {
    const refused = await docs.send(manager, 'POST', '/doc-templates', {
      slug: 'agb-mit-police',
      name: 'AGB mit Police',
      kind: 'terms',
      bodyTemplate: '<h1>AGB</h1>\n<p>{{ policy.number }}</p>',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      expect.objectContaining({ path: 'bodyTemplate', line: 2, column: expect.any(Number) }),
    ]);
    // A source saved before the kinds lost their record is refused when published.
    await kit.db().query(
      `UPDATE doc_templates SET body_template = '<p>{{ product.name }}</p>'
        WHERE slug = 'complaints'
          AND tenant_id = (SELECT id FROM tenants WHERE slug = 'demo')`,
    );
    const old = await docs.send(manager, 'POST', '/static-documents/complaints/publish');
    expect(old.status).toBe(400);
    expect(old.body.issues).toEqual([
      expect.objectContaining({
        path: 'bodyTemplate',
        code: 'unknown_variable',
        name: 'product.name',
        line: 1,
        column: 7,
      }),
    ]);
    // The policy schedule belongs to a policy: it is no static document.
    const schedule = await docs.send(manager, 'POST', '/static-documents/policy-schedule/publish');
    expect(schedule.status).toBe(409);
    expect(schedule.body.error).toBe('not_static');
    expect((await download(manager, '/documents/download-static/policy-schedule')).status).toBe(
      404,
    );
  });

  it('checks permissions and keeps workspaces apart', async () => {
    // The documents' readers download; only the templates' editors list and publish.
    expect((await download(viewer, '/documents/download-static/privacy-notice')).status).toBe(200);
    expect((await docs.call(viewer, '/static-documents')).status).toBe(403);
    expect((await docs.send(viewer, 'POST', '/static-documents/terms/publish')).status).toBe(403);
    expect((await download(noui, '/documents/download-static/terms')).status).toBe(403);
    // The other workspace's key is not there for this one.
    const theirs = await docs.send(nord, 'POST', '/doc-templates', {
      slug: 'nord-only',
      name: 'Nur Nordlicht',
      kind: 'static',
      bodyTemplate: '<p>Nordlicht</p>',
    });
    expect(theirs.status).toBe(201);
    expect((await docs.send(nord, 'POST', '/static-documents/nord-only/publish')).status).toBe(201);
    expect((await download(nord, '/documents/download-static/nord-only')).status).toBe(200);
    expect((await download(manager, '/documents/download-static/nord-only')).status).toBe(404);
    expect((await docs.send(manager, 'POST', '/static-documents/nord-only/publish')).status).toBe(
      404,
    );
    expect((await docs.call(manager, '/static-documents/nord-only')).status).toBe(404);
  });
});

interface ProductDoc {
  code: string;
  filename: string;
  description: string;
  requester: string;
  templateSlug: string | null;
  productVersionId: number | null;
}

async function ipidsOf(slug: string, count: number): Promise<ProductDoc[]> {
  for (let i = 0; i < 100; i++) {
    const res = await docs.call(manager, `/documents/product/${slug}`);
    expect(res.status).toBe(200);
    const items = (res.body.items as ProductDoc[]).filter((d) => d.templateSlug === 'ipid');
    if (items.length >= count) return items;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${count} IPID(s) of ${slug}`);
}

describe('the product information sheet (IPID)', () => {
  it('comes with the demo products and with a product version that goes live', async () => {
    const [product] = (
      await kit.db().query<{ id: number; slug: string; version_id: number; name: string }>(
        `SELECT p.id, p.slug, p.name, v.id AS version_id
           FROM products p JOIN tenants t ON t.id = p.tenant_id
           JOIN product_versions v ON v.product_id = p.id AND v.status = 'active'
          WHERE t.slug = 'demo' AND p.slug = 'car-comfort'`,
      )
    ).map((r) => r);
    expect(product).toBeDefined();
    // Seeded: the active version's IPID, by the document service.
    const seeded = await ipidsOf(product!.slug, 1);
    expect(seeded).toEqual([
      expect.objectContaining({
        requester: 'documentservice',
        productVersionId: product!.version_id,
      }),
    ]);

    // A new version, copied from the active one, goes live: its IPID follows.
    const created = await insurance.send(manager, 'POST', '/product-versions', {
      productId: product!.id,
      description: 'Tarif Sommer',
      copyFromVersionId: product!.version_id,
    });
    expect(created.status).toBe(201);
    const version = created.body.productVersion as { id: number; version: number };
    const live = await insurance.send(manager, 'PUT', `/product-versions/${version.id}`, {
      status: 'active',
    });
    expect(live.status).toBe(200);
    const both = await ipidsOf(product!.slug, 2);
    const fresh = both.find((d) => d.productVersionId === version.id)!;
    expect(fresh).toMatchObject({
      requester: 'documentservice',
      filename: `IPID-${product!.slug}-v${version.version}.pdf`,
    });
    expect(fresh.description).toContain(`Version ${version.version}`);

    // Downloadable as a PDF, printed on the first download.
    const address = await docs.call(
      manager,
      `/documents/product/${product!.slug}/${fresh.code}/download-url`,
    );
    expect(address.status).toBe(200);
    const res = await fetch(new URL(address.body.url as string, kit.base));
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfPages(bytes)).join('\n').replace(/\u00a0/g, ' ');
    expect(text).toContain('Produktinformationsblatt');
    expect(text).toContain(product!.name);
    expect(text).toContain(`Version ${version.version} – Tarif Sommer`);
    expect(text).toContain('Was ist versichert?');

    // The other workspace sees none of it.
    expect(
      (await docs.call(nord, `/documents/product/${product!.slug}`)).body.items ?? [],
    ).not.toEqual(expect.arrayContaining([expect.objectContaining({ code: fresh.code })]));
  });
});
