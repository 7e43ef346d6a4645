import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FunnelStep } from '#common/booking-funnel.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  createBookingFunnel,
  replaceBookingFunnel,
  type BookingFunnel,
} from '#client/api/product-extras-client.ts';
import type { InsuredObject, Product, ProductField } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { CheckboxGroup } from '#client/ui/form/checkbox-group.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { requiredString } from '#client/ui/form/rules.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { loadStateOf, mapLoaded, type LoadState } from '#client/ui/load-state.ts';
import * as v from 'valibot';
import { DialogForm } from './dialog-form.tsx';
import { orderInsuredObjects } from '#common/insured-object-order.ts';

interface StepDraft {
  title: string;
  fields: ReadonlySet<string>;
}

const refOf = (f: { insuredObject: string; field: string }) => `${f.insuredObject}.${f.field}`;

/** The version whose fields a funnel offers: the chosen one, else active, else the newest. */
export function sellingVersion(product: Product, productVersionId: number | null) {
  const versions = product.versions ?? [];
  return (
    versions.find((v) => v.id === productVersionId) ??
    versions.find((v) => v.status === 'active') ??
    versions[versions.length - 1]
  );
}

/**
 * Creates or edits a booking funnel: its name, the version it sells (the active one unless
 * chosen) and its steps, each a title and the fields it asks for (in the product's field order).
 * Each save is a new version of the funnel; an edit is based on the version it was opened at.
 */
