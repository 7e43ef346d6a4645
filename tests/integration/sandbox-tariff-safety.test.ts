import { beforeAll, describe, expect, it } from 'vitest';
import { api, type Session } from '#server/sandbox/testing.ts';
import { PRODUCT_USERS, withSandbox } from '#tests/support/sandbox.ts';

/**
 * Issue 15, points 1 and 2: a premium formula is checked when it is saved (names, types,
 * constant errors, with the position as data), a policy whose data makes a formula fail is
 * refused with that formula named (never a 500), and a version whose premium cannot be computed
 * over sample data cannot be activated.
 */

const kit = withSandbox(PRODUCT_USERS);
const { manager, viewer, nord } = kit.sessions;
const I = '/insuranceservice/v1';

const call = (session: Session, route: string, method = 'GET', body?: unknown) =>
  api(kit.base, I + route, { token: session.accessToken, method, body });

interface Draft {
  productId: number;
  versionId: number;
  objects: Record<string, { id: number; fields: { id: number; name: string }[] }>;
}

let carProductId: number;
let carActiveId: number;

beforeAll(async () => {
  const products = await call(viewer, '/products?pageSize=50&expand=versions');
  const car = products.body.items.find((p: { slug: string }) => p.slug === 'car-comfort');
  carProductId = car.id;
  carActiveId = car.versions.find((v: { status: string }) => v.status === 'active').id;
});

/** A draft copied from the active car tariff (its objects, fields, formulas, factors, ranges). */
async function carDraft(): Promise<Draft> {
  const created = await call(manager, '/product-versions', 'POST', {
    productId: carProductId,
    description: 'trial',
    copyFromVersionId: carActiveId,
  });
  expect(created.status).toBe(201);
  const versionId = created.body.productVersion.id;
  const objects = await call(
    manager,
    `/insured-objects?filter=productVersionId=${versionId}&expand=productFields`,
  );
  return {
    productId: carProductId,
    versionId,
    objects: Object.fromEntries(
      objects.body.items.map(
        (o: Draft['objects'][string] & { name: string; productFields: [] }) => [
          o.name,
          { id: o.id, fields: o.productFields },
        ],
      ),
    ),
  };
}

const addFormula = (draft: Draft, expression: string, name = 'Trial') =>
  call(manager, '/premium-formulas', 'POST', {
    productVersionId: draft.versionId,
    group: 'Trial',
    name,
    unit: 'year',
    expression,
  });

const addDivisor = (draft: Draft, defaultValue: number | null = null) =>
  call(manager, '/product-fields', 'POST', {
    insuredObjectId: draft.objects.vehicle!.id,
    name: 'divisor',
    label: 'Divisor',
    type: 'number',
    defaultValue,
  });

const activate = (versionId: number) =>
  call(manager, `/product-versions/${versionId}`, 'PUT', { status: 'active' });

describe('formula check at save', () => {
  it('refuses the three formulas that saved before, each with its code and position', async () => {
    const draft = await carDraft();
    const zero = await addFormula(draft, 'vehicle.vehicleValue / 0');
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({
      error: 'invalid_expression',
      issues: [{ path: 'expression', code: 'division_by_zero', position: 21, name: '/' }],
    });
    const huge = await addFormula(draft, '10 ^ 400');
    expect(huge.status).toBe(400);
    expect(huge.body.issues).toEqual([
      { path: 'expression', code: 'not_finite', position: 3, name: 'result' },
    ]);
    const text = await addFormula(draft, 'vehicle.vehicleType * 2');
    expect(text.status).toBe(400);
    expect(text.body.issues).toEqual([
      { path: 'expression', code: 'type_error', position: 20, name: '*' },
    ]);
    expect(text.body.message).toBe(
      'Invalid expression: * cannot be used with a value of this type at position 21',
    );
  });

  it('accepts names of the version only: fields, earlier formulas, factor tables, named ranges', async () => {
    const draft = await carDraft();
    const unknown = await addFormula(draft, 'vehicle.colour * 2');
    expect(unknown.body.issues).toEqual([
      { path: 'expression', code: 'unknown_name', position: 0, name: 'vehicle.colour' },
    ]);
    const table = await addFormula(draft, "factor('zone', driver.zipCode)");
    expect(table.body.issues).toEqual([
      { path: 'expression', code: 'unknown_factor', position: 0, name: 'zone' },
    ]);
    const syntax = await addFormula(draft, 'basePremium * * 2');
    expect(syntax.body.issues).toEqual([
      { path: 'expression', code: 'unexpected_token', position: 14, name: '*' },
    ]);
    const good = await addFormula(
      draft,
      "basePremium * factor('region', driver.zipCode) * range('driverAge', 30) + vehicle.vehicleValue / 1000",
    );
    expect(good.status).toBe(201);
  });
});

