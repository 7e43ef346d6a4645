import { describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { api } from '#server/sandbox/testing.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

// E-mail layouts and notification templates in the sandbox (issue 19; docs/contracts.md
// "Notification templates"): checked at save with line and column, versioned by who and when,
// used by the e-mails the sandbox sends itself.
const N = '/notificationservice/v1';
const clock = new MovableClock();
const kit = withSandbox(
  {
    admin: 'admin@demo.test',
    manager: 'manager@demo.test',
    viewer: 'viewer@demo.test',
    nord: 'admin@nordlicht.test',
  },
  { clock },
);
const { admin, manager, viewer, nord } = kit.sessions;
const notifications = serviceCalls(kit, N);

interface Template {
  code: string;
  slug: string;
  kind: string;
  version: number;
  isSystem: boolean;
  bodies: Record<'de' | 'en' | 'pl', { subject: string; html: string; text: string }>;
}

async function templateBySlug(session: typeof admin, slug: string): Promise<Template> {
  const res = await notifications.call(
    session,
    `/notification-templates?filter=${encodeURIComponent(`slug=${slug}`)}`,
  );
  expect(res.status).toBe(200);
  expect(res.body.items).toHaveLength(1);
  return res.body.items[0];
}

const put = (session: typeof admin, code: string, data: unknown) =>
  notifications.call(session, `/notification-templates/${code}`, { method: 'PUT', body: { data } });

describe('the system templates', () => {
  it('lists the e-mails the sandbox sends, in three languages, in the standard layout', async () => {
    const res = await notifications.call(manager, '/notification-templates?pageSize=50');
    expect(res.status).toBe(200);
    const slugs = res.body.items.map((t: Template) => t.slug);
    expect(slugs).toEqual(
      expect.arrayContaining([
        'user-invitation',
        'organization-invitation',
        'password-reset',
        'admin-password-reset',
        'welcome',
        'policy-terminated',
        'lead-follow-up',
      ]),
    );
    const layouts = await notifications.call(manager, '/layouts');
    expect(layouts.body.items).toEqual([
      expect.objectContaining({ name: 'Standard', isSystem: true }),
    ]);
    const one = await notifications.call(
      manager,
      `/notification-templates/${res.body.items[0].code}`,
    );
    expect(one.body.template.bodies.pl.subject).toBeTruthy();
    // Named as the sandbox named it: screens show the name in the reader's language.
    expect(one.body.template).toMatchObject({ isSystem: true, builtInName: true });
    expect(one.body.variables).toEqual(
      expect.arrayContaining([{ path: 'tenant.name', type: 'text' }]),
    );
  });

  it('keeps a name the workspace gave a system template as given', async () => {
    const welcome = await templateBySlug(admin, 'welcome');
    const renamed = await put(admin, welcome.code, { name: 'Willkommen bei uns' });
    expect(renamed.body.template).toMatchObject({
      name: 'Willkommen bei uns',
      isSystem: true,
      builtInName: false,
    });
  });

  it('refuses a template with a syntax error, an unknown variable, a loop over a non-list or a file tag, naming line and column', async () => {
    const invitation = await templateBySlug(admin, 'user-invitation');
    const bodies = (de: Partial<Template['bodies']['de']>) => ({
      ...invitation.bodies,
      de: { ...invitation.bodies.de, ...de },
    });
    const syntax = await put(admin, invitation.code, {
      bodies: bodies({ html: '<p>Hallo</p>\n<p>{{ link }</p>' }),
    });
    expect(syntax.status).toBe(400);
    expect(syntax.body.issues).toEqual([
      expect.objectContaining({ path: 'bodies.de.html', code: 'syntax_error', line: 2, column: 4 }),
    ]);
    const unknown = await put(admin, invitation.code, {
      bodies: bodies({ text: 'Hallo {{ policy.number }}' }),
    });
    expect(unknown.body.issues).toEqual([
      {
        path: 'bodies.de.text',
        code: 'unknown_variable',
        line: 1,
        column: 10,
        name: 'policy.number',
      },
    ]);
    const loop = await put(admin, invitation.code, {
      bodies: bodies({ text: '{% for x in link %}{{ x }}{% endfor %}' }),
    });
    expect(loop.body.issues).toEqual([
      expect.objectContaining({ code: 'not_a_list', name: 'link', line: 1, column: 1 }),
    ]);
    const include = await put(admin, invitation.code, {
      bodies: bodies({ html: '{% include "/etc/passwd" %}' }),
    });
    expect(include.body.issues).toEqual([
      expect.objectContaining({ code: 'tag_not_allowed', name: 'include' }),
    ]);
    // Nothing of it was saved.
    expect((await templateBySlug(admin, 'user-invitation')).version).toBe(invitation.version);
  });

  it('saves a new version by name and time, and the invitation e-mail uses it, values escaped', async () => {
    const invitation = await templateBySlug(admin, 'user-invitation');
    // Stamped by the sandbox's clock, moved a minute on here.
    clock.advance(60_000);
    const savedFrom = clock.now();
    const saved = await put(admin, invitation.code, {
      bodies: {
        ...invitation.bodies,
        de: {
          subject: 'Willkommen bei {{ tenant.name }}',
          html: '<h1>Hallo {{ recipient.email }}</h1><p><a href="{{ link }}">Los geht’s</a></p>',
          text: 'Hallo {{ recipient.email }}, hier entlang: {{ link }}',
        },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.template.version).toBe(invitation.version + 1);
    const versions = await notifications.call(
      admin,
      `/notification-templates/${invitation.code}/versions`,
    );
    expect(versions.body.items[0]).toMatchObject({
      version: invitation.version + 1,
      savedByName: expect.stringMatching(/\S/),
    });
    expect(Date.parse(versions.body.items[0].savedAt)).toBeGreaterThanOrEqual(savedFrom);
    expect(Date.parse(versions.body.items[0].savedAt)).toBeLessThan(savedFrom + 60_000);
    // The demo workspace speaks German: an invitation now reads as edited.
    const invite = await api(kit.base, '/tenantservice/v1/users/invites/batch', {
      token: admin.accessToken,
      body: { emails: ['tmpl-invite@example.test'], roleCodes: ['show-only'] },
    });
    expect(invite.status).toBe(200);
    const [mail] = await kit.db().query<{ subject: string; html: string | null; text: string }>(
      `SELECT subject, html, text FROM outbox_emails WHERE to_email = 'tmpl-invite@example.test'
          ORDER BY id DESC LIMIT 1`,
    );
    expect(mail?.subject).toBe('Willkommen bei Demo Versicherung AG');
    expect(mail?.html).toContain('<h1>Hallo tmpl-invite@example.test</h1>');
    expect(mail?.text).toMatch(/^Hallo tmpl-invite@example\.test, hier entlang: http/);
    // A preview escapes what a record holds; the text part keeps it as written.
    const preview = await notifications.call(admin, '/notification-templates/preview', {
      body: {
        kind: 'userInvitation',
        language: 'de',
        body: { subject: 'X', html: '<p>{{ recipient.email }}</p>', text: '{{ recipient.email }}' },
      },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.preview.html).toContain('<p>admin@demo.test</p>');
  });

  it('sends a test e-mail of a template to the caller only', async () => {
    const lead = await templateBySlug(manager, 'lead-follow-up');
    const sent = await notifications.call(
      manager,
      `/notification-templates/${lead.code}/test-mail`,
      {
        body: { language: 'pl' },
      },
    );
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({
      sentTo: 'manager@demo.test',
      subject: 'Kontakt w sprawie leada LEA-000412',
    });
  });
});

describe('custom templates and layouts', () => {
  it('creates a policy letter with a loop over its premium items and renders the sample', async () => {
    const letter = {
      de: {
        subject: 'Ihr Vertrag {{ policy.number }}',
        html: '<ul>{% for item in policy.premiumItems %}<li>{{ item.name }}: {{ item.amount }}</li>{% endfor %}</ul>',
        text: '{% for item in policy.premiumItems %}{{ item.name }}: {{ item.amount }}\n{% endfor %}',
      },
    };
    const created = await notifications.call(manager, '/notification-templates', {
      body: {
        slug: 'policy-letter',
        name: 'Vertragsbrief',
        kind: 'policy',
        bodies: { de: letter.de, en: letter.de, pl: letter.de },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.template).toMatchObject({
      isSystem: false,
      builtInName: false,
      version: 1,
    });
    const again = await notifications.call(manager, '/notification-templates', {
      body: { ...created.body.template, bodies: created.body.template.bodies },
    });
    expect(again.status).toBe(409);
    const preview = await notifications.call(manager, '/notification-templates/preview', {
      body: { kind: 'policy', language: 'de', body: letter.de },
    });
    expect(preview.body.preview.subject).toBe('Ihr Vertrag POL-001995');
    expect(preview.body.preview.text).toContain('Haftpflicht: 312,40 €');
    // An item's unknown member is refused too.
    const bad = await notifications.call(manager, '/notification-templates/preview', {
      body: {
        kind: 'policy',
        language: 'de',
        body: {
          ...letter.de,
          text: '{% for item in policy.premiumItems %}{{ item.price }}{% endfor %}',
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ code: 'unknown_variable', name: 'item.price' });
    const removed = await notifications.call(
      manager,
      `/notification-templates/${created.body.template.code}`,
      { method: 'DELETE' },
    );
    expect(removed.status).toBe(204);
  });

  it('refuses a layout without its body, and deleting one in use or the standard one', async () => {
    const missing = await notifications.call(manager, '/layouts', {
      body: { name: 'Ohne', html: '<div>{{ tenant.name }}</div>', text: '{{ content }}' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([
      expect.objectContaining({ path: 'html', code: 'missing_content' }),
    ]);
    const layout = await notifications.call(manager, '/layouts', {
      body: { name: 'Schlicht', html: '<main>{{ content }}</main>', text: '{{ content }}' },
    });
    expect(layout.status).toBe(201);
    const welcome = await templateBySlug(manager, 'welcome');
    expect((await put(manager, welcome.code, { layoutCode: layout.body.layout.code })).status).toBe(
      200,
    );
    const inUse = await notifications.call(manager, `/layouts/${layout.body.layout.code}`, {
      method: 'DELETE',
    });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe('layout_in_use');
    const standard = (await notifications.call(manager, '/layouts?pageSize=60')).body.items.find(
      (l: { isSystem: boolean }) => l.isSystem,
    );
    const system = await notifications.call(manager, `/layouts/${standard.code}`, {
      method: 'DELETE',
    });
    expect(system.status).toBe(409);
    const systemTemplate = await notifications.call(
      manager,
      `/notification-templates/${welcome.code}`,
      { method: 'DELETE' },
    );
    expect(systemTemplate.body.error).toBe('system_template');
  });

  it('keeps workspaces apart and needs the templates right', async () => {
    const demo = await templateBySlug(admin, 'welcome');
    const fromNord = await notifications.call(nord, `/notification-templates/${demo.code}`);
    expect(fromNord.status).toBe(404);
    expect((await put(nord, demo.code, { name: 'Gekapert' })).status).toBe(404);
    // Nordlicht has its own system templates.
    expect((await templateBySlug(nord, 'welcome')).code).not.toBe(demo.code);
    expect((await notifications.call(viewer, '/notification-templates')).status).toBe(403);
    expect((await put(viewer, demo.code, { name: 'X' })).status).toBe(403);
  });
});
