import { describe, expect, it } from 'vitest';
import { makePdf } from '#server/sandbox/services/document/demo-files.ts';
import { PRODUCT_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

/**
 * Product documents end to end against the real sandbox (issue 19): the documentservice signs
 * the upload of a product's file, the sandbox's storage takes it, the product's list shows it,
 * it downloads byte for byte, and it can be deleted; only the product's workspace sees it, and
 * only the product permissions read and change it.
 */

const kit = withSandbox({ ...PRODUCT_USERS, noui: 'noui@demo.test' });
const { call, send } = serviceCalls(kit, '/documentservice/v1/documents/product');
const { admin, viewer, nord, noui } = kit.sessions;

interface Presigned {
  url: string;
  fields: Record<string, string>;
}
interface ProductDoc {
  code: string;
  filename: string;
  productSlug: string;
  requester: string;
  createdAt: string;
}

/** The files uploaded, without the IPIDs the document service issues (decision 020). */
const uploaded = (items: unknown) =>
  (items as ProductDoc[]).filter((d) => d.requester !== 'documentservice');

interface ActivityOf {
  entityId: string;
  entityLabel: string | null;
  action: string;
  actorName: string;
  changes: { field: string; before: unknown; after: unknown }[];
}

const PDF = makePdf('Terms', ['General terms of the product']);

async function firstProductSlug(): Promise<string> {
  const res = await serviceCalls(kit, '/insuranceservice/v1').call(
    admin,
    '/products?pageSize=1&order=id:ASC',
  );
  expect(res.status).toBe(200);
  return (res.body.items as { slug: string }[])[0]!.slug;
}

async function upload(p: Presigned, bytes: Uint8Array, name: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(p.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
  return fetch(new URL(p.url, kit.base), { method: 'POST', body: form });
}

describe('product documents', () => {
  it('uploads, lists, downloads byte for byte and deletes a PDF of a product', async () => {
    const slug = await firstProductSlug();
    const signed = await send(admin, 'POST', `/${slug}`, { filename: 'terms.pdf' });
    expect(signed.status).toBe(201);
    const presigned = signed.body as Presigned;
    const code = presigned.fields.code!;
    expect((await upload(presigned, PDF, 'terms.pdf')).status).toBeLessThan(300);

    const listed = await call(viewer, `/${slug}`);
    expect(listed.status).toBe(200);
    const items = uploaded(listed.body.items);
    expect(items.map((d) => d.code)).toEqual([code]);
    expect(items[0]).toMatchObject({
      filename: 'terms.pdf',
      productSlug: slug,
      requester: 'insuranceservice',
    });
    // The workspace's list, by product and by search.
    const all = await call(
      viewer,
      `?filter=${encodeURIComponent(`productSlug=${slug}`)}&search=terms`,
    );
    expect(uploaded(all.body.items).map((d) => d.code)).toEqual([code]);
    expect((await call(viewer, `/${slug}/${code}`)).body).toMatchObject({
      code,
      filename: 'terms.pdf',
    });

    const address = await call(viewer, `/${slug}/${code}/download-url`);
    expect(address.status).toBe(200);
    const download = await fetch(new URL((address.body as { url: string }).url, kit.base));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(PDF))).toBe(true);
    expect(download.headers.get('content-disposition')).toContain('terms.pdf');

    // Another workspace sees none of it; a reader changes nothing; the bare user reads nothing.
    expect((await call(nord, `/${slug}/${code}`)).status).toBe(404);
    expect(uploaded((await call(nord, '')).body.items)).toEqual([]);
    expect((await send(viewer, 'DELETE', `/${slug}/${code}`)).status).toBe(403);
    expect((await send(viewer, 'POST', `/${slug}`, { filename: 'x.pdf' })).status).toBe(403);
    expect((await call(noui, `/${slug}`)).status).toBe(403);

    const renamed = await send(admin, 'POST', `/${slug}/${code}`, { filename: 'AGB.pdf' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ filename: 'AGB.pdf' });
    expect((await send(admin, 'POST', `/${slug}/${code}`, { filename: 'AGB.png' })).status).toBe(
      400,
    );

    expect((await send(admin, 'DELETE', `/${slug}/${code}`)).status).toBe(204);
    expect(uploaded((await call(viewer, `/${slug}`)).body.items)).toEqual([]);
    expect((await call(viewer, `/${slug}/${code}/download-url`)).status).toBe(404);

    // Each change in the workspace's activity log: who by name, what, of which file.
    const log = await serviceCalls(kit, '/tenantservice/v1').call(
      admin,
      `/audit-events?entityType=product_document&pageSize=100`,
    );
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const entries = (log.body.items as ActivityOf[]).filter((e) => e.entityId === code);
    expect(entries.map((e) => [e.action, e.entityLabel])).toEqual([
      ['deleted', expect.stringMatching(/: AGB\.pdf$/)],
      ['updated', expect.stringMatching(/: AGB\.pdf$/)],
      ['created', expect.stringMatching(/: terms\.pdf$/)],
    ]);
    expect(entries.every((e) => e.actorName === 'Ada Admin')).toBe(true);
    expect(entries[1]!.changes).toContainEqual({
      field: 'filename',
      before: 'terms.pdf',
      after: 'AGB.pdf',
    });
  });

  it('answers 404 for an unknown product and 400 for a file it does not take', async () => {
    expect((await call(admin, '/no-such-product')).status).toBe(404);
    expect((await send(admin, 'POST', '/no-such-product', { filename: 'a.pdf' })).status).toBe(404);
    const slug = await firstProductSlug();
    expect((await send(admin, 'POST', `/${slug}`, { filename: 'a.exe' })).status).toBe(400);
  });
});
