import { beforeAll, describe, expect, it } from 'vitest';
import { api, login, lookupsFor, type Session } from '#server/sandbox/testing.ts';
import { evaluateNumber } from '#common/expression/evaluate.ts';
import { parseExpression } from '#common/expression/parse.ts';
import { PRODUCT_USERS, withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox(PRODUCT_USERS);
const { admin, manager, viewer, care, nord } = kit.sessions;
let base: string;

const I = '/insuranceservice/v1';

beforeAll(() => {
  base = kit.base;
});

const call = (session: Session, route: string, method = 'GET', body?: unknown) =>
  api(base, I + route, { token: session.accessToken, method, body });

let counter = 0;
/** A product of its own with one draft version, so that tests do not share rows. */
async function draftProduct(session = manager) {
  counter += 1;
  const product = await call(session, '/products', 'POST', {
    name: `Test product ${counter}`,
    category: 'device',
  });
  expect(product.status).toBe(201);
  const version = await call(session, '/product-versions', 'POST', {
    productId: product.body.product.id,
    description: 'first',
  });
  expect(version.status).toBe(201);
  const objects = await call(
    session,
    `/insured-objects?filter=productVersionId=${version.body.productVersion.id}&expand=productFields`,
  );
  return {
    product: product.body.product,
    version: version.body.productVersion,
    defaultObject: objects.body.items[0],
  };
}

/** Activates a version, after giving it the premium formula every active version needs. */
async function activate(versionId: number) {
  const formula = await call(manager, '/premium-formulas', 'POST', {
    productVersionId: versionId,
    group: 'Base',
    name: 'Fee',
    unit: 'month',
    expression: '1',
  });
  expect(formula.status).toBe(201);
  return call(manager, `/product-versions/${versionId}`, 'PUT', { status: 'active' });
}

describe('seeded products', () => {
  it('lists the demo products across the categories with their versions', async () => {
    const res = await call(viewer, '/products?pageSize=50&expand=versions');
    expect(res.status).toBe(200);
    const categories = new Set(res.body.items.map((p: { category: string }) => p.category));
    for (const c of ['car', 'travel', 'device', 'homeContents', 'accident', 'legalProtection']) {
      expect(categories).toContain(c);
    }
    const car = res.body.items.find((p: { slug: string }) => p.slug === 'car-comfort');
    expect(car.code).toMatch(/^prd_/);
    expect(car.versions.map((v: { status: string }) => v.status)).toEqual([
      'archived',
      'passive',
      'active',
      'draft',
    ]);
    expect(res.body.items.some((p: { slug: string }) => p.slug.startsWith('nordlicht'))).toBe(
      false,
    );
  });

  it('every seeded formula evaluates over sample values of its version fields', async () => {
    const products = await call(admin, '/products?pageSize=50&expand=versions');
    let evaluated = 0;
    for (const product of products.body.items) {
      for (const version of product.versions) {
        const objects = await call(
          admin,
          `/insured-objects?filter=productVersionId=${version.id}&expand=productFields`,
        );
        expect(objects.body.items[0].name).toBe('default');
        const variables: Record<string, unknown> = {};
        for (const object of objects.body.items) {
          const data: Record<string, unknown> = {};
          for (const field of object.productFields) {
            data[field.name] =
              field.type === 'number'
                ? (field.minimum ?? 1)
                : field.type === 'boolean'
                  ? true
                  : field.type === 'date'
                    ? '1990-05-01'
                    : 'x';
          }
          if (object.name === 'default')
            Object.assign(variables, data, { policyStartDate: '2026-01-01' });
          else variables[object.name.replace(/-/g, '_')] = data;
        }
        const formulas = await call(
          admin,
          `/premium-formulas?filter=productVersionId=${version.id}`,
        );
        const lookups = await lookupsFor(base, admin.accessToken, version.id);
        for (const formula of formulas.body.items) {
          const value = evaluateNumber(parseExpression(formula.expression), {
            variables,
            ...lookups,
          });
          expect(Number.isFinite(value)).toBe(true);
          if (formula.variableName) variables[formula.variableName] = value;
          evaluated += 1;
        }
      }
    }
    expect(evaluated).toBeGreaterThan(20);
  });

  it('the other tenant sees only its own products', async () => {
    const res = await call(nord, '/products?expand=versions');
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { slug: string }) => p.slug).sort()).toEqual([
      'nordlicht-car',
      'nordlicht-travel',
    ]);
  });
});

