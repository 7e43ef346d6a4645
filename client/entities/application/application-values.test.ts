import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_OPTIONS, OBJECT_DATA_ISSUE_CODES } from '#common/policy-object-data.ts';
import type { InsuredObject, ProductField } from '#client/api/products-client.ts';
import { buildCustomSchema, type CustomField } from '#client/ui/form/custom-schema.ts';
import {
  applicationObjects,
  controlOf,
  dataByName,
  fieldAt,
  fieldIssues,
  initialValues,
  issueMessage,
  optionsOf,
  optionTextKey,
  policyObjectsOf,
  splitIssues,
} from './application-values.ts';

let nextId = 1;
const field = (
  name: string,
  type: ProductField['type'],
  extra: Partial<ProductField> = {},
): ProductField =>
  ({
    id: nextId++,
    name,
    label: name,
    type,
    kind: null,
    isRequired: false,
    minimum: null,
    maximum: null,
    defaultValue: null,
    order: nextId,
    ...extra,
  }) as ProductField;

const object = (id: number, name: string, fields: ProductField[]) =>
  ({ id, name, label: name, productFields: fields }) as InsuredObject;

const tariff = applicationObjects(
  [
    object(2, 'household', [
      field('livingArea', 'number', { isRequired: true, minimum: 10, maximum: 1000 }),
      field('zipCode', 'string', { isRequired: true }),
      field('bicycleCover', 'boolean'),
      field('broker', 'string', { kind: 'partner' }),
    ]),
    object(1, 'default', [
      field('policyStartDate', 'date', { kind: 'dateTime', isRequired: true }),
      field('policyDurationUnit', 'string', { kind: 'durationUnit', isRequired: true }),
      field('policyDurationValue', 'number', { isRequired: true }),
    ]),
  ],
  'en',
);

const now = new Date(2025, 2, 9, 23, 30);

