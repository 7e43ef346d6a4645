import { describe, expect, it } from 'vitest';
import {
  api,
  apiUpload,
  login,
  userWithPermissions,
  type Session,
} from '#server/sandbox/testing.ts';
import { PRODUCT_USERS, withSandbox } from '#tests/support/sandbox.ts';
import { loadTariffs, premiumOf } from '#server/sandbox/services/insurance/premium.ts';

const kit = withSandbox(PRODUCT_USERS);
const { admin, manager, viewer, care, nord } = kit.sessions;

const I = '/insuranceservice/v1';

const call = (session: Session, route: string, method = 'GET', body?: unknown) =>
  api(kit.base, I + route, { token: session.accessToken, method, body });

const upload = (
  session: Session,
  route: string,
  fields: Record<string, string>,
  text: string | null,
  name = 'factors.csv',
) =>
  apiUpload(kit.base, I + route, {
    token: session.accessToken,
    fields,
    ...(text === null ? {} : { file: { name, text } }),
  });

let counter = 0;
/** A draft version of a product of its own, with a number field `age` and a text field `zip`. */
async function draftVersion() {
  counter += 1;
  const product = await call(manager, '/products', 'POST', {
    name: `Lookup product ${counter}`,
    category: 'custom',
  });
  const version = await call(manager, '/product-versions', 'POST', {
    productId: product.body.product.id,
  });
  const versionId: number = version.body.productVersion.id;
  const objects = await call(manager, `/insured-objects?filter=productVersionId=${versionId}`);
  const defaultId = objects.body.items[0].id;
  for (const [name, type] of [
    ['age', 'number'],
    ['zip', 'string'],
  ]) {
    const field = await call(manager, '/product-fields', 'POST', {
      insuredObjectId: defaultId,
      name,
      label: name,
      type,
    });
    expect(field.status).toBe(201);
  }
  return { productId: product.body.product.id as number, versionId };
}

/** The demo car product's active version (seeded with the table `region` and range `driverAge`). */
async function activeCarVersion(session: Session = viewer): Promise<number> {
  const res = await call(session, '/products?filter=slug=car-comfort&expand=versions');
  return res.body.items[0].versions.find((v: { status: string }) => v.status === 'active').id;
}

async function demoTenantId(): Promise<number> {
  const [row] = await kit.db().query<{ id: number }>("SELECT id FROM tenants WHERE slug = 'demo'");
  return row!.id;
}

const GOOD = 'zip,value\n10115,1.2\n20095,0.9\n*,1\n';

