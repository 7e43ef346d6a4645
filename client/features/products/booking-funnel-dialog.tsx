import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createBookingFunnel,
  replaceBookingFunnel,
  type BookingFunnel,
} from '#client/api/product-extras-client.ts';
import type { InsuredObject, Product, ProductField } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import type { ConflictKey } from '#client/entities/record/conflict-panel.tsx';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { CheckboxGroup } from '#client/ui/form/checkbox-group.tsx';
import { validateForm } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { requiredString } from '#client/ui/form/rules.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { loadStateOf, mapLoaded, type LoadState } from '#client/ui/load-state.ts';
import * as v from 'valibot';
import { orderInsuredObjects } from '#common/insured-object-order.ts';
import { withProductTexts } from '#client/entities/product/product-texts.ts';
import { useCatalogueTexts } from '#client/entities/product/use-catalogue-texts.ts';
import {
  emptyFunnelValues,
  emptyStep,
  funnelValuesOf,
  moveStep,
  stepProblems,
  stepsToSave,
  type FunnelValues,
} from './booking-funnel-form.ts';
import {
  ListErrors,
  PartDialog,
  fieldBinder,
  listEdits,
  usePartEdit,
  type ConflictShape,
} from './record-dialog.tsx';

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
 * On the record-edit machine: each save is a new version of the funnel, based on the version the
 * dialog was opened at; when someone else saved in between (409), the conflict shows their funnel
 * beside this input, to load theirs, save this input over it, or combine the two.
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
  const catalogue = useCatalogueTexts();
  const { t: tFunnel } = useTranslation('products', { keyPrefix: 'funnels' });
  const { t: tObject } = useTranslation('products', { keyPrefix: 'objects' });
  const nameLabel = t('funnels.name');
  const versionLabel = (versionId: string) => {
    const version = (product.versions ?? []).find((v) => String(v.id) === versionId);
    return version
      ? t('funnels.sells_version', { version: version.version })
      : t('funnels.sells_active');
  };

  // The conflict panel's own texts are the funnel's; its table and buttons are the editor's.
  const conflict: ConflictShape<FunnelValues, keyof FunnelValues> = {
    property: 'bookingFunnel',
    fields: ['name', 'versionId', 'steps'],
    shown: (values) => ({
      name: values.name,
      versionId: versionLabel(values.versionId),
      steps: values.steps.map((s) => `${s.title}: ${s.fields.join(', ')}`).join('; '),
    }),
    translate: (key: ConflictKey, values) =>
      key === 'conflict.title' || key === 'conflict.message'
        ? tFunnel(key, values)
        : tObject(key, values),
    label: (field) =>
      field === 'name'
        ? nameLabel
        : field === 'versionId'
          ? t('funnels.product_version')
          : t('funnels.steps'),
  };

  // The fields offered are those of the version the form sells now (a merge may change it).
  const fieldOrder = { current: [] as string[] };
  const form = usePartEdit({
    record: funnel,
    valuesOf: funnelValuesOf,
    emptyValues: emptyFunnelValues,
    validate: (values: FunnelValues) => {
      const result = validateForm(v.object({ name: v.pipe(requiredString(nameLabel), v.trim()) }), {
        name: values.name,
      });
      const problems = stepProblems(values.steps).map((problem) =>
        'step' in problem
          ? t(`funnels.${problem.key}`, { step: problem.step })
          : t(`funnels.${problem.key}`),
      );
      if (!result.success || problems.length) {
        return {
          ok: false,
          errors: { ...result.errors, ...(problems.length ? { steps: problems } : {}) },
        };
      }
      return {
        ok: true,
        input: {
          name: result.output.name,
          productVersionId: values.versionId ? Number(values.versionId) : null,
          steps: stepsToSave(values.steps, fieldOrder.current),
        },
      };
    },
    create: (input) => createBookingFunnel(accountIndex, { ...input, productSlug: product.slug }),
    update: (record, input, version) =>
      replaceBookingFunnel(accountIndex, record.code, { ...input, version }),
    conflict,
    onSaved: (saved) => onClose(saved.name),
  });
  const { values, errors } = form;
  const { steps } = values;
  const field = fieldBinder(form);

  const sellingId = sellingVersion(product, values.versionId ? Number(values.versionId) : null)?.id;
  const fieldsQuery = useQuery({
    ...productQueries.insuredObjects(accountIndex, sellingId ?? 0),
    enabled: sellingId !== undefined,
  });
  // A product without versions offers no fields (nothing is asked for).
  const objects: LoadState<(InsuredObject & { productFields: ProductField[] })[]> = sellingId
    ? mapLoaded(loadStateOf(fieldsQuery), (list) =>
        // The catalogue's labels in the reader's language, as the version editor shows them.
        orderInsuredObjects(withProductTexts(list, {}, catalogue), i18n.language),
      )
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
  fieldOrder.current = options.map((o) => o.id);

  const stepEdits = listEdits(form, 'steps');

  return (
    <PartDialog
      form={form}
      conflict={conflict}
      title={funnel ? t('funnels.edit') : t('funnels.new')}
      submitLabel={funnel ? t('actions.save') : t('actions.create')}
      onCancel={() => onClose(null)}
      wide
    >
      <TextInput label={nameLabel} {...field('name')} required maxLength={200} />
      <SelectInput
        label={t('funnels.product_version')}
        {...field('versionId')}
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
            onChange={(title) => stepEdits.change(index, { title })}
            required
            maxLength={200}
          />
          <CheckboxGroup
            legend={t('funnels.step_fields', { step: index + 1 })}
            options={options}
            value={new Set(step.fields)}
            onChange={(fields) => stepEdits.change(index, { fields: [...fields] })}
          />
          <div className="flex flex-wrap gap-1">
            <Button
              variant="ghost"
              disabled={index === 0}
              aria-label={t('funnels.move_step_up', { step: index + 1 })}
              onClick={() => stepEdits.set((current) => moveStep(current, index, -1))}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              disabled={index === steps.length - 1}
              aria-label={t('funnels.move_step_down', { step: index + 1 })}
              onClick={() => stepEdits.set((current) => moveStep(current, index, 1))}
            >
              ↓
            </Button>
            <Button
              variant="ghost"
              disabled={steps.length === 1}
              onClick={() => stepEdits.remove(index)}
            >
              {t('funnels.remove_step', { step: index + 1 })}
            </Button>
          </div>
        </fieldset>
      ))}
      <ListErrors errors={errors.steps ?? []} />
      <div>
        <Button
          variant="secondary"
          onClick={() => stepEdits.set((current) => [...current, emptyStep()])}
        >
          {t('funnels.add_step')}
        </Button>
      </div>
    </PartDialog>
  );
}