describe('application form model', () => {
  it("lists the policy ('default') first", () => {
    expect(tariff.map((o) => o.name)).toEqual(['default', 'household']);
  });

  it('gives each field the control of its type, refined by its kind', () => {
    expect(controlOf({ type: 'number', kind: 'sfClass' })).toBe('number');
    expect(controlOf({ type: 'boolean', kind: null })).toBe('checkbox');
    expect(controlOf({ type: 'date', kind: 'dateTime' })).toBe('date');
    expect(controlOf({ type: 'string', kind: 'dateTime' })).toBe('dateTime');
    expect(controlOf({ type: 'string', kind: 'durationUnit' })).toBe('select');
    expect(controlOf({ type: 'string', kind: 'renewalFrequency' })).toBe('select');
    expect(controlOf({ type: 'string', kind: 'email' })).toBe('email');
    expect(controlOf({ type: 'string', kind: 'partner' })).toBe('partner');
    expect(controlOf({ type: 'string', kind: 'licensePlateRegion' })).toBe('text');
    expect(optionsOf({ kind: 'durationUnit' })).toEqual(['day', 'week', 'month', 'year']);
    expect(controlOf({ type: 'string', kind: 'billingFrequency' })).toBe('select');
    expect(optionsOf({ kind: 'billingFrequency' })).toEqual([
      'monthly',
      'quarterly',
      'halfYearly',
      'yearly',
    ]);
    expect(optionsOf({ kind: null })).toEqual([]);
  });

  it('takes each control from the custom fields’ mapping, as a custom field of that type', () => {
    const custom = (field: Omit<CustomField, 'name' | 'isRequired'>) =>
      buildCustomSchema([{ name: 'x', isRequired: false, ...field }]).fields[0]!.control;
    expect(controlOf({ type: 'number', kind: null })).toBe(custom({ type: 'number' }));
    expect(controlOf({ type: 'boolean', kind: null })).toBe(custom({ type: 'boolean' }));
    expect(controlOf({ type: 'date', kind: null })).toBe(custom({ type: 'date' }));
    expect(controlOf({ type: 'string', kind: null })).toBe(custom({ type: 'string' }));
    expect(controlOf({ type: 'string', kind: 'email' })).toBe(custom({ type: 'email' }));
    expect(controlOf({ type: 'string', kind: 'dateTime' })).toBe(custom({ type: 'dateTime' }));
    expect(controlOf({ type: 'string', kind: 'durationUnit' })).toBe(
      custom({ type: 'string', options: ['day'] }),
    );
  });

  it('proposes a contract from today (local day) for a year, and takes defaults first', () => {
    expect(initialValues(tariff, {}, now)).toEqual({
      'default.policyStartDate': '2025-03-09',
      'default.policyDurationUnit': 'year',
      'default.policyDurationValue': '1',
      'household.livingArea': '',
      'household.zipCode': '',
      'household.bicycleCover': false,
      'household.broker': '',
    });
    const withDefault = applicationObjects(
      [object(3, 'default', [field('policyDurationUnit', 'string', { defaultValue: 'month' })])],
      'en',
    );
    expect(initialValues(withDefault, {}, now)['default.policyDurationUnit']).toBe('month');
  });

  it('starts from given data as it is (edit and view), without proposals', () => {
    const values = initialValues(
      tariff,
      {
        default: { policyStartDate: '2024-05-01', policyDurationUnit: 'month' },
        household: { livingArea: 80, bicycleCover: true, broker: 'ptn_1' },
      },
      now,
    );
    expect(values).toMatchObject({
      'default.policyStartDate': '2024-05-01',
      'default.policyDurationValue': '',
      'household.livingArea': '80',
      'household.bicycleCover': true,
      'household.broker': 'ptn_1',
    });
  });

  it('sends every object with every field, numbers as numbers and blanks as null', () => {
    const values = {
      ...initialValues(tariff, {}, now),
      'household.livingArea': ' 80,5 ',
      'household.zipCode': ' 10115 ',
    };
    expect(policyObjectsOf(tariff, values)).toEqual([
      {
        insuredObjectId: 1,
        data: {
          policyStartDate: '2025-03-09',
          policyDurationUnit: 'year',
          policyDurationValue: 1,
        },
      },
      {
        insuredObjectId: 2,
        data: { livingArea: 80.5, zipCode: '10115', bicycleCover: false, broker: null },
      },
    ]);
    // A text that is no number stays text: the check calls it not a number, not missing.
    const unparsable = { ...values, 'household.livingArea': ' abc ' };
    expect(policyObjectsOf(tariff, unparsable)[1]!.data).toMatchObject({ livingArea: 'abc' });
    expect(fieldIssues(tariff, unparsable)).toEqual({ 'household.livingArea': 'not_a_number' });
  });

  it('checks with the shared schema, one issue per field path', () => {
    const values = { ...initialValues(tariff, {}, now), 'household.livingArea': '5' };
    expect(fieldIssues(tariff, values)).toEqual({
      'household.livingArea': 'below_minimum',
      'household.zipCode': 'required',
    });
    expect(
      fieldIssues(tariff, {
        ...values,
        'household.livingArea': '50',
        'household.zipCode': '1',
      }),
    ).toEqual({});
    expect(fieldIssues(tariff, { ...values, 'default.policyStartDate': '31.02.2025' })).toEqual(
      expect.objectContaining({ 'default.policyStartDate': 'invalid_date' }),
    );
  });

  it('finds the field of a path, and splits issues into those at fields and the others', () => {
    expect(fieldAt(tariff, 'household.zipCode')?.field.name).toBe('zipCode');
    expect(fieldAt(tariff, 'accountCode')).toBeNull();
    const atField = { path: 'household.zipCode', code: 'required' };
    const account = { path: 'accountCode', code: 'unknown_account' };
    const object = { path: 'policyObjects.1.insuredObjectId', code: 'unknown_insured_object' };
    expect(splitIssues(tariff, [account, atField, object])).toEqual({
      atFields: [atField],
      others: [account, object],
    });
  });

  it('reads stored policy objects by their object name', () => {
    const stored = [
      { insuredObjectName: 'default', data: { policyDurationValue: 2 } },
      { insuredObjectName: 'household', data: { livingArea: 80 } },
    ];
    expect(dataByName(stored)).toEqual({
      default: { policyDurationValue: 2 },
      household: { livingArea: 80 },
    });
    expect(initialValues(tariff, dataByName(stored), now)['default.policyDurationValue']).toBe('2');
  });

  it('words issues as messages of the field frame, bounds in the reader’s format', () => {
    const area = { type: 'number' as const, label: 'Living area', minimum: 1000, maximum: 25000 };
    expect(issueMessage('required', area, 'en')).toBe('messages.fieldRequired?field=Living+area');
    expect(issueMessage('required', { ...area, type: 'boolean' }, 'en')).toBe(
      'messages.booleanTrueRequired',
    );
    expect(issueMessage('below_minimum', area, 'de')).toBe(
      'applications:issues.below_minimum?min=1.000',
    );
    expect(issueMessage('above_maximum', area, 'en')).toBe(
      'applications:issues.above_maximum?max=25%2C000',
    );
    expect(issueMessage('invalid_email', area, 'en')).toBe('applications:issues.invalid_email');
    expect(issueMessage('something_new', area, 'en')).toBe('applications:issues.invalid');
  });
});

describe('issue messages', () => {
  // Every form over product fields (sale, lead application, policy draft) words the shared
  // check's codes from here, so each code needs its text in every language.
  it.each(['de', 'en', 'pl'])('%s words every code of the shared check', (language) => {
    const file = join(import.meta.dirname, '../../../locales', language, 'applications.json');
    const { issues } = JSON.parse(readFileSync(file, 'utf8')) as {
      issues: Record<string, string>;
    };
    for (const code of OBJECT_DATA_ISSUE_CODES) expect(issues[code], code).toBeTruthy();
    expect(issues.invalid).toBeTruthy();
  });
});

describe('option labels', () => {
  // A select of a kind with fixed options (durationUnit, renewalFrequency, billingFrequency)
  // shows each option by its text; a missing one would show the raw value.
  it.each(['de', 'en', 'pl'])('%s names every fixed option', (language) => {
    const file = join(import.meta.dirname, '../../../locales', language, 'applications.json');
    const texts = JSON.parse(readFileSync(file, 'utf8')) as {
      options: Record<string, Record<string, string>>;
    };
    for (const [kind, values] of Object.entries(KIND_OPTIONS)) {
      for (const value of values) {
        const [, group, leaf] = optionTextKey(kind, value).split('.');
        expect(texts.options[group!]?.[leaf!], `${kind}.${value}`).toBeTruthy();
      }
    }
  });
});
