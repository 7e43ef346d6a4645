import { describe, expect, it } from 'vitest';
import type { PolicyObject } from '#client/api/policies-client.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import {
  dataByName,
  fieldIssues,
  initialValues,
  policyObjectsOf,
} from '#client/entities/application/application-values.ts';
import { draftObjects, draftPatch, editablePaths, isTermField } from './draft-form.ts';

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
  const forms = draftObjects(objects, tariff, 'en');
  const start = initialValues(forms, dataByName(objects));

  it('edits the tariff objects of the timeslice in the form order, the term read-only', () => {
    expect(forms.map((o) => o.name)).toEqual(['default', 'household']);
    const [policy, household] = forms;
    expect(policy!.productFields.filter((f) => isTermField(policy!, f)).map((f) => f.name)).toEqual(
      ['policyStartDate', 'policyDurationUnit', 'policyDurationValue'],
    );
    expect(household!.productFields.some((f) => isTermField(household!, f))).toBe(false);
    // An object the tariff no longer has is not offered.
    expect(draftObjects(objects.slice(0, 1), tariff, 'en').map((o) => o.name)).toEqual([
      'household',
    ]);
    expect(start).toMatchObject({ 'household.livingArea': '80', 'household.note': 'x' });
  });

  it('sends only what changed, numbers as numbers, empty text as null', () => {
    const values = { ...start, 'household.livingArea': '95,5', 'household.note': '' };
    expect(draftPatch(forms, objects, policyObjectsOf(forms, values))).toEqual([
      { insuredObjectId: 2, data: { livingArea: 95.5, note: null } },
    ]);
    // Nothing typed: nothing to send, and an unticked box over "not given" is no change.
    expect(draftPatch(forms, objects, policyObjectsOf(forms, start))).toEqual([]);
    const ticked = { ...start, 'household.bicycleCover': true };
    expect(draftPatch(forms, objects, policyObjectsOf(forms, ticked))).toEqual([
      { insuredObjectId: 2, data: { bicycleCover: true } },
    ]);
  });

  it('checks like the service, and leaves the term out of what the user must fix', () => {
    const values = { ...start, 'household.livingArea': 'viel' };
    expect(fieldIssues(forms, values)).toEqual({ 'household.livingArea': 'not_a_number' });
    expect(
      editablePaths(forms, ['default.policyStartDate', 'household.livingArea', 'accountCode']),
    ).toEqual(['household.livingArea', 'accountCode']);
    // The term is never part of a patch, whatever its inputs would hold.
    const term = { ...values, 'default.policyDurationValue': '5' };
    expect(draftPatch(forms, objects, policyObjectsOf(forms, term))).toEqual([
      { insuredObjectId: 2, data: { livingArea: 'viel' } },
    ]);
  });
});