describe('a formula that fails over one policy’s data', () => {
  it('is a 422 naming the formula and why, not a 500', async () => {
    const draft = await carDraft();
    expect((await addDivisor(draft)).status).toBe(201);
    expect(
      (await addFormula(draft, 'vehicle.vehicleValue / vehicle.divisor', 'Per divisor')).status,
    ).toBe(201);
    const objects = (divisor: number) => [
      {
        insuredObjectId: draft.objects.default!.id,
        data: { policyStartDate: '2026-12-01', policyDurationUnit: 'year', policyDurationValue: 1 },
      },
      {
        insuredObjectId: draft.objects.vehicle!.id,
        data: { vehicleValue: 20000, vehicleType: 'car', isCommercial: false, divisor },
      },
      {
        insuredObjectId: draft.objects.driver!.id,
        data: { birthDate: '1990-06-15', sfClass: 10, zipCode: '10115' },
      },
    ];
    const fine = await call(viewer, '/premiums/calculate', 'POST', {
      productVersionId: draft.versionId,
      policyObjects: objects(4),
    });
    expect(fine.status).toBe(200);
    const zero = await call(viewer, '/premiums/calculate', 'POST', {
      productVersionId: draft.versionId,
      policyObjects: objects(0),
    });
    expect(zero.status).toBe(422);
    expect(zero.body).toMatchObject({
      error: 'calculation_failed',
      issues: [{ path: 'premium', code: 'division_by_zero', formula: 'Per divisor', position: 21 }],
    });
    expect(zero.body.message).toBe(
      'the premium formula "Per divisor" cannot be computed: division_by_zero at position 22',
    );
  });
});

describe('activating a version', () => {
  it('is refused with 409 when the premium cannot be computed over the sample data', async () => {
    const draft = await carDraft();
    // The divisor's default value is the product's test case: 0, so every sale would fail.
    expect((await addDivisor(draft, 0)).status).toBe(201);
    expect(
      (await addFormula(draft, 'vehicle.vehicleValue / vehicle.divisor', 'Per divisor')).status,
    ).toBe(201);
    const refused = await activate(draft.versionId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'trial_calculation_failed',
      formula: 'Per divisor',
      issues: [
        { path: 'premiumFormulas', code: 'division_by_zero', formula: 'Per divisor', position: 21 },
      ],
    });
    expect(refused.body.message).toMatch(/"Per divisor": division by zero at position 22/);
    const still = await call(viewer, `/product-versions/${draft.versionId}`);
    expect(still.body.productVersion.status).toBe('draft');
    const active = await call(viewer, `/product-versions/${carActiveId}`);
    expect(active.body.productVersion.status).toBe('active');
  });

  it('is refused with 409 no_premium_formulas when the version has no premium formula', async () => {
    const created = await call(manager, '/product-versions', 'POST', { productId: carProductId });
    expect(created.status).toBe(201);
    const versionId = created.body.productVersion.id;
    const refused = await activate(versionId);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('no_premium_formulas');
    const still = await call(viewer, `/product-versions/${versionId}`);
    expect(still.body.productVersion.status).toBe('draft');
    // Only who may change versions is told so.
    const forbidden = await call(viewer, `/product-versions/${versionId}`, 'PUT', {
      status: 'active',
    });
    expect(forbidden.status).toBe(403);
  });

  it('is refused when a formula reads a field removed after it was saved', async () => {
    const draft = await carDraft();
    const field = await addDivisor(draft);
    expect((await addFormula(draft, 'vehicle.divisor * 2', 'Doubled')).status).toBe(201);
    expect(
      (await call(manager, `/product-fields/${field.body.productField.id}`, 'DELETE')).status,
    ).toBe(204);
    const refused = await activate(draft.versionId);
    expect(refused.status).toBe(409);
    expect(refused.body.issues).toEqual([
      {
        path: 'premiumFormulas',
        code: 'unknown_name',
        position: 0,
        formula: 'Doubled',
        name: 'vehicle.divisor',
      },
    ]);
  });

  it('still activates a version that computes, and the former active one becomes passive', async () => {
    const draft = await carDraft();
    const done = await activate(draft.versionId);
    expect(done.status).toBe(200);
    expect(done.body.productVersion.status).toBe('active');
    const former = await call(viewer, `/product-versions/${carActiveId}`);
    expect(former.body.productVersion.status).toBe('passive');
    // Back as it was, for the other tests of this file.
    expect((await activate(carActiveId)).status).toBe(200);
  });
});

