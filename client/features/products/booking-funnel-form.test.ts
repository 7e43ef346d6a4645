import { describe, expect, it } from 'vitest';
import {
  emptyFunnelValues,
  funnelValuesOf,
  moveStep,
  stepProblems,
  stepsToSave,
} from './booking-funnel-form.ts';
import type { BookingFunnel } from '#client/api/product-extras-client.ts';

describe('booking funnel form', () => {
  it('holds a funnel as plain, comparable values', () => {
    const funnel = {
      name: 'Quick',
      productVersionId: 7,
      steps: [{ title: 'Car', fields: [{ insuredObject: 'vehicle', field: 'value' }] }],
    } as BookingFunnel;
    const values = funnelValuesOf(funnel);
    expect(values).toEqual({
      name: 'Quick',
      versionId: '7',
      steps: [{ title: 'Car', fields: ['vehicle.value'] }],
    });
    // The machine compares values as JSON: a round trip keeps them.
    expect(JSON.parse(JSON.stringify(values))).toEqual(values);
    expect(funnelValuesOf({ ...funnel, productVersionId: null }).versionId).toBe('');
    expect(emptyFunnelValues().steps).toEqual([{ title: '', fields: [] }]);
  });

  it('names each problem of the steps with its step number', () => {
    expect(stepProblems([])).toEqual([{ key: 'no_steps' }]);
    expect(
      stepProblems([
        { title: ' ', fields: ['default.a'] },
        { title: 'Two', fields: [] },
        { title: 'Three', fields: ['default.a'] },
      ]),
    ).toEqual([
      { key: 'step_needs_title', step: 1 },
      { key: 'step_needs_field', step: 2 },
      { key: 'field_twice' },
    ]);
    expect(stepProblems([{ title: 'One', fields: ['default.a', 'default.b'] }])).toEqual([]);
  });

  it('moves a step up or down, never out of the list', () => {
    const steps = [
      { title: 'A', fields: [] },
      { title: 'B', fields: [] },
    ];
    expect(moveStep(steps, 1, -1).map((s) => s.title)).toEqual(['B', 'A']);
    expect(moveStep(steps, 0, 1).map((s) => s.title)).toEqual(['B', 'A']);
    expect(moveStep(steps, 0, -1).map((s) => s.title)).toEqual(['A', 'B']);
    expect(steps.map((s) => s.title)).toEqual(['A', 'B']);
  });

  it('saves titles trimmed and fields in the product order, unknown ones last', () => {
    expect(
      stepsToSave(
        [{ title: ' Car ', fields: ['gone.x', 'vehicle.value', 'default.start'] }],
        ['default.start', 'vehicle.value'],
      ),
    ).toEqual([
      {
        title: 'Car',
        fields: [
          { insuredObject: 'default', field: 'start' },
          { insuredObject: 'vehicle', field: 'value' },
          { insuredObject: 'gone', field: 'x' },
        ],
      },
    ]);
  });
});
