import { describe, expect, it } from 'vitest';
import { withSandbox, serviceCalls } from '#tests/support/sandbox.ts';
import { pdfPages } from '#tests/support/pdf.ts';

// Document layouts and templates in the sandbox (issue 19; docs/contracts.md "Document
// templates"): the spec's CRUD with paging, expand, filter, order and search; sources checked at
// save with line and column; isolation and permissions; the preview printed to a real PDF.
const D = '/documentservice/v1';
const kit = withSandbox({
  admin: 'admin@demo.test',
  manager: 'manager@demo.test',
  viewer: 'viewer@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, manager, viewer, nord } = kit.sessions;
const docs = serviceCalls(kit, D);

interface Layout {
  id: number;
  code: string;
  name: string;
  isDefault: boolean;
  headerTemplate?: string;
  footerTemplate?: string;
}
interface DocTemplate {
  id: number;
  code: string;
  slug: string;
  name: string;
  kind: string;
  layoutId: number | null;
  bodyTemplate?: string;
  version: number;
  isSystem: boolean;
  updatedByName: string | null;
}

/** A PDF route's bytes (the JSON helper reads text). */
async function pdf(session: typeof admin, route: string, body?: unknown) {
  const res = await fetch(kit.base + D + route, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${session.accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

const normal = (text: string) => text.replace(/\u00a0/g, ' ');

describe('the seeded layout and policy schedule', () => {
  it('gives every workspace a standard layout and a German policy schedule, once', async () => {
    const layouts = await docs.call(manager, '/layouts');
    expect(layouts.status).toBe(200);
    expect(layouts.body.items).toEqual([
      expect.objectContaining({ name: 'Standard', isDefault: true }),
    ]);
    // Without expand the sources stay out of the list; with it they are there.
    expect(layouts.body.items[0].headerTemplate).toBeUndefined();
    const expanded = await docs.call(manager, '/layouts?expand=headerTemplate,footerTemplate');
    expect(expanded.body.items[0].headerTemplate).toContain('{{ tenant.name }}');
    expect(expanded.body.items[0].footerTemplate).toContain('class="totalPages"');
    const templates = await docs.call(manager, '/doc-templates?expand=bodyTemplate');
    // The policy schedule, the claim acknowledgement and the invoice (issuers.ts).
    const system = (slug: string, name: string, kind: string) =>
      expect.objectContaining({
        slug,
        name,
        kind,
        isSystem: true,
        layoutId: layouts.body.items[0].id,
      });
    // Then the IPID and the static documents (decision 020).
    expect(templates.body.items).toEqual([
      system('policy-schedule', 'Versicherungsschein', 'policy'),
      system('claim-acknowledgement', 'Schadenbestätigung', 'claim'),
      system('invoice', 'Rechnung', 'invoice'),
      system('ipid', 'Produktinformationsblatt (IPID)', 'ipid'),
      system('terms', 'Allgemeine Geschäftsbedingungen', 'terms'),
      system('privacy-notice', 'Datenschutzhinweise', 'static'),
      system('complaints', 'Beschwerden und Schlichtung', 'mediation'),
    ]);
    expect(templates.body.items[0].bodyTemplate).toContain('Versicherte Gegenstände');
    // The other workspace has its own.
    const theirs = await docs.call(nord, '/doc-templates');
    expect(theirs.body.items).toHaveLength(7);
    expect(theirs.body.items[0].code).not.toBe(templates.body.items[0].code);
    // The seed runs at each start and adds nothing twice.
    await kit.restart();
    const again = await docs.call(kit.sessions.manager, '/doc-templates');
    expect(again.body.totalItems).toBe(7);
  });

  it('prints the policy schedule preview with the sample, umlauts, Polish letters and page x of y', async () => {
    const [schedule] = (await docs.call(manager, '/doc-templates')).body.items as DocTemplate[];
    const res = await pdf(manager, `/doc-templates/${schedule!.id}/preview`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    const text = normal((await pdfPages(res.bytes)).join('\n'));
    expect(text).toContain('Versicherungsschein');
    expect(text).toContain('Jürgen Wałęsa-Öztürk');
    expect(text).toContain('POL-001995');
    expect(text).toContain('488,72 €');
    expect(text).toContain('Versicherte Gegenstände');
    expect(text).toContain('Demo');
    expect(text).toMatch(/Seite 1 von \d/);
  });
});

describe('layouts', () => {
  it('creates, reads, changes and deletes a layout, in the activity log by name', async () => {
    const created = await docs.send(admin, 'POST', '/layouts', {
      name: 'Briefbogen Süd',
      headerTemplate: '<b>{{ tenant.name }}</b> – {{ title }}',
      footerTemplate: 'S. <span class="pageNumber"></span>/<span class="totalPages"></span>',
    });
    expect(created.status).toBe(201);
    const layout = created.body.layout as Layout;
    expect(layout).toMatchObject({ name: 'Briefbogen Süd', isDefault: false });
    const byId = await docs.call(admin, `/layouts/${layout.id}`);
    expect(byId.body.layout.headerTemplate).toContain('{{ title }}');
    const changed = await docs.send(admin, 'PUT', `/layouts/${layout.id}`, {
      name: 'Briefbogen Nord',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.layout).toMatchObject({
      name: 'Briefbogen Nord',
      updatedByName: expect.any(String),
    });
    const twice = await docs.send(admin, 'POST', '/layouts', {
      name: 'Briefbogen Nord',
      headerTemplate: '',
      footerTemplate: '',
    });
    expect(twice.status).toBe(409);
    // Oldest first (spec, section 9): the standard layout, then this one.
    const list = await docs.call(admin, '/layouts');
    expect(list.body.items.map((l: Layout) => l.name)).toEqual(['Standard', 'Briefbogen Nord']);
    const standard = list.body.items[0] as Layout;
    expect((await docs.send(admin, 'DELETE', `/layouts/${standard.id}`)).status).toBe(409);
    expect((await docs.send(admin, 'DELETE', `/layouts/${layout.id}`)).status).toBe(204);
    expect((await docs.call(admin, `/layouts/${layout.id}`)).status).toBe(404);
    const log = await kit.db().query<{ action: string; entity_label: string; actor_name: string }>(
      `SELECT action, entity_label, actor_name FROM audit_events
        WHERE entity_type = 'document_layout' AND entity_id = $1 ORDER BY id`,
      [layout.code],
    );
    expect(log.map((e) => e.action)).toEqual(['created', 'updated', 'deleted']);
    expect(log[0]!.actor_name).toBeTruthy();
  });

  it('refuses a header with an unknown variable at its line and column', async () => {
    const res = await docs.send(admin, 'POST', '/layouts', {
      name: 'Kaputt',
      headerTemplate: '<b>{{ tenant.name }}</b>\n{{ policy.number }}',
      footerTemplate: '',
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      {
        path: 'headerTemplate',
        code: 'unknown_variable',
        line: 2,
        column: 4,
        name: 'policy.number',
      },
    ]);
  });
});

describe('doc-templates', () => {
  const body = (n: number) =>
    `<h1>Rechnung {{ invoice.number }}</h1><p>Nr. ${n}: {{ invoice.totalCents | money }}</p>`;

  it('creates templates and lists them by page, filter id, order id ASC/DESC, search and expand', async () => {
    const made: DocTemplate[] = [];
    for (const n of [1, 2, 3]) {
      const res = await docs.send(manager, 'POST', '/doc-templates', {
        slug: `rechnung-${n}`,
        name: `Rechnung Variante ${n}`,
        kind: 'invoice',
        bodyTemplate: body(n),
      });
      expect(res.status).toBe(201);
      made.push(res.body.template);
    }
    expect(made[0]).toMatchObject({ version: 1, layoutId: null, kind: 'invoice' });
    const page1 = await docs.call(manager, '/doc-templates?pageSize=3&order=id%20ASC');
    expect(page1.body.totalItems).toBe(10);
    expect(page1.body.items).toHaveLength(3);
    expect(page1.body.items[0].bodyTemplate).toBeUndefined();
    const page2 = await docs.call(
      manager,
      `/doc-templates?pageSize=3&order=id%20ASC&pageToken=${page1.body.nextPageToken}`,
    );
    const ascending = [...page1.body.items, ...page2.body.items].map((t: DocTemplate) => t.id);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = await docs.call(manager, '/doc-templates?order=id%20DESC&pageSize=6');
    const newest = descending.body.items.map((t: DocTemplate) => t.id) as number[];
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    expect(newest[0]).toBe(made[2]!.id);
    const one = await docs.call(
      manager,
      `/doc-templates?filter=${encodeURIComponent(`id=${made[1]!.id}`)}&expand=bodyTemplate`,
    );
    expect(one.body.items).toEqual([
      expect.objectContaining({ id: made[1]!.id, bodyTemplate: body(2) }),
    ]);
    const found = await docs.call(manager, '/doc-templates?search=Variante');
    expect(found.body.items).toHaveLength(3);
    expect((await docs.call(manager, '/doc-templates?order=bogus%20ASC')).status).toBe(400);
    const twice = await docs.send(manager, 'POST', '/doc-templates', {
      slug: 'rechnung-1',
      name: 'Noch eine',
      kind: 'invoice',
      bodyTemplate: '',
    });
    expect(twice.status).toBe(409);
  });

  it('versions a change by name and time, and deletes what is not the system template', async () => {
    const created = await docs.send(manager, 'POST', '/doc-templates', {
      name: 'Schadenbestätigung',
      kind: 'claim',
      bodyTemplate: '<p>Schaden {{ claim.number }}</p>',
    });
    const t = created.body.template as DocTemplate;
    const same = await docs.send(manager, 'PUT', `/doc-templates/${t.id}`, {
      data: { bodyTemplate: '<p>Schaden {{ claim.number }}</p>' },
    });
    expect(same.body.template.version).toBe(1);
    const changed = await docs.send(manager, 'PUT', `/doc-templates/${t.code}`, {
      data: { bodyTemplate: '<p>Schaden {{ claim.number }} vom {{ claim.dateOfLoss | day }}</p>' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.template.version).toBe(2);
    const versions = await docs.call(manager, `/doc-templates/${t.id}/versions`);
    expect(versions.body.items.map((x: { version: number }) => x.version)).toEqual([2, 1]);
    expect(versions.body.items[0].savedByName).toBeTruthy();
    expect((await docs.send(manager, 'DELETE', `/doc-templates/${t.id}`)).status).toBe(204);
    expect((await docs.call(manager, `/doc-templates/${t.id}`)).status).toBe(404);
    const schedule = (await docs.call(manager, '/doc-templates?filter=slug%3Dpolicy-schedule')).body
      .items[0] as DocTemplate;
    expect((await docs.send(manager, 'DELETE', `/doc-templates/${schedule.id}`)).status).toBe(409);
    const log = await kit.db().query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'doc_template' AND entity_id = $1
        ORDER BY id`,
      [t.code],
    );
    expect(log.map((e) => e.action)).toEqual(['created', 'updated', 'deleted']);
  });

  it('refuses a syntax error, an unknown variable and a loop over a non-list at line and column', async () => {
    const post = (bodyTemplate: string) =>
      docs.send(manager, 'POST', '/doc-templates', {
        name: 'Fehler',
        kind: 'policy',
        bodyTemplate,
      });
    const syntax = await post('<h1>Versicherungsschein</h1>\n<p>{{ policy.number }</p>');
    expect(syntax.status).toBe(400);
    expect(syntax.body.issues).toEqual([
      expect.objectContaining({ path: 'bodyTemplate', code: 'syntax_error', line: 2, column: 4 }),
    ]);
    const unknown = await post('<p>\n  {{ policy.holder.iban }}</p>');
    expect(unknown.body.issues).toEqual([
      {
        path: 'bodyTemplate',
        code: 'unknown_variable',
        line: 2,
        column: 6,
        name: 'policy.holder.iban',
      },
    ]);
    const loop = await post('{% for x in policy.number %}{{ x }}{% endfor %}');
    expect(loop.body.issues).toEqual([
      expect.objectContaining({ code: 'not_a_list', name: 'policy.number', line: 1, column: 1 }),
    ]);
    const item = await post('{% for o in policy.insuredObjects %}\n{{ o.price }}{% endfor %}');
    expect(item.body.issues).toEqual([
      expect.objectContaining({ code: 'unknown_variable', name: 'o.price', line: 2, column: 4 }),
    ]);
    expect((await docs.call(manager, '/doc-templates?search=Fehler')).body.items).toEqual([]);
  });

  it('previews unsaved sources as a PDF with the kind’s sample record', async () => {
    const res = await pdf(manager, '/doc-templates/preview', {
      kind: 'policy',
      name: 'Test',
      bodyTemplate:
        '<p>Kunde: {{ policy.holder.name }}</p>{% for i in policy.premiumItems %}<p>{{ i.name }} {{ i.amountCents | money }}</p>{% endfor %}',
    });
    expect(res.status).toBe(200);
    const [page] = await pdfPages(res.bytes);
    expect(normal(page!)).toContain('Kunde: Jürgen Wałęsa-Öztürk');
    expect(normal(page!)).toContain('Haftpflicht 312,40 €');
    const refused = await docs.send(manager, 'POST', '/doc-templates/preview', {
      kind: 'policy',
      bodyTemplate: '{{ nope }}',
    });
    expect(refused.status).toBe(400);
  });
});

describe('isolation and permissions', () => {
  it('keeps a workspace from the other workspace’s layouts and templates', async () => {
    const mine = (await docs.call(manager, '/doc-templates')).body.items[0] as DocTemplate;
    const layout = (await docs.call(manager, '/layouts')).body.items[0] as Layout;
    expect((await docs.call(nord, `/doc-templates/${mine.id}`)).status).toBe(404);
    expect((await docs.call(nord, `/doc-templates/${mine.code}`)).status).toBe(404);
    expect((await docs.call(nord, `/layouts/${layout.id}`)).status).toBe(404);
    expect(
      (await docs.send(nord, 'PUT', `/doc-templates/${mine.id}`, { data: { name: 'x' } })).status,
    ).toBe(404);
    expect((await docs.send(nord, 'DELETE', `/layouts/${layout.id}`)).status).toBe(404);
    const theirs = await docs.call(
      nord,
      `/doc-templates?filter=${encodeURIComponent(`id=${mine.id}`)}`,
    );
    expect(theirs.body.items).toEqual([]);
    // Nor may a template of theirs take our layout.
    const borrowed = await docs.send(nord, 'POST', '/doc-templates', {
      name: 'Fremd',
      kind: 'policy',
      layoutId: layout.id,
      bodyTemplate: '',
    });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.issues).toEqual([{ path: 'layoutId', code: 'unknown_layout' }]);
  });

  it('refuses a user without document-management.templates', async () => {
    expect(viewer.permissions).not.toContain('document-management.templates');
    expect((await docs.call(viewer, '/layouts')).status).toBe(403);
    expect((await docs.call(viewer, '/doc-templates')).status).toBe(403);
    expect(
      (
        await docs.send(viewer, 'POST', '/doc-templates', {
          name: 'x',
          kind: 'policy',
          bodyTemplate: '',
        })
      ).status,
    ).toBe(403);
    expect((await api403(viewer)).status).toBe(403);
  });
});

const api403 = (session: typeof viewer) =>
  pdf(session, '/doc-templates/preview', { kind: 'policy', bodyTemplate: '' });