describe('a stored test case', () => {
  it('is what the trial calculation uses instead of the field defaults', async () => {
    const draft = await carDraft();
    // The divisor's default is 0: with the defaults the trial divides by zero.
    expect((await addDivisor(draft, 0)).status).toBe(201);
    expect(
      (await addFormula(draft, 'vehicle.vehicleValue / vehicle.divisor', 'Per divisor')).status,
    ).toBe(201);
    expect((await activate(draft.versionId)).status).toBe(409);

    const path = `/product-versions/${draft.versionId}/test-case`;
    const none = (await call(viewer, path)).body;
    expect(none.testCase).toMatchObject({ objects: {}, version: 0 });
    // The trial as the activation would run it now: refused, naming the formula and why.
    expect(none.trial).toMatchObject({
      error: 'trial_calculation_failed',
      issues: [{ path: 'premiumFormulas', code: 'division_by_zero', formula: 'Per divisor' }],
    });
    const saved = await call(manager, path, 'PUT', {
      objects: { vehicle: { divisor: 4 } },
      version: 0,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.testCase).toMatchObject({ objects: { vehicle: { divisor: 4 } }, version: 1 });
    expect(saved.body.trial.premium.grandTotal).toBeGreaterThan(0);
    // A save on top of an older version, without the permission, of another workspace: refused.
    const stale = await call(manager, path, 'PUT', { objects: {}, version: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.testCase.version).toBe(1);
    expect((await call(viewer, path, 'PUT', { objects: {}, version: 1 })).status).toBe(403);
    expect((await call(nord, path)).status).toBe(404);
    expect((await call(nord, path, 'PUT', { objects: {}, version: 1 })).status).toBe(404);
    expect((await call(manager, path, 'PUT', { objects: { vehicle: 3 }, version: 1 })).status).toBe(
      400,
    );
    // Values are checked against the version's fields, each refusal at the field it is about
    // (none is required: a field left out takes its sample value).
    const wrong = await call(manager, path, 'PUT', {
      objects: { vehicle: { divisor: 'vier', colour: 'red' }, boat: { length: 3 } },
      version: 1,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('validation_error');
    expect(wrong.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'vehicle.divisor', code: 'not_a_number' },
        { path: 'vehicle.colour', code: 'unknown_field' },
        { path: 'boat', code: 'unknown_insured_object' },
      ]),
    );
    expect((await call(viewer, path)).body.testCase.objects).toEqual({ vehicle: { divisor: 4 } });

    // With the stored divisor of 4 the premium computes, so the version activates.
    const done = await activate(draft.versionId);
    expect(done.status).toBe(200);
    // Not a draft any more: its test case stays as it was tried.
    expect((await call(manager, path, 'PUT', { objects: {}, version: 1 })).status).toBe(409);
    expect((await activate(carActiveId)).status).toBe(200);
  });
});

describe('product texts for field labels', () => {
  it('answers the active language’s texts to whoever reads products', async () => {
    const { care } = kit.sessions;
    const texts = await api(
      kit.base,
      `/translationservice/v1/product-texts?productVersionId=${carActiveId}&language=de`,
      { token: care.accessToken },
    );
    expect(texts.status).toBe(200);
    expect(texts.body.texts['vehicle.vehicleValue']).toBe('Fahrzeugwert');
    // The demo product speaks every language of the product: premium items and values too.
    expect(texts.body.texts['formula.Base premium']).toBe('Grundbeitrag');
    expect(texts.body.texts['vehicle.vehicleType.car']).toBe('Pkw');
    const textsIn = async (language: string) =>
      (
        await api(
          kit.base,
          `/translationservice/v1/product-texts?productVersionId=${carActiveId}&language=${language}`,
          { token: care.accessToken },
        )
      ).body.texts as Record<string, string>;
    expect((await textsIn('pl'))['driver.sfClass']).toBe('Klasa bezszkodowa');
    // A language taken out of use is not shown: the fields keep their own labels.
    const languages = await api(
      kit.base,
      '/translationservice/v1/languages?filter=productSlug=car-comfort',
      { token: manager.accessToken },
    );
    const english = (
      languages.body.items as { id: number; language: string; version: number }[]
    ).find((l) => l.language === 'en')!;
    const off = await api(kit.base, `/translationservice/v1/languages/${english.id}`, {
      token: manager.accessToken,
      method: 'PUT',
      body: { isActive: false, version: english.version },
    });
    expect(off.status).toBe(200);
    expect(await textsIn('en')).toEqual({});
    const foreign = await api(
      kit.base,
      `/translationservice/v1/product-texts?productVersionId=${carActiveId}&language=de`,
      { token: kit.sessions.nord.accessToken },
    );
    expect(foreign.status).toBe(404);
  });
});