describe('product factors: validate and upload', () => {
  it('validates a good file without saving it, then saves it and answers it newest first', async () => {
    const { versionId } = await draftVersion();
    const fields = { productVersionId: String(versionId), name: 'region' };
    const checked = await upload(manager, '/product-factors/validate', fields, GOOD);
    expect(checked.status).toBe(200);
    expect(checked.body.summary).toMatchObject({
      productVersionId: versionId,
      name: 'region',
      keyColumns: ['zip'],
      rowCount: 3,
      replacesId: null,
    });
    expect(checked.body.summary.preview[0]).toEqual({ keys: ['10115'], value: 1.2 });
    const none = await call(viewer, `/product-factors?filter=productVersionId=${versionId}`);
    expect(none.body).toEqual({ items: [], nextPageToken: null });

    const saved = await upload(manager, '/product-factors', fields, GOOD);
    expect(saved.status).toBe(201);
    expect(saved.body.productFactor).toMatchObject({
      name: 'region',
      rowCount: 3,
      filename: 'factors.csv',
    });
    expect(saved.body.productFactor.code).toMatch(/^pfa_/);

    const other = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'bonus' },
      'age;zip;value\n30;10115;1,05\n*;*;1\n',
    );
    expect(other.status).toBe(201);
    expect(other.body.productFactor.keyColumns).toEqual(['age', 'zip']);

    // The cache check: one item, the newest change first.
    const newest = await call(
      viewer,
      `/product-factors?filter=productVersionId=${versionId}&pageSize=1`,
    );
    expect(newest.body.items.map((f: { name: string }) => f.name)).toEqual(['bonus']);
    expect(newest.body.nextPageToken).toBe('2');

    // Uploading the same name again replaces the table and makes it the newest.
    const replaced = await upload(manager, '/product-factors', fields, 'zip,value\n*,1.5\n');
    expect(replaced.status).toBe(200);
    expect(replaced.body.productFactor.id).toBe(saved.body.productFactor.id);
    expect(replaced.body.productFactor.rowCount).toBe(1);
    const again = await call(
      viewer,
      `/product-factors?filter=productVersionId=${versionId}&pageSize=1`,
    );
    expect(again.body.items[0].name).toBe('region');
    expect(Date.parse(again.body.items[0].updatedAt)).toBeGreaterThan(
      Date.parse(newest.body.items[0].updatedAt),
    );
    const revalidated = await upload(manager, '/product-factors/validate', fields, GOOD);
    expect(revalidated.body.summary.replacesId).toBe(saved.body.productFactor.id);

    const values = await call(viewer, `/product-factors/for-version?productVersionId=${versionId}`);
    expect(values.status).toBe(200);
    expect(Object.keys(values.body.values).sort()).toEqual(['bonus', 'region']);
    expect(values.body.values.bonus.rows).toEqual([
      { keys: ['30', '10115'], value: 1.05 },
      { keys: ['*', '*'], value: 1 },
    ]);
    const some = await call(
      viewer,
      `/product-factors/for-version?productVersionId=${versionId}&values=region,nothing`,
    );
    expect(Object.keys(some.body.values)).toEqual(['region']);
  });

  it('lists every problem of a bad file with its line number', async () => {
    const { versionId } = await draftVersion();
    const bad = [
      'zip,value',
      '10115,1.2',
      '20095,abc',
      ',1.1',
      '10115,1.3',
      '30000,1,2',
      '',
      '"40000,0.8',
    ].join('\n');
    const res = await upload(
      manager,
      '/product-factors/validate',
      { productVersionId: String(versionId), name: 'region' },
      bad,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_file');
    expect(res.body.message).toMatch(/^5 problems: line 3: value "abc" is not a number/);
    expect(res.body.problems.map((p: { line: number; code: string }) => [p.line, p.code])).toEqual([
      [3, 'not_a_number'],
      [4, 'empty_key'],
      [5, 'duplicate_key'],
      [6, 'wrong_column_count'],
      [8, 'unterminated_quote'],
    ]);
    expect(res.body.problems[2]).toMatchObject({ otherLine: 2, value: '10115' });
    expect(res.body.problems[3]).toMatchObject({ expected: 2, found: 3 });

    const header = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'region' },
      'zip code,zip,zip,amount\n',
    );
    expect(header.status).toBe(400);
    expect(header.body.problems.map((p: { code: string }) => p.code)).toEqual([
      'header_no_value',
      'bad_column_name',
      'duplicate_column',
      'no_rows',
    ]);
    const empty = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'x' },
      '',
    );
    expect(empty.body.problems).toEqual([expect.objectContaining({ line: 1, code: 'empty_file' })]);
    // Nothing of it was saved.
    const list = await call(viewer, `/product-factors?filter=productVersionId=${versionId}`);
    expect(list.body.items).toEqual([]);
  });

  it('refuses a form without multipart, file, version or a good name', async () => {
    const { versionId } = await draftVersion();
    const json = await call(manager, '/product-factors', 'POST', {
      productVersionId: versionId,
    });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_form');
    const noFile = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'a' },
      null,
    );
    expect(noFile.body).toMatchObject({
      error: 'invalid_form',
      message: 'file: the form has no file',
    });
    const noVersion = await upload(manager, '/product-factors', { name: 'a' }, GOOD);
    expect(noVersion.body).toMatchObject({ error: 'validation_error' });
    expect(noVersion.body.message).toMatch(/^productVersionId/);
    const badName = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: '1 region' },
      GOOD,
    );
    expect(badName.status).toBe(400);
    expect(badName.body.message).toMatch(/^name:/);
    const huge = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'big' },
      `zip,value\n${'10115,1.2\n'.repeat(110_000)}`,
    );
    expect(huge.status).toBe(413);
    const unknown = await upload(
      manager,
      '/product-factors',
      { productVersionId: '999999', name: 'a' },
      GOOD,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Can't load factors for productVersionId");
  });

  it('changes only the factors of a draft version', async () => {
    const carVersion = await activeCarVersion();
    const fields = { productVersionId: String(carVersion), name: 'region' };
    for (const route of ['/product-factors/validate', '/product-factors']) {
      const res = await upload(admin, route, fields, GOOD);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('version_not_draft');
    }
    const list = await call(admin, `/product-factors?filter=productVersionId=${carVersion}`);
    expect(list.body.items.map((f: { name: string }) => f.name)).toEqual(['region']);
    const removed = await call(admin, `/product-factors/${list.body.items[0].id}`, 'DELETE');
    expect(removed.status).toBe(409);
  });

  it("keeps other tenants' factors out of reach, as if they did not exist", async () => {
    const carVersion = await activeCarVersion();
    const { versionId } = await draftVersion();
    const saved = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'region' },
      GOOD,
    );
    const fields = { productVersionId: String(versionId), name: 'region' };
    expect((await upload(nord, '/product-factors', fields, GOOD)).status).toBe(404);
    expect((await upload(nord, '/product-factors/validate', fields, GOOD)).status).toBe(404);
    const list = await call(nord, `/product-factors?filter=productVersionId=${carVersion}`);
    expect(list.status).toBe(404);
    expect(list.body.message).toBe("Can't load factors for productVersionId");
    const values = await call(nord, `/product-factors/for-version?productVersionId=${carVersion}`);
    expect(values.status).toBe(404);
    const removed = await call(nord, `/product-factors/${saved.body.productFactor.id}`, 'DELETE');
    expect(removed.status).toBe(404);
    expect(
      (await call(viewer, `/product-factors?filter=productVersionId=${versionId}`)).body.items,
    ).toHaveLength(1);
  });

  it('needs the version update permission to change and the product view permission to read', async () => {
    const { versionId } = await draftVersion();
    const fields = { productVersionId: String(versionId), name: 'region' };
    for (const session of [viewer, care]) {
      expect((await upload(session, '/product-factors', fields, GOOD)).status).toBe(403);
      expect((await upload(session, '/product-factors/validate', fields, GOOD)).status).toBe(403);
    }
    const noui = await login(kit.base, 'noui@demo.test');
    expect((await call(noui, `/product-factors?filter=productVersionId=${versionId}`)).status).toBe(
      403,
    );
    expect((await call(noui, `/named-ranges?filter=productVersionId=${versionId}`)).status).toBe(
      403,
    );
    const legacy = await userWithPermissions(
      kit.base,
      admin,
      'anna.albrecht0@demo.test',
      'legacy-lookups',
      ['eis.products.view', 'eis.product-versions.update'],
    );
    const saved = await upload(legacy, '/product-factors', fields, GOOD);
    expect(saved.status).toBe(201);
    expect(
      (await call(legacy, `/product-factors/${saved.body.productFactor.id}`, 'DELETE')).status,
    ).toBe(204);
    const range = await call(legacy, '/named-ranges', 'POST', {
      productVersionId: versionId,
      name: 'age',
      bands: [{ from: 0, to: null, value: 1 }],
    });
    expect(range.status).toBe(201);
  });

  it('answers bad list and lookup queries with 400', async () => {
    expect((await call(viewer, '/product-factors')).status).toBe(400);
    expect((await call(viewer, '/product-factors?filter=productVersionId=x')).status).toBe(400);
    expect((await call(viewer, '/product-factors/for-version')).status).toBe(400);
    const carVersion = await activeCarVersion();
    const bad = await call(
      viewer,
      `/product-factors/for-version?productVersionId=${carVersion}&values=a b`,
    );
    expect(bad.status).toBe(400);
    expect((await call(viewer, '/named-ranges')).status).toBe(400);
    expect(
      (await call(viewer, `/named-ranges?filter=productVersionId=${carVersion}&pageSize=x`)).status,
    ).toBe(400);
  });
});