export function BookingFunnelDialog({
  accountIndex,
  product,
  funnel,
  onClose,
}: {
  accountIndex: number;
  product: Product;
  funnel: BookingFunnel | null;
  onClose: (savedName: string | null) => void;
}) {
  const { t, i18n } = useTranslation('products');
  const [name, setName] = useState(funnel?.name ?? '');
  const [versionId, setVersionId] = useState(
    funnel?.productVersionId ? String(funnel.productVersionId) : '',
  );
  const [steps, setSteps] = useState<StepDraft[]>(
    funnel
      ? funnel.steps.map((s) => ({ title: s.title, fields: new Set(s.fields.map(refOf)) }))
      : [{ title: '', fields: new Set() }],
  );
  const [basedOn, setBasedOn] = useState(funnel?.version ?? 1);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [stepErrors, setStepErrors] = useState<string[]>([]);
  const nameLabel = t('funnels.name');

  const sellingId = sellingVersion(product, versionId ? Number(versionId) : null)?.id;
  const fieldsQuery = useQuery({
    ...productQueries.insuredObjects(accountIndex, sellingId ?? 0),
    enabled: sellingId !== undefined,
  });
  // A product without versions offers no fields (nothing is asked for).
  const objects: LoadState<(InsuredObject & { productFields: ProductField[] })[]> = sellingId
    ? mapLoaded(loadStateOf(fieldsQuery), (list) => orderInsuredObjects(list, i18n.language))
    : { kind: 'ready', value: [] };
  const options =
    objects.kind === 'ready'
      ? objects.value.flatMap((o) =>
          o.productFields.map((f) => ({
            id: `${o.name}.${f.name}`,
            label: `${o.label}: ${f.label}`,
          })),
        )
      : [];

  const setStep = (index: number, change: Partial<StepDraft>) =>
    setSteps((current) => current.map((s, i) => (i === index ? { ...s, ...change } : s)));
  const move = (index: number, by: number) =>
    setSteps((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });

  const checkSteps = (): FunnelStep[] | null => {
    const problems: string[] = [];
    if (steps.length === 0) problems.push(t('funnels.no_steps'));
    steps.forEach((step, index) => {
      if (!step.title.trim()) problems.push(t('funnels.step_needs_title', { step: index + 1 }));
      if (step.fields.size === 0) problems.push(t('funnels.step_needs_field', { step: index + 1 }));
    });
    const all = steps.flatMap((s) => [...s.fields]);
    if (new Set(all).size !== all.length) problems.push(t('funnels.field_twice'));
    setStepErrors(problems);
    if (problems.length) return null;
    // Fields in the product's order; a field no longer in the version stays at the end.
    const order = new Map(options.map((o, i) => [o.id, i]));
    return steps.map((step) => ({
      title: step.title.trim(),
      fields: [...step.fields]
        .sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity))
        .map((ref) => {
          const dot = ref.indexOf('.');
          return { insuredObject: ref.slice(0, dot), field: ref.slice(dot + 1) };
        }),
    }));
  };

  const submit = () => {
    const result = validateForm(v.object({ name: v.pipe(requiredString(nameLabel), v.trim()) }), {
      name,
    });
    setErrors(result.errors);
    const checked = checkSteps();
    if (!result.success || !checked) return false;
    const body = {
      name: result.output.name,
      productVersionId: versionId ? Number(versionId) : null,
      steps: checked,
    };
    const saved = funnel
      ? replaceBookingFunnel(accountIndex, funnel.code, { ...body, version: basedOn })
      : createBookingFunnel(accountIndex, { ...body, productSlug: product.slug });
    return saved.then(
      (done) => {
        onClose(done.name);
        return true;
      },
      (error: unknown) => {
        const current =
          error instanceof ApiError ? (error.body as { bookingFunnel?: BookingFunnel }) : null;
        if (current?.bookingFunnel) setBasedOn(current.bookingFunnel.version);
        throw error;
      },
    );
  };

  return (
    <DialogForm
      title={funnel ? t('funnels.edit') : t('funnels.new')}
      submitLabel={funnel ? t('actions.save') : t('actions.create')}
      submit={submit}
      onCancel={() => onClose(null)}
      wide
    >
      <TextInput
        label={nameLabel}
        value={name}
        onChange={setName}
        required
        errors={errors.name}
        maxLength={200}
      />
      <SelectInput
        label={t('funnels.product_version')}
        value={versionId}
        onChange={setVersionId}
        options={(product.versions ?? []).map((version) => ({
          value: String(version.id),
          label: t('funnels.sells_version', { version: version.version }),
        }))}
        hint={t('funnels.sells_active')}
      />
      {objects.kind === 'loading' ? <Spinner label={t('funnels.fields_loading')} /> : null}
      {objects.kind === 'failed' ? <Alert tone="danger">{t('funnels.fields_failed')}</Alert> : null}
      {steps.map((step, index) => (
        <fieldset
          key={index}
          className="flex flex-col gap-3 rounded-md border border-slate-200 p-3"
        >
          <legend className="px-1 text-sm font-semibold text-slate-900">
            {t('funnels.step', { step: index + 1 })}
          </legend>
          <TextInput
            label={t('funnels.step_title', { step: index + 1 })}
            value={step.title}
            onChange={(title) => setStep(index, { title })}
            required
            maxLength={200}
          />
          <CheckboxGroup
            legend={t('funnels.step_fields', { step: index + 1 })}
            options={options}
            value={step.fields}
            onChange={(fields) => setStep(index, { fields })}
          />
          <div className="flex flex-wrap gap-1">
            <Button
              variant="ghost"
              disabled={index === 0}
              aria-label={t('funnels.move_step_up', { step: index + 1 })}
              onClick={() => move(index, -1)}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              disabled={index === steps.length - 1}
              aria-label={t('funnels.move_step_down', { step: index + 1 })}
              onClick={() => move(index, 1)}
            >
              ↓
            </Button>
            <Button
              variant="ghost"
              disabled={steps.length === 1}
              onClick={() => setSteps((current) => current.filter((_, i) => i !== index))}
            >
              {t('funnels.remove_step', { step: index + 1 })}
            </Button>
          </div>
        </fieldset>
      ))}
      {stepErrors.length ? (
        <ul className="text-sm text-red-700">
          {stepErrors.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <div>
        <Button
          variant="secondary"
          onClick={() => setSteps((current) => [...current, { title: '', fields: new Set() }])}
        >
          {t('funnels.add_step')}
        </Button>
      </div>
    </DialogForm>
  );
}
