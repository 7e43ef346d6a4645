import { describe, expect, it } from 'vitest';
import { textOfDocx } from '#tests/support/docx.ts';
import { makeDocx } from '#server/sandbox/services/document/docx-templates.ts';
import { DOCX_CONTENT_TYPE } from '#common/contracts/docx-template.ts';
import { PRODUCT_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import { pdfPages } from '#tests/support/pdf.ts';

/**
 * Docx templates end to end against the real sandbox (issue 19, decision 019): the record is
 * written and its upload signed, the file goes to the sandbox's storage, reading the template
 * checks it, and it fills with a policy's facts as DOCX and as PDF. A broken file is refused
 * with its problems at paragraph and character; other workspaces and readers without the
 * template permissions get nothing.
 */

const kit = withSandbox(PRODUCT_USERS);
const { call, send } = serviceCalls(kit, '/documentservice/v1');
const { admin, manager, viewer, nord } = kit.sessions;

interface Upload {
  url: string;
  fields: Record<string, string>;
  docxTemplate: { code: string; status: string };
}

async function upload(p: Upload, bytes: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(p.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: DOCX_CONTENT_TYPE }), 'x.docx');
  return fetch(new URL(p.url, kit.base), { method: 'POST', body: form });
}

async function create(name: string, bytes: Uint8Array, entityType = 'policy') {
  const res = await send(admin, 'POST', '/docx-templates', {
    name,
    entityType,
    filename: `${name}.docx`,
  });
  expect(res.status).toBe(201);
  const signed = res.body as Upload;
  expect(signed.docxTemplate.status).toBe('pending');
  expect((await upload(signed, bytes)).status).toBeLessThan(300);
  return signed.docxTemplate.code;
}