describe('named ranges', () => {
  it('creates, lists with the spec page size, edits with the based-on version and deletes', async () => {
    const { versionId } = await draftVersion();
    const created = await call(manager, '/named-ranges', 'POST', {
      productVersionId: versionId,
      name: 'age',
      bands: [
        { from: 18, to: 25, value: 1.3 },
        { from: 25, to: null, value: 1 },
      ],
    });
    expect(created.status).toBe(201);
    const range = created.body.namedRange;
    expect(range).toMatchObject({ name: 'age', version: 1, productVersionId: versionId });
    expect(range.code).toMatch(/^nra_/);
    const list = await call(
      viewer,
      `/named-ranges?filter=productVersionId=${versionId}&pageSize=1000000`,
    );
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: { id: number }) => r.id)).toEqual([range.id]);

    const edited = await call(manager, `/named-ranges/${range.id}`, 'PUT', {
      name: 'driverAge',
      bands: [{ from: 18, to: null, value: 1.1 }],
      version: 1,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.namedRange).toMatchObject({ name: 'driverAge', version: 2 });
    const stale = await call(manager, `/named-ranges/${range.id}`, 'PUT', {
      name: 'age',
      bands: [{ from: 0, to: null, value: 2 }],
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.namedRange).toMatchObject({ name: 'driverAge', version: 2 });

    const duplicate = await call(manager, '/named-ranges', 'POST', {
      productVersionId: versionId,
      name: 'driverAge',
      bands: [{ from: 0, to: 1, value: 1 }],
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('name_taken');

    expect((await call(manager, `/named-ranges/${range.id}`, 'DELETE')).status).toBe(204);
    expect((await call(manager, `/named-ranges/${range.id}`, 'DELETE')).status).toBe(404);
  });

  it('refuses overlapping and reversed bands with the band named', async () => {
    const { versionId } = await draftVersion();
    const post = (bands: unknown) =>
      call(manager, '/named-ranges', 'POST', {
        productVersionId: versionId,
        name: 'age',
        bands,
      });
    const overlap = await post([
      { from: 18, to: 30, value: 1 },
      { from: 25, to: 40, value: 2 },
    ]);
    expect(overlap.status).toBe(400);
    expect(overlap.body.message).toBe('bands.1: band 2 overlaps band 1');
    const open = await post([
      { from: 50, to: 60, value: 1 },
      { from: 18, to: null, value: 2 },
    ]);
    expect(open.body.message).toBe('bands.1: band 2 overlaps band 1');
    const reversed = await post([{ from: 30, to: 20, value: 1 }]);
    expect(reversed.body.message).toBe('bands.0: from must be below to');
    const none = await post([]);
    expect(none.body.message).toBe('bands: at least one band');
    const text = await post([{ from: '1', to: 2, value: 1 }]);
    expect(text.status).toBe(400);
    // Touching bands and gaps are fine.
    const ok = await post([
      { from: 18, to: 25, value: 1 },
      { from: 30, to: 40, value: 2 },
      { from: 25, to: 30, value: 3 },
    ]);
    expect(ok.status).toBe(201);
  });

  it('changes only a draft, only in the own tenant, only with the permission', async () => {
    const carVersion = await activeCarVersion();
    const seeded = await call(admin, `/named-ranges?filter=productVersionId=${carVersion}`);
    const driverAge = seeded.body.items.find((r: { name: string }) => r.name === 'driverAge');
    expect(driverAge.bands).toHaveLength(3);
    const body = {
      name: 'driverAge',
      bands: [{ from: 0, to: null, value: 1 }],
      version: driverAge.version,
    };
    expect((await call(admin, `/named-ranges/${driverAge.id}`, 'PUT', body)).body.error).toBe(
      'version_not_draft',
    );
    expect((await call(admin, `/named-ranges/${driverAge.id}`, 'DELETE')).status).toBe(409);
    const created = await call(admin, '/named-ranges', 'POST', {
      productVersionId: carVersion,
      name: 'other',
      bands: [{ from: 0, to: null, value: 1 }],
    });
    expect(created.status).toBe(409);

    expect((await call(nord, `/named-ranges?filter=productVersionId=${carVersion}`)).status).toBe(
      404,
    );
    expect((await call(nord, `/named-ranges/${driverAge.id}`, 'PUT', body)).status).toBe(404);
    expect((await call(nord, `/named-ranges/${driverAge.id}`, 'DELETE')).status).toBe(404);
    const { versionId } = await draftVersion();
    const foreign = await call(nord, '/named-ranges', 'POST', {
      ...body,
      productVersionId: versionId,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Can't load named ranges for productVersionId");

    const mine = await call(manager, '/named-ranges', 'POST', {
      ...body,
      productVersionId: versionId,
    });
    for (const session of [viewer, care]) {
      expect(
        (await call(session, '/named-ranges', 'POST', { ...body, productVersionId: versionId }))
          .status,
      ).toBe(403);
      expect(
        (
          await call(session, `/named-ranges/${mine.body.namedRange.id}`, 'PUT', {
            ...body,
            version: 1,
          })
        ).status,
      ).toBe(403);
      expect(
        (await call(session, `/named-ranges/${mine.body.namedRange.id}`, 'DELETE')).status,
      ).toBe(403);
    }
  });
});

describe('formulas with lookups', () => {
  it('accepts factor() and range() only for tables and ranges of the version, with the right keys', async () => {
    const { versionId } = await draftVersion();
    const formula = (expression: string) =>
      call(manager, '/premium-formulas', 'POST', {
        productVersionId: versionId,
        group: 'G',
        name: `F ${expression.length}`,
        unit: 'year',
        expression,
      });
    const unknownTable = await formula("100 * factor('region', zip)");
    expect(unknownTable.status).toBe(400);
    expect(unknownTable.body.message).toBe(
      'Invalid expression: unknown factor table "region" at position 7',
    );
    const unknownRange = await formula("range('age', age)");
    expect(unknownRange.body.message).toBe(
      'Invalid expression: unknown named range "age" at position 1',
    );
    const notLiteral = await formula('factor(zip, zip)');
    expect(notLiteral.body.message).toBe(
      'Invalid expression: the first argument of factor must be a factor table name in quotes at position 1',
    );

    await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'region' },
      GOOD,
    );
    await call(manager, '/named-ranges', 'POST', {
      productVersionId: versionId,
      name: 'age',
      bands: [
        { from: 0, to: 25, value: 1.5 },
        { from: 25, to: null, value: 1 },
      ],
    });
    const wrongKeys = await formula("factor('region', zip, age)");
    expect(wrongKeys.body.message).toBe(
      'Invalid expression: factor "region" takes 1 key (zip), not 2 at position 1',
    );
    const ok = await formula("100 * factor('region', zip) * range('age', age)");
    expect(ok.status).toBe(201);

    // What a formula reads cannot go away or change its keys.
    const list = await call(viewer, `/product-factors?filter=productVersionId=${versionId}`);
    const inUse = await call(manager, `/product-factors/${list.body.items[0].id}`, 'DELETE');
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({
      error: 'in_use',
      message: `the factor table region is used by the premium formula ${ok.body.premiumFormula.name}`,
    });
    const twoKeys = await upload(
      manager,
      '/product-factors',
      { productVersionId: String(versionId), name: 'region' },
      'zip,age,value\n*,*,1\n',
    );
    expect(twoKeys.status).toBe(409);
    expect(twoKeys.body.error).toBe('in_use');
    const ranges = await call(viewer, `/named-ranges?filter=productVersionId=${versionId}`);
    const range = ranges.body.items[0];
    expect((await call(manager, `/named-ranges/${range.id}`, 'DELETE')).status).toBe(409);
    const renamed = await call(manager, `/named-ranges/${range.id}`, 'PUT', {
      name: 'ages',
      bands: range.bands,
      version: range.version,
    });
    expect(renamed.status).toBe(409);
    // New bands under the same name are fine.
    const rebanded = await call(manager, `/named-ranges/${range.id}`, 'PUT', {
      name: 'age',
      bands: [{ from: 0, to: null, value: 2 }],
      version: range.version,
    });
    expect(rebanded.status).toBe(200);

    // The premium of the version reads its own tables and ranges, without the caller passing any.
    const [tariff] = await loadTariffs(kit.db(), await demoTenantId(), 'v.id = $2', [versionId]);
    const premium = premiumOf(tariff!, [{ name: 'default', data: { age: 30, zip: '10115' } }]);
    expect(premium.premiumItems.map((i) => i.total)).toEqual([240]);
    const fallback = premiumOf(tariff!, [{ name: 'default', data: { age: 30, zip: '99999' } }]);
    expect(fallback.grandTotal).toBe(200);
  });

  it('evaluates the seeded car tariff with its regional factor and age bands', async () => {
    const carVersion = await activeCarVersion();
    const [tariff] = await loadTariffs(kit.db(), await demoTenantId(), 'v.id = $2', [carVersion]);
    const data = (zipCode: string, birthDate: string) => [
      { name: 'default', data: { policyStartDate: '2026-01-01' } },
      { name: 'vehicle', data: { vehicleValue: 10000, vehicleType: 'car', isCommercial: false } },
      { name: 'driver', data: { birthDate, sfClass: 0, zipCode } },
    ];
    // Base 120; a 30-year-old in Berlin: 120 * (1.15 * 1 - 1) = 18.
    const berlin = premiumOf(tariff!, data('10115', '1995-06-01'));
    expect(berlin.premiumItems.at(-1)!.total).toBe(18);
    // A 20-year-old elsewhere: the young driver surcharge and 120 * (1 * 1.25 - 1) = 30.
    const young = premiumOf(tariff!, data('99999', '2005-06-01'));
    expect(young.premiumItems.at(-1)!.total).toBe(30);
  });
});
