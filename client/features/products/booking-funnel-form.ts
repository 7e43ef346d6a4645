import type { FunnelStep } from '#common/booking-funnel.ts';
import type { BookingFunnel } from '#client/api/product-extras-client.ts';

/**
 * The booking funnel editor's form, kept apart from the dialog so that its rules are tested
 * alone. A step's fields are an array of `object.field` references (not a Set): the record-edit
 * machine compares and merges values as JSON, and a Set has none.
 */

export interface StepValues {
  title: string;
  /** `insuredObject.field`, in the order they were ticked; saved in the product's field order. */
  fields: string[];
}

export interface FunnelValues {
  name: string;
  /** The product version's id as the select holds it; '' sells the active version. */
  versionId: string;
  steps: StepValues[];
}

export const refOf = (f: { insuredObject: string; field: string }) =>
  `${f.insuredObject}.${f.field}`;

export const emptyStep = (): StepValues => ({ title: '', fields: [] });

export const funnelValuesOf = (funnel: BookingFunnel): FunnelValues => ({
  name: funnel.name,
  versionId: funnel.productVersionId ? String(funnel.productVersionId) : '',
  steps: funnel.steps.map((s) => ({ title: s.title, fields: s.fields.map(refOf) })),
});

export const emptyFunnelValues = (): FunnelValues => ({
  name: '',
  versionId: '',
  steps: [emptyStep()],
});

/** The steps with the one at `index` swapped with its neighbour `by` (-1 up, 1 down) away. */
export function moveStep(steps: readonly StepValues[], index: number, by: -1 | 1): StepValues[] {
  const next = [...steps];
  const other = index + by;
  if (other < 0 || other >= next.length) return next;
  [next[index], next[other]] = [next[other]!, next[index]!];
  return next;
}

/** What is wrong with the steps, as translation keys (`funnels.*`) with the step number. */
export type StepProblem =
  | { key: 'no_steps' }
  | { key: 'step_needs_title' | 'step_needs_field'; step: number }
  | { key: 'field_twice' };

export function stepProblems(steps: readonly StepValues[]): StepProblem[] {
  const problems: StepProblem[] = [];
  if (steps.length === 0) problems.push({ key: 'no_steps' });
  steps.forEach((step, index) => {
    if (!step.title.trim()) problems.push({ key: 'step_needs_title', step: index + 1 });
    if (step.fields.length === 0) problems.push({ key: 'step_needs_field', step: index + 1 });
  });
  const all = steps.flatMap((s) => s.fields);
  if (new Set(all).size !== all.length) problems.push({ key: 'field_twice' });
  return problems;
}

/**
 * The steps as the service takes them: titles trimmed, fields in the product's order (`order`:
 * the references as the version lists them); a field no longer in the version stays at the end.
 */
export function stepsToSave(steps: readonly StepValues[], order: readonly string[]): FunnelStep[] {
  const place = new Map(order.map((ref, i) => [ref, i]));
  return steps.map((step) => ({
    title: step.title.trim(),
    fields: [...step.fields]
      .sort((a, b) => (place.get(a) ?? Infinity) - (place.get(b) ?? Infinity))
      .map((ref) => {
        const dot = ref.indexOf('.');
        return { insuredObject: ref.slice(0, dot), field: ref.slice(dot + 1) };
      }),
  }));
}
