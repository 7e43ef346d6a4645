import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createInsuredObject, updateInsuredObject } from '#client/api/product-extras-client.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { productQueries } from '#client/api/products-queries.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { DialogForm } from './dialog-form.tsx';
import { PartDialog, schemaCheck, usePartEdit, type ConflictShape } from './record-dialog.tsx';
import { insuredObjectSchema } from './product-forms.ts';
import { catalogueLabel } from '#client/entities/product/product-texts.ts';
import { useCatalogueTexts } from '#client/entities/product/use-catalogue-texts.ts';

type ObjectField = 'name' | 'label';
type ObjectValues = Record<ObjectField, string>;
const OBJECT_FIELDS: readonly ObjectField[] = ['label', 'name'];

const objectValuesOf = (object: InsuredObject): ObjectValues => ({
  name: object.name,
  label: object.label,
});

function useObjectLabels(): ObjectValues {
  const { t } = useTranslation('products');
  return { name: t('objects.name'), label: t('objects.label') };
}

/** The object's name and label as the service checks them: the input, or the errors per field. */
function checkObject(values: ObjectValues, labels: ObjectValues) {
  return schemaCheck(insuredObjectSchema(labels), values);
}

function ObjectFields({
  values,
  errors,
  onChange,
  disabled = false,
}: {
  values: ObjectValues;
  errors: FieldErrors;
  onChange: (update: (current: ObjectValues) => ObjectValues) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('products');
  const labels = useObjectLabels();
  return (
    <>
      <TextInput
        label={labels.label}
        value={values.label}
        onChange={(label) => onChange((v) => ({ ...v, label }))}
        required
        errors={errors.label}
        maxLength={200}
        disabled={disabled}
      />
      <TextInput
        label={labels.name}
        value={values.name}
        onChange={(name) => onChange((v) => ({ ...v, name }))}
        required
        errors={errors.name}
        hint={t('objects.name_hint')}
        maxLength={63}
        disabled={disabled}
      />
    </>
  );
}

function useObjectForm(initial: ObjectValues) {
  const labels = useObjectLabels();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const validate = () => {
    const result = checkObject(values, labels);
    setErrors(result.ok ? {} : result.errors);
    return result.ok ? result.input : null;
  };
  const fields = <ObjectFields values={values} errors={errors} onChange={setValues} />;
  return { values, setValues, validate, fields };
}

/**
 * Adds an insured object to a draft version, from a type of the catalogue (which brings its
 * default fields, listed as a hint) or without one. The type proposes name and label. Types and
 * fields are named in the reader's language; the proposed label is the one the reader sees (what
 * they save is their label, shown as typed in every language unless the product's translations
 * name it), while the copied fields keep the catalogue's labels and so read in each language.
 */
export function AddObjectDialog({
  accountIndex,
  productVersionId,
  onClose,
}: {
  accountIndex: number;
  productVersionId: number;
  onClose: (label: string | null) => void;
}) {
  const { t } = useTranslation('products');
  const catalogue = useCatalogueTexts();
  const typeLabel = (type: { name: string; label: string }) =>
    catalogueLabel(catalogue, 'objects', type.name, type.label);
  const types = loadStateOf(useQuery(productQueries.insuredObjectTypes(accountIndex)));
  const [typeId, setTypeId] = useState('');
  // The chosen type's shared fields, only a hint: while loading or failed there is no hint.
  const defaultsQuery = useQuery({
    ...productQueries.defaultFields(accountIndex, Number(typeId)),
    enabled: typeId !== '',
  });
  const defaults =
    defaultsQuery.data?.map((f) => catalogueLabel(catalogue, 'fields', f.name, f.label)) ?? null;
  const form = useObjectForm({ name: '', label: '' });
  const { setValues } = form;

  const chooseType = (id: string) => {
    setTypeId(id);
    const type = types.kind === 'ready' ? types.value.find((x) => String(x.id) === id) : undefined;
    if (type) setValues({ name: type.name, label: typeLabel(type) });
  };

  const submit = () => {
    const output = form.validate();
    if (!output) return false;
    return createInsuredObject(accountIndex, {
      productVersionId,
      insuredObjectTypeId: typeId ? Number(typeId) : null,
      ...output,
    }).then((created) => {
      onClose(created.label);
      return true;
    });
  };

  return (
    <DialogForm
      title={t('objects.new')}
      submitLabel={t('actions.add')}
      submit={submit}
      onCancel={() => onClose(null)}
    >
      {types.kind === 'failed' ? <Alert tone="danger">{t('objects.types_failed')}</Alert> : null}
      <SelectInput
        label={t('objects.type')}
        value={typeId}
        onChange={chooseType}
        options={
          types.kind === 'ready'
            ? types.value.map((type) => ({ value: String(type.id), label: typeLabel(type) }))
            : []
        }
        hint={
          typeId && defaults
            ? t('objects.type_hint', {
                fields: defaults.length ? defaults.join(', ') : t('objects.type_none'),
              })
            : undefined
        }
      />
      {form.fields}
    </DialogForm>
  );
}

/**
 * Renames an insured object (name and label) on top of the version it was loaded at, driven by
 * record-edit: when somebody else saved the object meanwhile, the conflict panel shows their
 * change beside this input, to load theirs, save this input over it, or combine the two.
 */
export function RenameObjectDialog({
  accountIndex,
  object,
  onClose,
}: {
  accountIndex: number;
  object: InsuredObject;
  onClose: (label: string | null) => void;
}) {
  const { t } = useTranslation('products');
  // The conflict panel's texts are the insured object's own.
  const { t: tObject } = useTranslation('products', { keyPrefix: 'objects' });
  const labels = useObjectLabels();
  const conflict: ConflictShape<ObjectValues, ObjectField> = {
    property: 'insuredObject',
    fields: OBJECT_FIELDS,
    shown: (values) => values,
    translate: (key, values) => tObject(key, values),
    label: (field) => labels[field],
  };
  const form = usePartEdit({
    record: object,
    valuesOf: objectValuesOf,
    emptyValues: () => objectValuesOf(object),
    validate: (values: ObjectValues) => checkObject(values, labels),
    update: (record, input, version) =>
      updateInsuredObject(accountIndex, record.id, { ...input, version }),
    conflict,
    onSaved: (saved) => onClose(saved.label),
  });

  return (
    <PartDialog
      form={form}
      conflict={conflict}
      title={t('objects.rename')}
      submitLabel={t('actions.save')}
      onCancel={() => onClose(null)}
    >
      <ObjectFields
        values={form.values}
        errors={form.errors}
        onChange={form.setValues}
        disabled={form.busy}
      />
    </PartDialog>
  );
}
