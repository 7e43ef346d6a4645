import { describe, expect, it } from 'vitest';
import {
  api,
  apiUpload,
  login,
  userWithPermissions,
  type Session,
} from '#server/sandbox/testing.ts';
import { PRODUCT_USERS, withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox(PRODUCT_USERS);
const { admin, manager, viewer, care, nord } = kit.sessions;

const I = '/insuranceservice/v1';
const L = '/translationservice/v1';
const T = '/tenantservice/v1';

const call = (session: Session, route: string, method = 'GET', body?: unknown) =>
  api(kit.base, route, { token: session.accessToken, method, body });

let counter = 0;
async function draftProduct() {
  counter += 1;
  const product = await call(manager, `${I}/products`, 'POST', {
    name: `Extras product ${counter}`,
    category: 'car',
  });
  const version = await call(manager, `${I}/product-versions`, 'POST', {
    productId: product.body.product.id,
  });
  return {
    product: product.body.product as { id: number; slug: string },
    versionId: version.body.productVersion.id as number,
  };
}

async function carProduct(session: Session = viewer) {
  const res = await call(session, `${I}/products?filter=slug=car-comfort&expand=versions`);
  const product = res.body.items[0];
  return {
    product,
    active: product.versions.find((v: { status: string }) => v.status === 'active').id as number,
  };
}

describe('insured object types and default fields', () => {
  it('lists the catalogue with its default fields, for every tenant alike', async () => {
    const types = await call(viewer, `${I}/insured-object-types?pageSize=30`);
    expect(types.status).toBe(200);
    expect(types.body.nextPageToken).toBeNull();
    const vehicle = types.body.items.find((t: { name: string }) => t.name === 'vehicle');
    expect(vehicle).toMatchObject({ label: 'Vehicle', code: 'iot_vehicle' });
    const fields = await call(
      viewer,
      `${I}/default-product-fields?filter=insuredObjectTypeId=${vehicle.id}&pageSize=30`,
    );
    expect(fields.body.items.map((f: { name: string }) => f.name)).toEqual([
      'vehicleValue',
      'vehicleType',
      'firstRegistration',
      'vehicleUsage',
      'licensePlateRegion',
    ]);
    expect((await call(nord, `${I}/insured-object-types?pageSize=30`)).body).toEqual(types.body);
    const paged = await call(viewer, `${I}/insured-object-types?pageSize=4`);
    expect(paged.body.items).toHaveLength(4);
    expect(paged.body.nextPageToken).toBe('2');
    expect(
      (await call(viewer, `${I}/default-product-fields?filter=insuredObjectTypeId=x`)).status,
    ).toBe(400);
    const noui = await login(kit.base, 'noui@demo.test');
    expect((await call(noui, `${I}/insured-object-types`)).status).toBe(403);
    expect((await call(noui, `${I}/default-product-fields`)).status).toBe(403);
  });
});

describe('insured objects', () => {
  it('adds an object of a type with its default fields, renames it and deletes it', async () => {
    const { versionId } = await draftProduct();
    const created = await call(manager, `${I}/insured-objects`, 'POST', {
      productVersionId: versionId,
      insuredObjectTypeId: 2,
    });
    expect(created.status).toBe(201);
    const object = created.body.insuredObject;
    expect(object).toMatchObject({
      name: 'driver',
      label: 'Driver',
      version: 1,
      insuredObjectTypeId: 2,
    });
    expect(object.productFields.map((f: { name: string }) => f.name)).toEqual([
      'birthDate',
      'sfClass',
      'zipCode',
    ]);
    const second = await call(manager, `${I}/insured-objects`, 'POST', {
      productVersionId: versionId,
      insuredObjectTypeId: 2,
      name: 'second-driver',
      label: 'Second driver',
    });
    expect(second.status).toBe(201);
    const plain = await call(manager, `${I}/insured-objects`, 'POST', {
      productVersionId: versionId,
      name: 'extra',
      label: 'Extra',
    });
    expect(plain.body.insuredObject.productFields).toEqual([]);
    const taken = await call(manager, `${I}/insured-objects`, 'POST', {
      productVersionId: versionId,
      insuredObjectTypeId: 2,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('name_taken');

    const renamed = await call(manager, `${I}/insured-objects/${object.id}`, 'PUT', {
      name: 'main-driver',
      label: 'Main driver',
      version: 1,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.insuredObject).toMatchObject({ name: 'main-driver', version: 2 });
    const stale = await call(manager, `${I}/insured-objects/${object.id}`, 'PUT', {
      name: 'driver',
      label: 'Driver',
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      insuredObject: { name: 'main-driver', version: 2 },
    });
    const one = await call(viewer, `${I}/insured-objects/${object.id}?expand=productFields`);
    expect(one.body.insuredObject.productFields).toHaveLength(3);

    expect((await call(manager, `${I}/insured-objects/${object.id}`, 'DELETE')).status).toBe(204);
    expect((await call(viewer, `${I}/insured-objects/${object.id}`)).status).toBe(404);
  });

  it('keeps the default object and objects read by formulas', async () => {
    const { versionId } = await draftProduct();
    const objects = await call(viewer, `${I}/insured-objects?filter=productVersionId=${versionId}`);
    const defaultObject = objects.body.items[0];
    expect(
      (await call(manager, `${I}/insured-objects/${defaultObject.id}`, 'DELETE')).body.error,
    ).toBe('default_object');
    const rename = await call(manager, `${I}/insured-objects/${defaultObject.id}`, 'PUT', {
      name: 'policy',
      label: 'Policy',
      version: defaultObject.version,
    });
    expect(rename.body.error).toBe('default_object');
    const relabel = await call(manager, `${I}/insured-objects/${defaultObject.id}`, 'PUT', {
      name: 'default',
      label: 'Vertrag',
      version: defaultObject.version,
    });
    expect(relabel.status).toBe(200);

    const vehicle = await call(manager, `${I}/insured-objects`, 'POST', {
      productVersionId: versionId,
      insuredObjectTypeId: 1,
    });
    const formula = await call(manager, `${I}/premium-formulas`, 'POST', {
      productVersionId: versionId,
      group: 'G',
      name: 'Base',
      unit: 'year',
      expression: 'vehicle.vehicleValue * 0.01',
    });
    expect(formula.status).toBe(201);
    const id = vehicle.body.insuredObject.id;
    const deleted = await call(manager, `${I}/insured-objects/${id}`, 'DELETE');
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe(
      'the insured object vehicle is read by the premium formula Base',
    );
    const renamed = await call(manager, `${I}/insured-objects/${id}`, 'PUT', {
      name: 'car',
      label: 'Car',
      version: 1,
    });
    expect(renamed.body.error).toBe('in_use');
    const relabelled = await call(manager, `${I}/insured-objects/${id}`, 'PUT', {
      name: 'vehicle',
      label: 'Car',
      version: 1,
    });
    expect(relabelled.status).toBe(200);
  });

  it('refuses bad input, non-drafts, other tenants and missing permissions', async () => {
    const { versionId } = await draftProduct();
    const post = (session: Session, body: unknown) =>
      call(session, `${I}/insured-objects`, 'POST', body);
    expect(
      (await post(manager, { productVersionId: versionId, insuredObjectTypeId: 999 })).body.message,
    ).toBe('insuredObjectTypeId: unknown insured object type');
    expect(
      (await post(manager, { productVersionId: versionId, name: 'Bad Name', label: 'x' })).status,
    ).toBe(400);
    expect((await post(manager, { productVersionId: versionId })).status).toBe(400);
    const { active } = await carProduct();
    const onActive = await post(admin, { productVersionId: active, insuredObjectTypeId: 9 });
    expect(onActive.status).toBe(409);
    expect(onActive.body.error).toBe('version_not_draft');
    const activeObjects = await call(
      admin,
      `${I}/insured-objects?filter=productVersionId=${active}`,
    );
    const vehicle = activeObjects.body.items.find((o: { name: string }) => o.name === 'vehicle');
    expect((await call(admin, `${I}/insured-objects/${vehicle.id}`, 'DELETE')).status).toBe(409);

    const foreign = await post(nord, { productVersionId: versionId, insuredObjectTypeId: 9 });
    expect(foreign.status).toBe(404);
    expect((await call(nord, `${I}/insured-objects/${vehicle.id}`)).status).toBe(404);
    expect(
      (
        await call(nord, `${I}/insured-objects/${vehicle.id}`, 'PUT', {
          name: 'x',
          label: 'x',
          version: 1,
        })
      ).status,
    ).toBe(404);
    expect((await call(nord, `${I}/insured-objects/${vehicle.id}`, 'DELETE')).status).toBe(404);

    const mine = await post(manager, { productVersionId: versionId, insuredObjectTypeId: 9 });
    for (const session of [viewer, care]) {
      expect(
        (await post(session, { productVersionId: versionId, insuredObjectTypeId: 10 })).status,
      ).toBe(403);
      expect(
        (await call(session, `${I}/insured-objects/${mine.body.insuredObject.id}`, 'DELETE'))
          .status,
      ).toBe(403);
    }
    const legacy = await userWithPermissions(
      kit.base,
      admin,
      'anna.albrecht0@demo.test',
      'legacy-objects',
      ['eis.products.view', 'eis.product-versions.update'],
    );
    expect(
      (await post(legacy, { productVersionId: versionId, insuredObjectTypeId: 10 })).status,
    ).toBe(201);
  });
});

describe('booking funnels', () => {
  const steps = [
    {
      title: 'Vehicle',
      fields: [
        { insuredObject: 'vehicle', field: 'vehicleValue' },
        { insuredObject: 'vehicle', field: 'vehicleType' },
      ],
    },
    { title: 'Start', fields: [{ insuredObject: 'default', field: 'policyStartDate' }] },
  ];

  it('creates a funnel, changes it by PUT and PATCH into new versions and deletes it', async () => {
    const created = await call(manager, `${I}/booking-funnels`, 'POST', {
      name: 'Car online',
      productSlug: 'car-comfort',
      steps,
    });
    expect(created.status).toBe(201);
    const funnel = created.body.bookingFunnel;
    expect(funnel).toMatchObject({
      name: 'Car online',
      productSlug: 'car-comfort',
      version: 1,
      productVersionId: null,
    });
    expect(funnel.code).toMatch(/^bfn_/);
    expect(funnel.versions.map((v: { version: number }) => v.version)).toEqual([1]);

    const replaced = await call(manager, `${I}/booking-funnels/${funnel.code}`, 'PUT', {
      name: 'Car online 2',
      steps: [steps[1]],
      version: 1,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.bookingFunnel).toMatchObject({ name: 'Car online 2', version: 2 });
    expect(replaced.body.bookingFunnel.steps).toHaveLength(1);
    const patched = await call(manager, `${I}/booking-funnels/${funnel.code}`, 'PATCH', {
      name: 'Car online 3',
      version: 2,
    });
    expect(patched.body.bookingFunnel).toMatchObject({ name: 'Car online 3', version: 3 });
    expect(patched.body.bookingFunnel.steps).toHaveLength(1);
    expect(patched.body.bookingFunnel.versions.map((v: { version: number }) => v.version)).toEqual([
      3, 2, 1,
    ]);

    const stale = await call(manager, `${I}/booking-funnels/${funnel.code}`, 'PATCH', {
      name: 'x',
      version: 2,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      bookingFunnel: { name: 'Car online 3', version: 3 },
    });

    const first = await call(viewer, `${I}/booking-funnels/${funnel.code}/versions/1`);
    expect(first.status).toBe(200);
    expect(first.body.bookingFunnel).toMatchObject({
      code: funnel.code,
      version: 1,
      name: 'Car online',
      steps,
    });
    expect((await call(viewer, `${I}/booking-funnels/${funnel.code}/versions/9`)).status).toBe(404);
    expect((await call(viewer, `${I}/booking-funnels/${funnel.code}/versions/x`)).status).toBe(404);

    const list = await call(viewer, `${I}/booking-funnels?filter=productSlug=car-comfort`);
    expect(list.body.items.map((f: { name: string }) => f.name)).toEqual([
      'Car online 3',
      'Kfz online',
    ]);
    const one = await call(viewer, `${I}/booking-funnels/${funnel.code}`);
    expect(one.body.bookingFunnel.version).toBe(3);

    expect((await call(manager, `${I}/booking-funnels/${funnel.code}`, 'DELETE')).status).toBe(204);
    expect((await call(viewer, `${I}/booking-funnels/${funnel.code}`)).status).toBe(404);
    expect((await call(viewer, `${I}/booking-funnels/${funnel.code}/versions/1`)).status).toBe(404);
  });

  it('checks the steps against the fields of the version the funnel sells', async () => {
    const post = (body: unknown) => call(manager, `${I}/booking-funnels`, 'POST', body);
    const unknownField = await post({
      name: 'x',
      productSlug: 'car-comfort',
      steps: [{ title: 'A', fields: [{ insuredObject: 'vehicle', field: 'colour' }] }],
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toBe(
      'steps.0.fields.0: vehicle.colour is not a field of the product version',
    );
    const twice = await post({
      name: 'x',
      productSlug: 'car-comfort',
      steps: [steps[0], steps[0]],
    });
    expect(twice.body.message).toBe('steps: a field appears in more than one place');
    expect((await post({ name: 'x', productSlug: 'car-comfort', steps: [] })).body.message).toBe(
      'steps: a funnel needs at least one step',
    );
    expect((await post({ name: '', productSlug: 'car-comfort', steps })).status).toBe(400);
    expect((await post({ name: 'x', productSlug: 'nothing', steps })).body.message).toBe(
      'productSlug: no such product',
    );
    const { product, versionId } = await draftProduct();
    // A new product's draft has only the default fields.
    const onDraft = await post({
      name: 'x',
      productSlug: product.slug,
      productVersionId: versionId,
      steps: [steps[1]],
    });
    expect(onDraft.status).toBe(201);
    const { active } = await carProduct();
    const otherProduct = await post({
      name: 'x',
      productSlug: product.slug,
      productVersionId: active,
      steps: [steps[1]],
    });
    expect(otherProduct.body.message).toBe('productVersionId: not a version of this product');
  });

  it("keeps other tenants' funnels out of reach and needs the product permissions", async () => {
    const created = await call(manager, `${I}/booking-funnels`, 'POST', {
      name: 'Mine',
      productSlug: 'car-comfort',
      steps,
    });
    const code = created.body.bookingFunnel.code;
    expect((await call(nord, `${I}/booking-funnels/${code}`)).status).toBe(404);
    expect((await call(nord, `${I}/booking-funnels/${code}/versions/1`)).status).toBe(404);
    expect(
      (await call(nord, `${I}/booking-funnels/${code}`, 'PATCH', { name: 'x', version: 1 })).status,
    ).toBe(404);
    expect(
      (
        await call(nord, `${I}/booking-funnels/${code}`, 'PUT', {
          name: 'x',
          steps,
          version: 1,
        })
      ).status,
    ).toBe(404);
    expect((await call(nord, `${I}/booking-funnels/${code}`, 'DELETE')).status).toBe(404);
    expect((await call(nord, `${I}/booking-funnels`)).body.items).toEqual([]);
    const foreignProduct = await call(nord, `${I}/booking-funnels`, 'POST', {
      name: 'x',
      productSlug: 'car-comfort',
      steps,
    });
    expect(foreignProduct.body.message).toBe('productSlug: no such product');

    for (const session of [viewer, care]) {
      expect(
        (
          await call(session, `${I}/booking-funnels`, 'POST', {
            name: 'x',
            productSlug: 'car-comfort',
            steps,
          })
        ).status,
      ).toBe(403);
      expect(
        (await call(session, `${I}/booking-funnels/${code}`, 'PATCH', { name: 'x', version: 1 }))
          .status,
      ).toBe(403);
      expect((await call(session, `${I}/booking-funnels/${code}`, 'DELETE')).status).toBe(403);
    }
    const noui = await login(kit.base, 'noui@demo.test');
    expect((await call(noui, `${I}/booking-funnels`)).status).toBe(403);
    expect((await call(viewer, `${I}/booking-funnels?filter=productId=x`)).status).toBe(400);
    expect((await call(viewer, `${I}/booking-funnels?order=steps`)).status).toBe(400);
  });
});

describe('product languages and translations', () => {
  const json = (texts: unknown) => JSON.stringify(texts, null, 2);
  const up = (session: Session, slug: string, language: string, name: string, text: string) =>
    apiUpload(kit.base, `${L}/product/${slug}/upload?language=${language}`, {
      token: session.accessToken,
      file: { name, text },
    });

  it('adds languages, uploads and downloads translations, and activates a complete language', async () => {
    const { product } = await draftProduct();
    const de = await call(manager, `${L}/languages`, 'POST', {
      productSlug: product.slug,
      language: 'de',
    });
    expect(de.status).toBe(201);
    expect(de.body.productLanguage).toMatchObject({
      productSlug: product.slug,
      language: 'de',
      isActive: false,
      translationStatus: 'none',
      version: 1,
    });
    const en = await call(manager, `${L}/languages`, 'POST', {
      productSlug: product.slug,
      language: 'en',
    });
    expect(
      (
        await call(manager, `${L}/languages`, 'POST', {
          productSlug: product.slug,
          language: 'en',
        })
      ).body.error,
    ).toBe('language_exists');
    const noTexts = await call(manager, `${L}/languages/${de.body.productLanguage.id}`, 'PUT', {
      isActive: true,
      version: 1,
    });
    expect(noTexts.status).toBe(409);
    expect(noTexts.body.error).toBe('no_translations');

    const uploaded = await up(
      manager,
      product.slug,
      'de',
      'de.json',
      json({ product: { name: 'Auto' }, 'vehicle.label': 'Fahrzeug' }),
    );
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.translations).toEqual([
      expect.objectContaining({ key: 'product.name', language: 'de', value: 'Auto' }),
      expect.objectContaining({ key: 'vehicle.label', language: 'de', value: 'Fahrzeug' }),
    ]);
    const partial = await up(
      manager,
      product.slug,
      'en',
      'en.csv',
      'key,value\nproduct.name,"Car, comfort"\n',
    );
    expect(partial.body.translations).toHaveLength(1);
    const languages = await call(manager, `${L}/languages?filter=productSlug=${product.slug}`);
    expect(
      languages.body.items.map(
        (l: { language: string; translationStatus: string; translationCount: number }) => [
          l.language,
          l.translationStatus,
          l.translationCount,
        ],
      ),
    ).toEqual([
      ['de', 'complete', 2],
      ['en', 'incomplete', 1],
    ]);

    const deNow = languages.body.items[0];
    const activated = await call(manager, `${L}/languages/${deNow.id}`, 'PUT', {
      isActive: true,
      version: deNow.version,
    });
    expect(activated.status).toBe(200);
    expect(activated.body.productLanguage.isActive).toBe(true);
    const stale = await call(manager, `${L}/languages/${deNow.id}`, 'PUT', {
      isActive: false,
      version: deNow.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      productLanguage: { isActive: true },
    });
    const active = await call(
      viewer,
      `${L}/languages?filter=productSlug=${product.slug}%26isActive=true`,
    );
    expect(active.status).toBe(403); // the viewer has no translations permission

    const fileJson = await fetch(`${kit.base}${L}/product/${product.slug}/download?language=de`, {
      headers: { authorization: `Bearer ${manager.accessToken}` },
    });
    expect(fileJson.status).toBe(200);
    expect(fileJson.headers.get('content-disposition')).toBe(
      `attachment; filename="${product.slug}-de.json"`,
    );
    expect(await fileJson.json()).toEqual({ 'product.name': 'Auto', 'vehicle.label': 'Fahrzeug' });
    const fileCsv = await fetch(
      `${kit.base}${L}/product/${product.slug}/download?language=en&format=csv`,
      {
        headers: { authorization: `Bearer ${manager.accessToken}` },
      },
    );
    expect(await fileCsv.text()).toBe('key,value\r\nproduct.name,"Car, comfort"\r\n');
    expect(en.status).toBe(201);

    // A new upload is the whole set: the en file completes the language.
    await up(
      manager,
      product.slug,
      'en',
      'en.json',
      json({ 'product.name': 'Car', 'vehicle.label': 'Vehicle', extra: 'x' }),
    );
    const after = await call(
      manager,
      `${L}/languages?filter=productSlug=${product.slug}%26language=en`,
    );
    expect(after.body.items[0]).toMatchObject({
      translationStatus: 'complete',
      translationCount: 3,
    });
  });

  it('lists the problems of a bad translation file with their lines', async () => {
    const { product } = await draftProduct();
    await call(manager, `${L}/languages`, 'POST', {
      productSlug: product.slug,
      language: 'pl',
    });
    const csv = await up(
      manager,
      product.slug,
      'pl',
      'pl.csv',
      'key,value\nok,Dobrze\nbad key,x\nok,again\nlonely\n',
    );
    expect(csv.status).toBe(400);
    expect(csv.body.problems.map((p: { line: number; code: string }) => [p.line, p.code])).toEqual([
      [3, 'bad_key'],
      [4, 'duplicate_key'],
      [5, 'wrong_column_count'],
    ]);
    const header = await up(manager, product.slug, 'pl', 'pl.csv', 'name;text\n');
    expect(header.body.problems[0]).toMatchObject({ line: 1, code: 'header_key_value' });
    const broken = await up(manager, product.slug, 'pl', 'pl.json', '{\n  "a": "b",\n  "c": \n}');
    expect(broken.body.problems).toEqual([
      expect.objectContaining({ line: 4, code: 'invalid_json' }),
    ]);
    const numbers = await up(
      manager,
      product.slug,
      'pl',
      'pl.json',
      '{\n  "a": "b",\n  "count": 3\n}',
    );
    expect(numbers.body.problems).toEqual([
      expect.objectContaining({ line: 3, code: 'not_text', value: 'count' }),
    ]);
    const empty = await up(manager, product.slug, 'pl', 'pl.json', '{}');
    expect(empty.body.problems[0].code).toBe('no_translations');
    const list = await call(manager, `${L}/languages?filter=productSlug=${product.slug}`);
    expect(list.body.items[0].translationCount).toBe(0);
  });

  it('refuses unknown languages and products, other tenants and missing permissions', async () => {
    const file = json({ a: 'b' });
    expect((await up(manager, 'car-comfort', 'fr', 'fr.json', file)).status).toBe(404);
    expect((await up(manager, 'car-comfort', 'french', 'fr.json', file)).status).toBe(400);
    expect((await up(manager, 'nothing', 'de', 'de.json', file)).body.message).toBe(
      "Can't load productId",
    );
    expect(
      (
        await call(manager, `${L}/languages`, 'POST', {
          productSlug: 'car-comfort',
          language: 'DEU',
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(manager, `${L}/product/car-comfort/download?language=de&format=xml`)).status,
    ).toBe(400);

    // The seeded car product speaks German, English and Polish, each complete and active.
    const seeded = await call(manager, `${L}/languages?filter=productSlug=car-comfort`);
    expect(
      seeded.body.items.map(
        (l: { language: string; isActive: boolean; translationStatus: string }) => [
          l.language,
          l.isActive,
          l.translationStatus,
        ],
      ),
    ).toEqual([
      ['de', true, 'complete'],
      ['en', true, 'complete'],
      ['pl', true, 'complete'],
    ]);
    const de = seeded.body.items[0];
    expect((await call(nord, `${L}/languages?filter=productSlug=car-comfort`)).body.items).toEqual(
      [],
    );
    expect((await up(nord, 'car-comfort', 'de', 'de.json', file)).status).toBe(404);
    expect((await call(nord, `${L}/product/car-comfort/download?language=de`)).status).toBe(404);
    expect(
      (
        await call(nord, `${L}/languages/${de.id}`, 'PUT', {
          isActive: false,
          version: de.version,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(nord, `${L}/languages`, 'POST', {
          productSlug: 'car-comfort',
          language: 'pl',
        })
      ).status,
    ).toBe(404);

    for (const session of [viewer, care]) {
      expect((await call(session, `${L}/languages`)).status).toBe(403);
      expect((await up(session, 'car-comfort', 'de', 'de.json', file)).status).toBe(403);
      expect((await call(session, `${L}/product/car-comfort/download?language=de`)).status).toBe(
        403,
      );
    }
    const reader = await userWithPermissions(
      kit.base,
      admin,
      'carla.otto2@demo.test',
      'legacy-translations',
      ['eis.translations.view'],
    );
    expect((await call(reader, `${L}/languages`)).status).toBe(200);
    expect((await up(reader, 'car-comfort', 'de', 'de.json', file)).status).toBe(403);
    expect(
      (
        await call(reader, `${L}/languages/${de.id}`, 'PUT', {
          isActive: false,
          version: de.version,
        })
      ).status,
    ).toBe(403);
  });
});

describe('product settings', () => {
  const css = 'bf_custom_css_car-comfort';
  const label = 'summary_label_setting_car-comfort';

  it('lets a product manager keep the product keys of the tenant settings, and nothing else', async () => {
    const saved = await call(manager, `${T}/settings/tenant`, 'POST', {
      key: css,
      value: '.bf-step { color: #333; }',
    });
    expect(saved.status).toBe(200);
    const labelled = await call(manager, `${T}/settings/tenant`, 'POST', {
      key: label,
      value: '  Ihr Beitrag ',
    });
    expect(labelled.body.value).toBe('Ihr Beitrag');
    const read = await call(viewer, `${T}/settings/tenant?keys=${css},${label}`);
    expect(read.status).toBe(200);
    expect(read.body.values.map((v: { value: unknown }) => v.value)).toEqual([
      '.bf-step { color: #333; }',
      'Ihr Beitrag',
    ]);
    // Other settings stay the tenant administrator's: the product permission reads only product keys.
    const productsOnly = await userWithPermissions(
      kit.base,
      admin,
      'finn.meyer5@demo.test',
      'products-only',
      ['ui.eis.view', 'eis.products.view'],
    );
    expect((await call(productsOnly, `${T}/settings/tenant?keys=${css},${label}`)).status).toBe(
      200,
    );
    expect(
      (await call(productsOnly, `${T}/settings/tenant?keys=${css},dashboardAlert`)).status,
    ).toBe(403);
    expect(
      (
        await call(manager, `${T}/settings/tenant`, 'POST', {
          key: 'dashboardAlert',
          value: 'x',
        })
      ).status,
    ).toBe(403);
    expect((await call(care, `${T}/settings/tenant`, 'POST', { key: css, value: '' })).status).toBe(
      403,
    );
    const noui = await login(kit.base, 'noui@demo.test');
    expect((await call(noui, `${T}/settings/tenant?keys=${css}`)).status).toBe(403);
    // The admin (tenant settings) may as well.
    expect(
      (await call(admin, `${T}/settings/tenant`, 'POST', { key: label, value: null })).status,
    ).toBe(200);
  });

  it('refuses CSS that loads or breaks out, long labels and unknown products', async () => {
    const post = (key: string, value: unknown) =>
      call(manager, `${T}/settings/tenant`, 'POST', { key, value });
    expect((await post(css, '@import "https://evil.test/x.css";')).body.message).toBe(
      'value: CSS may not load anything (@import, url(), expression())',
    );
    expect((await post(css, 'body { background: url(https://evil.test/) }')).status).toBe(400);
    expect((await post(css, '</style><script>alert(1)</script>')).body.message).toBe(
      'value: CSS may not contain <',
    );
    expect((await post(css, '.a { color: red;')).body.message).toBe(
      'value: the braces { } of the CSS do not pair',
    );
    expect((await post(css, 42)).status).toBe(400);
    expect((await post(label, 'x'.repeat(101))).status).toBe(400);
    expect((await post('bf_custom_css_nothing', '')).body.message).toBe('key: no product nothing');
    // Another tenant's product is no product of this one.
    const nordCss = await call(nord, `${T}/settings/tenant`, 'POST', { key: css, value: '' });
    expect(nordCss.status).toBe(400);
    const nordRead = await call(nord, `${T}/settings/tenant?keys=${css}`);
    expect(nordRead.body.values[0].value).toBeNull();
  });
});
