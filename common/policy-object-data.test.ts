import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeIssues,
  missingFields,
  parseIsoDate,
  termIssues,
  validateObjectData,
  validatePolicyObjects,
  type ObjectData,
  type ObjectDataField,
} from './policy-object-data.ts';

const TODAY = Date.UTC(2026, 5, 1, 12);

const vehicle: ObjectDataField[] = [
  { name: 'vehicleValue', type: 'number', isRequired: true, minimum: 1000, maximum: 250000 },
  { name: 'vehicleType', type: 'string', kind: 'vehicleType', isRequired: true },
  { name: 'firstRegistration', type: 'date', isRequired: false },
  { name: 'isCommercial', type: 'boolean', isRequired: false },
];

describe('validateObjectData', () => {
  it('accepts valid data and fills absent optional fields with null', () => {
    expect(validateObjectData(vehicle, { vehicleValue: 20000, vehicleType: 'car' })).toEqual({
      ok: true,
      issues: [],
      data: {
        vehicleValue: 20000,
        vehicleType: 'car',
        firstRegistration: null,
        isCommercial: null,
      },
    });
    const full = validateObjectData(vehicle, {
      vehicleValue: 1000,
      vehicleType: 'suv',
      firstRegistration: '2020-02-29',
      isCommercial: false,
    });
    expect(full.ok).toBe(true);
  });

  it('reports one coded issue per field', () => {
    const result = validateObjectData(vehicle, {
      vehicleValue: 999,
      vehicleType: 7,
      firstRegistration: '2021-02-29',
      isCommercial: 'yes',
      colour: 'red',
    });
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      { path: 'vehicleValue', code: 'below_minimum', limit: 1000 },
      { path: 'vehicleType', code: 'not_a_string' },
      { path: 'firstRegistration', code: 'invalid_date' },
      { path: 'isCommercial', code: 'not_boolean' },
      { path: 'colour', code: 'unknown_field' },
    ]);
  });

  it('says required for absent, null and blank required values, not a type error', () => {
    for (const value of [undefined, null, '', '   ']) {
      const result = validateObjectData(vehicle, { vehicleValue: value, vehicleType: 'car' });
      expect(result.issues).toEqual([{ path: 'vehicleValue', code: 'required' }]);
    }
    // Blank optional input is no value at all.
    const blank = validateObjectData(vehicle, {
      vehicleValue: 5000,
      vehicleType: 'car',
      firstRegistration: '',
    });
    expect(blank.ok && blank.data.firstRegistration).toBe(null);
  });

  it('checks numbers: type, finiteness, both bounds', () => {
    const check = (value: unknown) =>
      validateObjectData(vehicle, { vehicleValue: value, vehicleType: 'car' }).issues;
    expect(check('20000')).toEqual([{ path: 'vehicleValue', code: 'not_a_number' }]);
    expect(check(Number.NaN)).toEqual([{ path: 'vehicleValue', code: 'not_a_number' }]);
    expect(check(Number.POSITIVE_INFINITY)).toEqual([
      { path: 'vehicleValue', code: 'not_a_number' },
    ]);
    expect(check(250001)).toEqual([{ path: 'vehicleValue', code: 'above_maximum', limit: 250000 }]);
    expect(check(250000)).toEqual([]);
  });

  it('wants a required boolean to be true (spec section 5)', () => {
    const consent: ObjectDataField[] = [{ name: 'consent', type: 'boolean', isRequired: true }];
    expect(validateObjectData(consent, { consent: false }).issues).toEqual([
      { path: 'consent', code: 'required' },
    ]);
    expect(validateObjectData(consent, { consent: true }).ok).toBe(true);
    expect(validateObjectData(consent, { consent: 'true' }).issues).toEqual([
      { path: 'consent', code: 'not_boolean' },
    ]);
  });

  it('knows the fixed options of the duration unit', () => {
    const unit: ObjectDataField[] = [
      { name: 'policyDurationUnit', type: 'string', kind: 'durationUnit', isRequired: true },
    ];
    expect(validateObjectData(unit, { policyDurationUnit: 'month' }).ok).toBe(true);
    expect(validateObjectData(unit, { policyDurationUnit: 'decade' }).issues).toEqual([
      { path: 'policyDurationUnit', code: 'invalid_option' },
    ]);
  });

  it('knows the renewal frequencies and checks e-mail and date-time texts by their kind', () => {
    const fields: ObjectDataField[] = [
      { name: 'renewal', type: 'string', kind: 'renewalFrequency', isRequired: false },
      { name: 'contact', type: 'string', kind: 'email', isRequired: false },
      { name: 'inspection', type: 'string', kind: 'dateTime', isRequired: false },
    ];
    expect(
      validateObjectData(fields, {
        renewal: 'yearly',
        contact: 'anna@example.test',
        inspection: '2025-03-01T09:15:00.000Z',
      }).ok,
    ).toBe(true);
    expect(
      validateObjectData(fields, {
        renewal: 'sometimes',
        contact: 'anna at example',
        inspection: '2025-02-30T09:15:00Z',
      }).issues,
    ).toEqual([
      { path: 'renewal', code: 'invalid_option' },
      { path: 'contact', code: 'invalid_email' },
      { path: 'inspection', code: 'invalid_date' },
    ]);
    // Blank optional texts of these kinds are no value, not a wrong one.
    expect(validateObjectData(fields, { renewal: '', contact: ' ', inspection: '' }).ok).toBe(true);
  });

  it('refuses data that is no object', () => {
    for (const data of [null, [], 'x', 3]) {
      expect(validateObjectData(vehicle, data).issues).toEqual([
        { path: '', code: 'not_an_object' },
      ]);
    }
  });

  it('never throws and answers only known codes, whatever the data', () => {
    fc.assert(
      fc.property(fc.anything(), (data) => {
        const result = validateObjectData(vehicle, data);
        if (!result.ok) {
          expect(result.issues.length).toBeGreaterThan(0);
          for (const issue of result.issues) expect(typeof issue.code).toBe('string');
        }
      }),
    );
  });
});