async function render(session: typeof admin, code: string, body: unknown) {
  const res = await fetch(`${kit.base}/documentservice/v1/docx-templates/${code}/render`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${session.accessToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

async function firstPolicy(): Promise<{ code: string; policyNumber: string }> {
  const res = await serviceCalls(kit, '/insuranceservice/v1').call(
    admin,
    '/policies?pageSize=1&order=id:ASC',
  );
  expect(res.status).toBe(200);
  return (res.body.items as { code: string; policyNumber: string }[])[0]!;
}

describe('docx templates', () => {
  it('checks an uploaded template and fills it with a policy as DOCX and PDF', async () => {
    const code = await create(
      'Bestätigung',
      makeDocx([
        'Vertrag {policy.number} für {policy.holder.name}',
        '{#policy.premiumItems}Posten {name}: {amount}{/policy.premiumItems}',
        'Łódź Straße {tenant.name}',
      ]),
    );
    const read = await call(admin, `/docx-templates/${code}`);
    expect(read.status).toBe(200);
    expect(read.body.docxTemplate).toMatchObject({
      code,
      status: 'ready',
      entityType: 'policy',
      filename: 'Bestätigung.docx',
      tags: expect.arrayContaining(['policy.number', 'policy.premiumItems', 'name']),
      createdByName: expect.any(String),
    });
    const listed = await call(manager, '/docx-templates?pageSize=50&order=createdAt:DESC');
    expect(listed.status).toBe(200);
    expect((listed.body.items as { code: string }[]).map((t) => t.code)).toContain(code);

    const policy = await firstPolicy();
    const docx = await render(admin, code, { entityType: 'policy', entityId: policy.code });
    expect(docx.status).toBe(200);
    expect(docx.type).toBe(DOCX_CONTENT_TYPE);
    expect(docx.disposition).toContain('attachment');
    const text = textOfDocx(docx.bytes);
    expect(text).toContain(`Vertrag ${policy.policyNumber} für`);
    expect(text).not.toContain('{');

    const pdf = await render(admin, code, {
      entityType: 'policy',
      entityId: policy.code,
      format: 'pdf',
    });
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const pages = (await pdfPages(pdf.bytes)).join(' ');
    expect(pages).toContain(policy.policyNumber);
    expect(pages).toContain('Łódź');

    // The original downloads byte for byte from the store, as an attachment.
    const address = await call(manager, `/docx-templates/${code}/download-url`);
    expect(address.status).toBe(200);
    const original = await fetch(new URL((address.body as { url: string }).url, kit.base));
    expect(original.status).toBe(200);
    expect(original.headers.get('content-disposition')).toContain('attachment');

    // Unknown records and another entity are refused clearly.
    expect((await render(admin, code, { entityId: 'pol_nope' })).status).toBe(404);
    expect((await render(admin, code, { entityType: 'claim', entityId: policy.code })).status).toBe(
      400,
    );
  }, 60_000);

  it('fills a claim template with the claim and its policy', async () => {
    const code = await create(
      'Schadenbrief',
      makeDocx(['Schaden {claim.number}: {claim.title}', 'Police {policy.number}']),
      'claim',
    );
    expect((await call(admin, `/docx-templates/${code}`)).body.docxTemplate.status).toBe('ready');
    const claims = await serviceCalls(kit, '/claimservice/v1').call(admin, '/claims?pageSize=1');
    const claim = (claims.body.items as { code: string; claimNumber: string; title: string }[])[0]!;
    const docx = await render(admin, code, { entityType: 'claim', entityId: claim.code });
    expect(docx.status).toBe(200);
    expect(textOfDocx(docx.bytes)).toContain(`Schaden ${claim.claimNumber}: ${claim.title}`);
    expect(textOfDocx(docx.bytes)).toMatch(/Police POL-\d+/);
  });

  it('refuses a broken template with its tag, paragraph and character', async () => {
    const code = await create(
      'Kaputt',
      makeDocx(['Guten Tag', 'Vertrag {policy.nummer} vom {policy.startDate}', 'Ende {/schleife}']),
    );
    const read = await call(admin, `/docx-templates/${code}`);
    expect(read.status).toBe(422);
    expect(read.body.error).toBe('template_refused');
    expect(read.body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'file', code: 'unopened_loop', name: 'schleife', line: 3 }),
      ]),
    );
    // Compiles, but names a variable the policy does not have.
    const unknown = await create('Unbekannt', makeDocx(['Hallo', 'Vertrag {policy.nummer}']));
    const refused = await call(admin, `/docx-templates/${unknown}`);
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([
      { path: 'file', code: 'unknown_tag', name: 'policy.nummer', line: 2, column: 9 },
    ]);
    // Refused templates are not listed, not downloadable and not fillable.
    const listed = await call(admin, '/docx-templates?pageSize=100');
    expect((listed.body.items as { code: string }[]).map((t) => t.code)).not.toContain(unknown);
    expect((await call(admin, `/docx-templates/${unknown}/download-url`)).status).toBe(422);
    // Not a Word file at all: the storage refuses bytes that are no zip.
    const res = await send(admin, 'POST', '/docx-templates', {
      name: 'Text',
      entityType: 'policy',
      filename: 'text.docx',
    });
    expect((await upload(res.body as Upload, new TextEncoder().encode('hello world'))).status).toBe(
      400,
    );
    // A name that is no .docx is refused before anything is signed.
    const wrong = await send(admin, 'POST', '/docx-templates', {
      name: 'Bild',
      entityType: 'policy',
      filename: 'bild.png',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'filename', code: 'not_docx' }]);
  });

  it('keeps templates in their workspace and behind the template permissions', async () => {
    const code = await create('Geheim', makeDocx(['{policy.number}']));
    expect((await call(admin, `/docx-templates/${code}`)).status).toBe(200);
    // Another workspace: neither read, nor download, nor fill, nor delete, nor list.
    expect((await call(nord, `/docx-templates/${code}`)).status).toBe(404);
    expect((await call(nord, `/docx-templates/${code}/download-url`)).status).toBe(404);
    expect((await render(nord, code, { entityId: 'pol_x' })).status).toBe(404);
    expect((await send(nord, 'DELETE', `/docx-templates/${code}`)).status).toBe(404);
    const theirs = await call(nord, '/docx-templates?pageSize=100');
    expect((theirs.body.items as { code: string }[]).map((t) => t.code)).not.toContain(code);
    // A user without document-management.templates: no list, read, download, fill or change.
    expect(viewer.permissions).not.toContain('document-management.templates.view');
    expect((await call(viewer, '/docx-templates')).status).toBe(403);
    expect((await call(viewer, `/docx-templates/${code}`)).status).toBe(403);
    expect((await call(viewer, `/docx-templates/${code}/download-url`)).status).toBe(403);
    expect((await render(viewer, code, { entityId: 'pol_x' })).status).toBe(403);
    expect(
      (
        await send(viewer, 'POST', '/docx-templates', {
          name: 'X',
          entityType: 'policy',
          filename: 'x.docx',
        })
      ).status,
    ).toBe(403);
    expect((await send(viewer, 'DELETE', `/docx-templates/${code}`)).status).toBe(403);
    // Deleting removes it from reads and lists; the activity log names it.
    expect((await send(admin, 'DELETE', `/docx-templates/${code}`)).status).toBe(204);
    expect((await call(admin, `/docx-templates/${code}`)).status).toBe(404);
    const activity = await serviceCalls(kit, '/tenantservice/v1').call(
      admin,
      '/audit-events?entityType=docx_template&pageSize=50',
    );
    expect(activity.status).toBe(200);
    const mine = (activity.body.items as { entityId: string; action: string; actorName: string }[])
      .filter((e) => e.entityId === code)
      .map((e) => e.action);
    expect(mine.sort()).toEqual(['created', 'deleted']);
  });

  it('seeds a policy confirmation letter in every workspace', async () => {
    for (const session of [admin, nord]) {
      const res = await call(session, '/docx-templates?pageSize=100&order=createdAt:ASC');
      const seeded = (res.body.items as { filename: string; entityType: string }[]).find(
        (t) => t.filename === 'versicherungsbestaetigung.docx',
      );
      expect(seeded).toMatchObject({ entityType: 'policy' });
    }
    const entities = await call(manager, '/docx-template-entities');
    expect(entities.status).toBe(200);
    expect(entities.body.items.map((e: { entityType: string }) => e.entityType)).toEqual([
      'policy',
      'claim',
      'invoice',
    ]);
  });
});
