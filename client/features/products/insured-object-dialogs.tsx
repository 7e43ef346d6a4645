import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  createInsuredObject,
  listDefaultProductFields,
  listInsuredObjectTypes,
  updateInsuredObject,
} from '#client/api/product-extras-client.ts';
import type { InsuredObject } from '#client/api/products-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import { DialogForm } from './dialog-form.tsx';
import { insuredObjectSchema } from './product-forms.ts';

function useObjectForm(initial: { name: string; label: string }) {
  const { t } = useTranslation('products');
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const labels = { name: t('objects.name'), label: t('objects.label') };
  const validate = () => {
    const result = validateForm(insuredObjectSchema(labels), values);
    setErrors(result.errors);
    return result.success ? result.output : null;
  };
  const fields = (
    <>
      <TextInput
        label={labels.label}
        value={values.label}
        onChange={(label) => setValues((v) => ({ ...v, label }))}
        required
        errors={errors.label}
        maxLength={200}
      />
      <TextInput
        label={labels.name}
        value={values.name}
        onChange={(name) => setValues((v) => ({ ...v, name }))}
        required
        errors={errors.name}
        hint={t('objects.name_hint')}
        maxLength={63}
      />
    </>
  );
  return { values, setValues, validate, fields };
}

/**
 * Adds an insured object to a draft version, from a type of the catalogue (which brings its
 * default fields, listed as a hint) or without one. The type proposes name and label.
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
  const loadTypes = useCallback(
    (signal: AbortSignal) => listInsuredObjectTypes(accountIndex, signal),
    [accountIndex],
  );
  const { state: types } = useLoad(loadTypes, 'insured object types');
  const [typeId, setTypeId] = useState('');
  const [defaults, setDefaults] = useState<string[] | null>(null);
  const form = useObjectForm({ name: '', label: '' });
  const { setValues } = form;

  useEffect(() => {
    setDefaults(null);
    if (!typeId) return;
    const controller = new AbortController();
    listDefaultProductFields(accountIndex, Number(typeId), controller.signal)
      .then((fields) => setDefaults(fields.map((f) => f.label)))
      .catch(() => undefined);
    return () => controller.abort();
  }, [accountIndex, typeId]);

  const chooseType = (id: string) => {
    setTypeId(id);
    const type = types.kind === 'ready' ? types.value.find((x) => String(x.id) === id) : undefined;
    if (type) setValues({ name: type.name, label: type.label });
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
            ? types.value.map((type) => ({ value: String(type.id), label: type.label }))
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

/** Renames an insured object (name and label), based on the version it was loaded at. */
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
  const form = useObjectForm({ name: object.name, label: object.label });
  const [basedOn, setBasedOn] = useState(object.version);

  const submit = () => {
    const output = form.validate();
    if (!output) return false;
    return updateInsuredObject(accountIndex, object.id, { ...output, version: basedOn }).then(
      (saved) => {
        onClose(saved.label);
        return true;
      },
      (error: unknown) => {
        // Saving again overwrites the change someone else made in between.
        const body =
          error instanceof ApiError ? (error.body as { insuredObject?: InsuredObject }) : null;
        if (body?.insuredObject) setBasedOn(body.insuredObject.version);
        throw error;
      },
    );
  };

  return (
    <DialogForm
      title={t('objects.rename')}
      submitLabel={t('actions.save')}
      submit={submit}
      onCancel={() => onClose(null)}
    >
      {form.fields}
    </DialogForm>
  );
}