describe('parseIsoDate', () => {
  it('reads days and timestamps, refuses days that do not exist', () => {
    expect(parseIsoDate('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
    expect(parseIsoDate('2024-05-01T10:00:00Z')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(parseIsoDate('2024-05-01T12:00:00+02:00')).toBe(Date.UTC(2024, 4, 1, 10));
    for (const bad of ['2023-02-29', '2024-13-01', '01.05.2024', '2024-5-1', '', 5, null]) {
      expect(parseIsoDate(bad)).toBeNull();
    }
  });
});

describe('validatePolicyObjects', () => {
  const objects = [
    {
      id: 1,
      name: 'default',
      fields: [{ name: 'policyStartDate', type: 'date', isRequired: true } as const],
    },
    { id: 2, name: 'vehicle', fields: vehicle },
  ];

  it('answers the checked data of every object in the version order', () => {
    const result = validatePolicyObjects(
      objects,
      [
        { insuredObjectId: 2, data: { vehicleValue: 5000, vehicleType: 'van' } },
        { insuredObjectId: 1, data: { policyStartDate: '2025-01-01' } },
      ],
      TODAY,
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.objects.map((o) => o.object.name)).toEqual(['default', 'vehicle']);
      expect(result.objects[1]!.data.isCommercial).toBeNull();
    }
  });

  it('prefixes paths with the object name and treats an absent object as empty', () => {
    const result = validatePolicyObjects(
      objects,
      [{ insuredObjectId: 2, data: { vehicleValue: 5000 } }],
      TODAY,
    );
    expect(result.issues).toEqual([
      { path: 'default.policyStartDate', code: 'required' },
      { path: 'vehicle.vehicleType', code: 'required' },
    ]);
    expect(missingFields(result.issues)).toEqual([
      'default.policyStartDate',
      'vehicle.vehicleType',
    ]);
  });

  it('reports unknown and repeated insured objects by their position', () => {
    const result = validatePolicyObjects(
      objects,
      [
        { insuredObjectId: 1, data: { policyStartDate: '2025-01-01' } },
        { insuredObjectId: 1, data: { policyStartDate: '2025-01-01' } },
        { insuredObjectId: 99, data: {} },
        { insuredObjectId: 2, data: { vehicleValue: 5, vehicleType: 'car' } },
      ],
      TODAY,
    );
    expect(result.issues).toEqual([
      { path: 'policyObjects.1.insuredObjectId', code: 'duplicate_insured_object' },
      { path: 'policyObjects.2.insuredObjectId', code: 'unknown_insured_object' },
      { path: 'vehicle.vehicleValue', code: 'below_minimum', limit: 1000 },
    ]);
    // Wrong is not merely incomplete.
    expect(missingFields(result.issues)).toEqual([]);
  });

  it("says every issue in one line, with the crossed bound (a lead's 400 message)", () => {
    const result = validatePolicyObjects(
      objects,
      [
        { insuredObjectId: 2, data: { vehicleValue: 250001, isCommercial: 'no', colour: 'red' } },
        { insuredObjectId: 2, data: {} },
        { insuredObjectId: 9, data: {} },
      ],
      TODAY,
    );
    expect(describeIssues(result.issues)).toBe(
      'policyObjects.1.insuredObjectId: duplicate_insured_object; ' +
        'policyObjects.2.insuredObjectId: unknown_insured_object; ' +
        'default.policyStartDate: required; vehicle.vehicleValue: above_maximum (250000); ' +
        'vehicle.vehicleType: required; vehicle.isCommercial: not_boolean; ' +
        'vehicle.colour: unknown_field',
    );
    expect(describeIssues([])).toBe('');
  });

  it('takes blank and null values as not given, and dates only as real calendar days', () => {
    const result = validatePolicyObjects(
      objects,
      [
        { insuredObjectId: 1, data: { policyStartDate: '31.01.2026' } },
        {
          insuredObjectId: 2,
          data: { vehicleValue: '5000', vehicleType: '  ', isCommercial: null },
        },
      ],
      TODAY,
    );
    expect(result.issues).toEqual([
      { path: 'default.policyStartDate', code: 'invalid_date' },
      { path: 'vehicle.vehicleValue', code: 'not_a_number' },
      { path: 'vehicle.vehicleType', code: 'required' },
    ]);
    const leap = validatePolicyObjects(
      objects,
      [
        { insuredObjectId: 1, data: { policyStartDate: '2023-02-29' } },
        { insuredObjectId: 2, data: { vehicleValue: 5000, vehicleType: 'van' } },
      ],
      TODAY,
    );
    expect(leap.issues).toEqual([{ path: 'default.policyStartDate', code: 'invalid_date' }]);
  });
});

describe('the rules across fields (termIssues)', () => {
  const policy = (defaults: ObjectData, others: Record<string, ObjectData> = {}) => [
    { object: { name: 'default' }, data: defaults },
    ...Object.entries(others).map(([name, data]) => ({ object: { name }, data })),
  ];
  const start = { policyStartDate: '2026-01-01', policyDurationUnit: 'year' };

  it('wants a term of at least one unit', () => {
    expect(termIssues(policy({ ...start, policyDurationValue: -1 }), TODAY)).toEqual([
      { path: 'default.policyDurationValue', code: 'duration_too_short', limit: 1 },
    ]);
    expect(termIssues(policy({ ...start, policyDurationValue: 1 }), TODAY)).toEqual([]);
  });

  it('refuses a first registration in the future and birth dates that make no sense', () => {
    const issues = termIssues(
      policy(
        { ...start, policyDurationValue: 1 },
        {
          vehicle: { firstRegistration: '2026-06-02' },
          driver: { birthDate: '2010-05-01' },
          traveller: { birthDate: '1900-01-01' },
        },
      ),
      TODAY,
    );
    expect(issues).toEqual([
      { path: 'vehicle.firstRegistration', code: 'in_future' },
      { path: 'driver.birthDate', code: 'too_young', limit: 18 },
      { path: 'traveller.birthDate', code: 'too_old', limit: 120 },
    ]);
    // A child may travel; a first registration on today is fine; a birth date tomorrow is not.
    expect(
      termIssues(
        policy(start, {
          vehicle: { firstRegistration: '2026-06-01' },
          traveller: { birthDate: '2020-05-01' },
          person: { birthDate: '2026-06-02' },
        }),
        TODAY,
      ),
    ).toEqual([{ path: 'person.birthDate', code: 'in_future' }]);
  });
});
