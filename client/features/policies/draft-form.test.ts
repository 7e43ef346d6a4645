import { describe, expect, it } from 'vitest';
import type { PolicyObject } from '#client/api/policies-client.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import { checkDraft, draftSections, errorsOfIssues, initialValues } from './draft-form.ts';

const field = (name: string, type: string, extra: Record<string, unknown> = {}, order = 0) => ({
  name,
  label: name.toUpperCase(),
  type,
  kind: null,
  isRequired: false,
  minimum: null,
  maximum: null,
  order,
  ...extra,
});
const tariff = [
  {
    id: 1,
    name: 'default',
    productFields: [
      field('policyStartDate', 'date', { isRequired: true }, 1),
      field('policyDurationUnit', 'string', { kind: 'durationUnit', isRequired: true }, 2),
      field('policyDurationValue', 'number', { isRequired: true }, 3),
    ],
  },
  {
    id: 2,
    name: 'household',
    productFields: [
      field('livingArea', 'number', { isRequired: true, minimum: 10, maximum: 1000 }, 1),
      field('bicycleCover', 'boolean', {}, 2),
      field('note', 'string', {}, 3),
    ],
  },
] as unknown as InsuredObject[];
const objects = [
  {
    code: 'pob_h',
    insuredObjectId: 2,
    insuredObjectName: 'household',
    data: { livingArea: 80, bicycleCover: null, note: 'x' },
  },
  {
    code: 'pob_d',
    insuredObjectId: 1,
    insuredObjectName: 'default',
    data: { policyStartDate: '2025-01-01', policyDurationUnit: 'year', policyDurationValue: 1 },
  },
] as unknown as PolicyObject[];

describe('draft form', () => {
  const sections = draftSections(objects, tariff);

  it('keeps the contract term read-only and the rest editable by type', () => {
    const [household, policy] = sections;
    expect(household!.editable.map((f) => [f.name, f.control])).toEqual([
      ['livingArea', 'number'],
      ['bicycleCover', 'checkbox'],
      ['note', 'text'],
    ]);
    expect(policy!.editable).toEqual([]);
    expect(policy!.readOnly.map((f) => f.name)).toEqual([
      'policyStartDate',
      'policyDurationUnit',
      'policyDurationValue',
    ]);
  });

  it('sends only what changed, numbers as numbers, empty text as null', () => {
    const values = {
      pob_h: { ...initialValues(sections[0]!), livingArea: '95,5', note: '' },
    };
    expect(checkDraft(sections, values)).toEqual({
      errors: {},
      patch: [{ insuredObjectId: 2, data: { livingArea: 95.5, note: null } }],
    });
    // Nothing typed: nothing to send, and an unticked box over "not given" is no change.
    expect(checkDraft(sections, {}).patch).toEqual([]);
  });

  it('says at the field what the service would refuse', () => {
    const values = { pob_h: { ...initialValues(sections[0]!), livingArea: '5' } };
    expect(checkDraft(sections, values).errors).toEqual({
      'household.livingArea': ['messages.numberMin?min=10'],
    });
    const empty = { pob_h: { ...initialValues(sections[0]!), livingArea: ' ' } };
    expect(checkDraft(sections, empty).errors).toEqual({
      'household.livingArea': ['messages.fieldRequired?field=LIVINGAREA'],
    });
    const text = { pob_h: { ...initialValues(sections[0]!), livingArea: 'viel' } };
    expect(checkDraft(sections, text).errors['household.livingArea']).toEqual([
      'messages.number_type',
    ]);
  });

  it('puts the service issues at the same fields', () => {
    expect(
      errorsOfIssues(sections, [
        { path: 'household.livingArea', code: 'above_maximum' },
        { path: 'effectiveFrom', code: 'outside_term' },
      ]),
    ).toEqual({
      'household.livingArea': ['messages.numberMax?max=1000'],
      effectiveFrom: ['messages.invalid_value'],
    });
  });
});