describe('products', () => {
  it('creates, reads, searches, updates and deletes a product', async () => {
    const created = await call(manager, '/products', 'POST', {
      name: 'Fahrrad Sorglos',
      category: 'bike',
    });
    expect(created.status).toBe(201);
    const { id, slug } = created.body.product;
    expect(slug).toBe('fahrrad-sorglos');
    const found = await call(viewer, '/products?search=sorglos');
    expect(found.body.items.map((p: { id: number }) => p.id)).toEqual([id]);
    const one = await call(viewer, `/products/${id}?expand=versions`);
    expect(one.body.product.versions).toEqual([]);
    const updated = await call(manager, `/products/${id}`, 'PUT', {
      name: 'Fahrrad Sorglos Plus',
      category: 'bike',
      contractDurationDays: 730,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.product).toMatchObject({
      name: 'Fahrrad Sorglos Plus',
      slug,
      contractDurationDays: 730,
    });
    const dup = await call(manager, '/products', 'POST', { name: 'x', slug, category: 'bike' });
    expect(dup.status).toBe(409);
    expect((await call(manager, `/products/${id}`, 'DELETE')).status).toBe(204);
    const gone = await call(manager, `/products/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("Can't load productId");
  });

  it('pages with nextPageToken', async () => {
    const first = await call(viewer, '/products?pageSize=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextPageToken).toMatch(/^2\./);
    const second = await call(viewer, `/products?pageSize=3&pageToken=${first.body.nextPageToken}`);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    // The contract's page number reads the same page.
    const numbered = await call(viewer, '/products?pageSize=3&pageToken=2');
    expect(numbered.body.items).toEqual(second.body.items);
  });

  it('refuses bad input', async () => {
    expect((await call(manager, '/products', 'POST', { name: '', category: 'car' })).status).toBe(
      400,
    );
    const badCategory = await call(manager, '/products', 'POST', { name: 'x', category: 'boat' });
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.message).toContain('unknown category');
    expect((await call(viewer, '/products?expand=everything')).status).toBe(400);
    expect((await call(viewer, '/products/abc')).status).toBe(404);
  });

  it('a product with an active version is not deleted', async () => {
    const { product, version } = await draftProduct();
    expect((await activate(version.id)).status).toBe(200);
    const res = await call(manager, `/products/${product.id}`, 'DELETE');
    expect(res.status).toBe(409);
  });

  it('keeps tenants apart', async () => {
    const { product } = await draftProduct();
    expect((await call(nord, `/products/${product.id}`)).status).toBe(404);
    expect(
      (await call(nord, `/products/${product.id}`, 'PUT', { name: 'x', category: 'car' })).status,
    ).toBe(404);
    expect((await call(nord, `/products/${product.id}`, 'DELETE')).status).toBe(404);
    expect((await call(nord, '/product-versions', 'POST', { productId: product.id })).status).toBe(
      404,
    );
  });

  it('checks permissions', async () => {
    const { product } = await draftProduct();
    expect((await api(base, `${I}/products`)).status).toBe(401);
    expect((await call(viewer, '/products', 'POST', { name: 'x', category: 'car' })).status).toBe(
      403,
    );
    expect((await call(care, '/products', 'POST', { name: 'x', category: 'car' })).status).toBe(
      403,
    );
    expect(
      (await call(viewer, `/products/${product.id}`, 'PUT', { name: 'x', category: 'car' })).status,
    ).toBe(403);
    expect((await call(viewer, `/products/${product.id}`, 'DELETE')).status).toBe(403);
    expect((await call(care, `/products/${product.id}`)).status).toBe(200);
  });
});

describe('product versions', () => {
  it('a new version is a numbered draft with the default insured object', async () => {
    const { product, version, defaultObject } = await draftProduct();
    expect(version).toMatchObject({ productId: product.id, version: 1, status: 'draft' });
    expect(version.code).toMatch(/^pve_/);
    expect(defaultObject.name).toBe('default');
    expect(defaultObject.productFields.map((f: { name: string }) => f.name)).toEqual([
      'policyStartDate',
      'policyDurationUnit',
      'policyDurationValue',
      // Issue 18: how the policy is billed, optional (yearly without them).
      'billingFrequencyUnit',
      'recurringBillingDay',
    ]);
    const second = await call(manager, '/product-versions', 'POST', { productId: product.id });
    expect(second.body.productVersion.version).toBe(2);
  });

  it('moves through the statuses; activating one retires the former active one', async () => {
    const { product, version } = await draftProduct();
    const second = (await call(manager, '/product-versions', 'POST', { productId: product.id }))
      .body.productVersion;
    expect((await activate(version.id)).status).toBe(200);
    expect((await activate(second.id)).status).toBe(200);
    const after = await call(manager, `/products/${product.id}?expand=versions`);
    expect(after.body.product.versions.map((v: { status: string }) => v.status)).toEqual([
      'passive',
      'active',
    ]);
    const back = await call(manager, `/product-versions/${version.id}`, 'PUT', { status: 'draft' });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('a passive product version cannot become draft');
    const described = await call(manager, `/product-versions/${version.id}`, 'PUT', {
      description: 'changed',
    });
    expect(described.status).toBe(409);
  });

  it('refuses bad input, other tenants and missing permissions', async () => {
    const { version } = await draftProduct();
    expect(
      (await call(manager, `/product-versions/${version.id}`, 'PUT', { status: 'live' })).status,
    ).toBe(400);
    expect((await call(manager, '/product-versions', 'POST', { productId: 'x' })).status).toBe(400);
    expect(
      (await call(nord, `/product-versions/${version.id}`, 'PUT', { status: 'active' })).status,
    ).toBe(404);
    expect(
      (await call(viewer, `/product-versions/${version.id}`, 'PUT', { status: 'active' })).status,
    ).toBe(403);
    expect((await call(care, '/product-versions', 'POST', { productId: 1 })).status).toBe(403);
  });
});

describe('a new version copied from another (docs/decisions/005)', () => {
  type Row = Record<string, unknown>;
  /** A record without what a copy must change: its ids, codes, ern and audit stamps. */
  const content = (row: Row): Row =>
    Object.fromEntries(
      Object.entries(row)
        .filter(
          ([key]) =>
            !['id', 'code', 'ern', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'].includes(
              key,
            ) && !/Id$/.test(key),
        )
        .map(([key, value]) => [
          key,
          Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null)
            ? value.map((item) => content(item as Row))
            : value,
        ]),
    );
  /** Every part of a version, as the service answers it. */
  async function partsOf(versionId: number, productId: number) {
    const list = async (route: string) => (await call(admin, route)).body.items as Row[];
    const funnels = (
      await list(`/booking-funnels?filter=productId=${productId}&pageSize=100`)
    ).filter((f) => f.productVersionId === versionId);
    return {
      objects: await list(
        `/insured-objects?filter=productVersionId=${versionId}&expand=productFields`,
      ),
      formulas: await list(`/premium-formulas?filter=productVersionId=${versionId}`),
      factors: await list(`/product-factors?filter=productVersionId=${versionId}`),
      ranges: await list(`/named-ranges?filter=productVersionId=${versionId}`),
      funnels,
    };
  }
  const idsOf = (parts: Awaited<ReturnType<typeof partsOf>>) =>
    Object.values(parts).flatMap((rows) =>
      rows.flatMap((row) => [
        row.code,
        ...((row.productFields as Row[] | undefined) ?? []).map((f) => f.code),
      ]),
    );

  it('has the same parts as the source with new ids, as a draft stamped by its creator; the source is untouched', async () => {
    // A seeded version with every kind of part, and a funnel that sells exactly that version.
    const products = (await call(admin, '/products?pageSize=50&expand=versions')).body.items as {
      id: number;
      slug: string;
      versions: { id: number; version: number }[];
    }[];
    let found: { product: (typeof products)[number]; versionId: number } | null = null;
    for (const product of products) {
      for (const version of product.versions) {
        const parts = await partsOf(version.id, product.id);
        if (parts.factors.length && parts.ranges.length && parts.formulas.length) {
          found = { product, versionId: version.id };
          break;
        }
      }
      if (found) break;
    }
    expect(found).not.toBeNull();
    const { product, versionId } = found!;
    const fieldsBefore = await partsOf(versionId, product.id);
    const object = fieldsBefore.objects[0]!;
    const field = (object.productFields as Row[])[0]!;
    const funnel = await call(manager, '/booking-funnels', 'POST', {
      name: 'Pinned funnel',
      productSlug: product.slug,
      productVersionId: versionId,
      steps: [{ title: 'Start', fields: [{ insuredObject: object.name, field: field.name }] }],
    });
    expect(funnel.status).toBe(201);
    const before = await partsOf(versionId, product.id);

    const res = await call(manager, '/product-versions', 'POST', {
      productId: product.id,
      description: 'copied',
      copyFromVersionId: versionId,
    });
    expect(res.status).toBe(201);
    const copy = res.body.productVersion;
    expect(copy).toMatchObject({ status: 'draft', description: 'copied' });
    expect(copy.version).toBe(Math.max(...product.versions.map((v) => v.version)) + 1);
    expect(copy.createdBy).toBe(copy.updatedBy);

    const copied = await partsOf(copy.id, product.id);
    for (const kind of Object.keys(before) as (keyof typeof before)[]) {
      expect(copied[kind].length, kind).toBe(before[kind].length);
      expect(copied[kind].map(content), kind).toEqual(before[kind].map(content));
    }
    expect(copied.funnels[0]).toMatchObject({ version: 1, productVersionId: copy.id });
    // New ids everywhere: no code of the source appears in the copy.
    const sourceIds = new Set(idsOf(before));
    expect(idsOf(copied).filter((code) => sourceIds.has(code))).toEqual([]);
    // Who copied is who created each part, at the copy's time.
    for (const formula of copied.formulas) {
      expect(formula.createdBy).toBe(copy.createdBy);
      expect(formula.createdAt).toBe(copy.createdAt);
    }
    expect(await partsOf(versionId, product.id)).toEqual(before);
  });

  it('copies only a version of the same product', async () => {
    const first = await draftProduct();
    const other = await draftProduct();
    const refused = await call(manager, '/product-versions', 'POST', {
      productId: first.product.id,
      copyFromVersionId: other.version.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      { path: 'copyFromVersionId', code: 'not_a_version_of_product' },
    ]);
    const copied = await call(manager, '/product-versions', 'POST', {
      productId: first.product.id,
      copyFromVersionId: first.version.id,
    });
    expect(copied.status).toBe(201);
    const objects = await call(
      manager,
      `/insured-objects?filter=productVersionId=${copied.body.productVersion.id}&expand=productFields`,
    );
    expect(objects.body.items.map((o: { name: string }) => o.name)).toEqual(['default']);
  });
});

describe('insured objects and product fields', () => {
  it('lists insured objects of a version, only in its tenant', async () => {
    const { version } = await draftProduct();
    expect(
      (await call(viewer, `/insured-objects?filter=productVersionId=${version.id}`)).status,
    ).toBe(200);
    const foreign = await call(nord, `/insured-objects?filter=productVersionId=${version.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Can't load insured objects for productVersionId");
    expect((await call(viewer, '/insured-objects')).status).toBe(400);
    expect(
      (await api(base, `${I}/insured-objects?filter=productVersionId=${version.id}`)).status,
    ).toBe(401);
  });

  it('adds, edits, reorders and deletes fields of a draft', async () => {
    const { defaultObject } = await draftProduct();
    const add = (body: object) =>
      call(manager, '/product-fields', 'POST', { insuredObjectId: defaultObject.id, ...body });
    const price = await add({
      name: 'price',
      label: 'Price',
      type: 'number',
      minimum: 1,
      maximum: 5000,
      isRequired: true,
    });
    expect(price.status).toBe(201);
    expect(price.body.productField).toMatchObject({
      // After the five system fields of the default object.
      order: 6,
      type: 'number',
      code: expect.stringMatching(/^pfi_/),
    });
    const brand = (await add({ name: 'brand', label: 'Brand', type: 'string' })).body.productField;
    expect((await add({ name: 'brand', label: 'Again', type: 'string' })).status).toBe(409);

    const edited = await call(manager, `/product-fields/${brand.id}`, 'PUT', {
      name: 'brand',
      label: 'Make',
      type: 'string',
      kind: 'vehicleType',
    });
    expect(edited.body.productField).toMatchObject({ label: 'Make', kind: 'vehicleType' });

    const swap = await call(manager, '/product-fields/reorder', 'POST', {
      productFieldIdOne: price.body.productField.id,
      productFieldIdTwo: brand.id,
    });
    expect(swap.status).toBe(200);
    const list = await call(viewer, `/product-fields?filter=insuredObjectId=${defaultObject.id}`);
    expect(list.body.items.slice(-2).map((f: { name: string }) => f.name)).toEqual([
      'brand',
      'price',
    ]);

    expect((await call(manager, `/product-fields/${brand.id}`, 'DELETE')).status).toBe(204);
    const types = await call(viewer, '/product-fields/types');
    expect(types.body.items.map((t: { name: string }) => t.name)).toEqual([
      'number',
      'boolean',
      'string',
      'date',
    ]);
  });

  it('refuses bad fields', async () => {
    const { defaultObject } = await draftProduct();
    const add = (body: object) =>
      call(manager, '/product-fields', 'POST', {
        insuredObjectId: defaultObject.id,
        label: 'L',
        ...body,
      });
    expect((await add({ name: '1abc', type: 'number' })).status).toBe(400);
    expect((await add({ name: 'a', type: 'money' })).status).toBe(400);
    expect((await add({ name: 'a', type: 'string', minimum: 1 })).status).toBe(400);
    expect((await add({ name: 'a', type: 'number', minimum: 5, maximum: 1 })).status).toBe(400);
    expect((await add({ name: 'a', type: 'date', defaultValue: 'tomorrow' })).status).toBe(400);
    expect(
      (await call(manager, '/product-fields/reorder', 'POST', { productFieldIdOne: 1 })).status,
    ).toBe(400);
  });

  it('refuses changes to a version that is not a draft', async () => {
    const { version, defaultObject } = await draftProduct();
    expect((await activate(version.id)).status).toBe(200);
    const res = await call(manager, '/product-fields', 'POST', {
      insuredObjectId: defaultObject.id,
      name: 'late',
      label: 'Late',
      type: 'string',
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('only a draft can be changed');
  });

  it('keeps tenants apart and checks permissions', async () => {
    const { defaultObject } = await draftProduct();
    const field = defaultObject.productFields[0];
    const body = { insuredObjectId: defaultObject.id, name: 'x', label: 'X', type: 'string' };
    expect((await call(nord, '/product-fields', 'POST', body)).status).toBe(404);
    expect((await call(nord, `/product-fields/${field.id}`, 'PUT', body)).status).toBe(404);
    expect((await call(nord, `/product-fields/${field.id}`, 'DELETE')).status).toBe(404);
    const foreignList = await call(
      nord,
      `/product-fields?filter=insuredObjectId=${defaultObject.id}`,
    );
    expect(foreignList.body.items).toEqual([]);
    expect(
      (
        await call(nord, '/product-fields/reorder', 'POST', {
          productFieldIdOne: field.id,
          productFieldIdTwo: defaultObject.productFields[1].id,
        })
      ).status,
    ).toBe(404);
    expect((await call(viewer, '/product-fields', 'POST', body)).status).toBe(403);
    expect((await call(viewer, `/product-fields/${field.id}`, 'PUT', body)).status).toBe(403);
    expect((await call(viewer, `/product-fields/${field.id}`, 'DELETE')).status).toBe(403);
    expect((await call(care, '/product-fields/reorder', 'POST', {})).status).toBe(403);
    expect((await api(base, `${I}/product-fields/types`)).status).toBe(401);
  });
});

describe('premium formulas', () => {
  async function withFields() {
    const draft = await draftProduct();
    const add = (name: string) =>
      call(manager, '/product-fields', 'POST', {
        insuredObjectId: draft.defaultObject.id,
        name,
        label: name,
        type: 'number',
      });
    await add('price');
    return draft;
  }

  it('creates formulas whose expressions read fields and earlier variables; reorders and deletes', async () => {
    const { version } = await withFields();
    const post = (body: object) =>
      call(manager, '/premium-formulas', 'POST', {
        productVersionId: version.id,
        group: 'Base',
        unit: 'month',
        ...body,
      });
    const base1 = await post({ name: 'Base', expression: 'price * 0.01', variableName: 'base' });
    expect(base1.status).toBe(201);
    expect(base1.body.premiumFormula).toMatchObject({
      order: 1,
      type: 'time',
      code: expect.stringMatching(/^pfo_/),
    });
    const extra = await post({ name: 'Extra', expression: 'max(base, default.price) * 0.1' });
    expect(extra.status).toBe(201);
    const list = await call(viewer, `/premium-formulas?filter=productVersionId=${version.id}`);
    expect(list.body.items.map((f: { name: string }) => f.name)).toEqual(['Base', 'Extra']);

    // Extra reads `base`; moving it before Base would break it.
    const broken = await call(manager, '/premium-formulas/reorder', 'POST', {
      id1: base1.body.premiumFormula.id,
      id2: extra.body.premiumFormula.id,
    });
    expect(broken.status).toBe(409);
    const edited = await call(manager, `/premium-formulas/${extra.body.premiumFormula.id}`, 'PUT', {
      group: 'Extras',
      name: 'Extra',
      expression: 'price * 0.02',
      unit: 'year',
    });
    expect(edited.body.premiumFormula).toMatchObject({ group: 'Extras', unit: 'year' });
    const swapped = await call(manager, '/premium-formulas/reorder', 'POST', {
      id1: base1.body.premiumFormula.id,
      id2: extra.body.premiumFormula.id,
    });
    expect(swapped.status).toBe(200);
    const after = await call(viewer, `/premium-formulas?filter=productVersionId=${version.id}`);
    expect(after.body.items.map((f: { name: string }) => f.name)).toEqual(['Extra', 'Base']);
    expect(
      (await call(manager, `/premium-formulas/${base1.body.premiumFormula.id}`, 'DELETE')).status,
    ).toBe(204);
  });

  it('a bad expression is a 400 with a clear message', async () => {
    const { version } = await withFields();
    const post = (expression: string) =>
      call(manager, '/premium-formulas', 'POST', {
        productVersionId: version.id,
        group: 'G',
        name: 'N',
        unit: 'year',
        expression,
      });
    const syntax = await post('price * * 2');
    expect(syntax.status).toBe(400);
    expect(syntax.body).toEqual({
      error: 'invalid_expression',
      message: 'Invalid expression: unexpected "*" at position 9',
      // The place as data, for the screen to point at (issue 15).
      issues: [{ path: 'expression', code: 'unexpected_token', position: 8, name: '*' }],
    });
    expect((await post('price *')).body.message).toBe(
      'Invalid expression: the expression ends too early',
    );
    expect((await post('unknownField * 2')).body.message).toBe(
      'Invalid expression: unknown field "unknownField" at position 1',
    );
    expect((await post('eval(1)')).body.message).toBe(
      'Invalid expression: unknown function "eval" at position 1',
    );
    expect((await post('')).status).toBe(400);
    const unit = await call(manager, '/premium-formulas', 'POST', {
      productVersionId: version.id,
      group: 'G',
      name: 'N',
      unit: 'decade',
      expression: '1',
    });
    expect(unit.status).toBe(400);
  });

  it('keeps tenants apart and checks permissions', async () => {
    const { version } = await withFields();
    const body = {
      productVersionId: version.id,
      group: 'G',
      name: 'N',
      unit: 'year',
      expression: '1',
    };
    const formula = (await call(manager, '/premium-formulas', 'POST', body)).body.premiumFormula;
    const foreign = await call(nord, `/premium-formulas?filter=productVersionId=${version.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Can't load premium formulas for productVersionId");
    expect((await call(nord, '/premium-formulas', 'POST', body)).status).toBe(404);
    expect((await call(nord, `/premium-formulas/${formula.id}`, 'PUT', body)).status).toBe(404);
    expect((await call(nord, `/premium-formulas/${formula.id}`, 'DELETE')).status).toBe(404);
    expect(
      (await call(nord, '/premium-formulas/reorder', 'POST', { id1: formula.id, id2: formula.id }))
        .status,
    ).toBe(404);
    expect((await call(viewer, '/premium-formulas', 'POST', body)).status).toBe(403);
    expect((await call(viewer, `/premium-formulas/${formula.id}`, 'PUT', body)).status).toBe(403);
    expect((await call(viewer, `/premium-formulas/${formula.id}`, 'DELETE')).status).toBe(403);
    expect((await call(care, '/premium-formulas/reorder', 'POST', { id1: 1, id2: 2 })).status).toBe(
      403,
    );
    expect(
      (await api(base, `${I}/premium-formulas?filter=productVersionId=${version.id}`)).status,
    ).toBe(401);
  });

  it('a role with the legacy eis.* permissions works like the current one', async () => {
    const role = await api(base, '/tenantservice/v1/roles', {
      token: admin.accessToken,
      body: {
        code: 'legacy-products',
        label: 'Legacy products',
        permissions: ['ui.eis.view', 'eis.products.view', 'eis.premium-formulas.create'],
      },
    });
    expect(role.status).toBe(201);
    // A seeded user of this test's own sandbox, given only the legacy role.
    const email = 'anna.albrecht0@demo.test';
    const users = await api(
      base,
      `/tenantservice/v1/users?filter=${encodeURIComponent(`email=${email}`)}`,
      {
        token: admin.accessToken,
      },
    );
    const assigned = await api(
      base,
      `/tenantservice/v1/users/${users.body.items[0].id}/assign-roles`,
      {
        token: admin.accessToken,
        body: { roleCodes: ['legacy-products'] },
      },
    );
    expect(assigned.status).toBe(200);
    const legacy = await login(base, email);
    const { version } = await withFields();
    expect((await call(legacy, '/products')).status).toBe(200);
    const body = {
      productVersionId: version.id,
      group: 'G',
      name: 'N',
      unit: 'year',
      expression: 'price',
    };
    expect((await call(legacy, '/premium-formulas', 'POST', body)).status).toBe(201);
    expect((await call(legacy, '/products', 'POST', { name: 'x', category: 'car' })).status).toBe(
      403,
    );
  });
});
