import { useTranslation } from 'react-i18next';
import { PRODUCT_FIELD_KINDS, PRODUCT_FIELD_TYPES } from '#common/products.ts';
import {
  createProductField,
  updateProductField,
  type InsuredObject,
  type ProductField,
} from '#client/api/products-client.ts';
import { CheckboxInput, NumberInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { PartDialog, schemaCheck, useReplacedPartEdit } from './record-dialog.tsx';
import { fieldSchema } from './product-forms.ts';
import { fieldKindKey, fieldTypeKey } from './labels.ts';

const numberText = (value: number | null | undefined) => (value == null ? '' : String(value));

const fieldValuesOf = (field: ProductField | null) => ({
  name: field?.name ?? '',
  label: field?.label ?? '',
  type: field?.type ?? '',
  kind: field?.kind ?? '',
  isRequired: field?.isRequired ?? false,
  minimum: numberText(field?.minimum),
  maximum: numberText(field?.maximum),
});
type FieldValues = ReturnType<typeof fieldValuesOf>;

/**
 * Adds a field to an insured object, or edits one (same form; the object stays the same), on the
 * record-edit machine. The service keeps no versions of a field (a PUT replaces it), so a save
 * cannot conflict; the last save wins.
 */
export function FieldDialog({
  accountIndex,
  object,
  field,
  onClose,
}: {
  accountIndex: number;
  object: InsuredObject;
  field: ProductField | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation('products');
  const labels = {
    name: t('fields.field_name'),
    label: t('fields.field_label'),
    type: t('fields.type'),
  };
  const {
    form,
    field: bind,
    frame,
  } = useReplacedPartEdit({
    record: field,
    valuesOf: fieldValuesOf,
    validate: (values: FieldValues) =>
      schemaCheck(fieldSchema(labels), values, { insuredObjectId: object.id }),
    create: (input) => createProductField(accountIndex, input),
    replace: (id, input) => updateProductField(accountIndex, id, input),
    onClose,
  });
  const { values } = form;

  return (
    <PartDialog
      {...frame}
      title={
        field
          ? t('dialogs.edit_field', { object: object.label })
          : t('dialogs.new_field', { object: object.label })
      }
    >
      <TextInput label={labels.label} {...bind('label')} required />
      <TextInput label={labels.name} {...bind('name')} required hint={t('hints.field_name')} />
      <SelectInput
        label={labels.type}
        {...bind('type')}
        required
        options={PRODUCT_FIELD_TYPES.map((value) => ({ value, label: t(fieldTypeKey(value)) }))}
      />
      <SelectInput
        label={t('fields.kind')}
        {...bind('kind')}
        options={PRODUCT_FIELD_KINDS.map((value) => ({ value, label: t(fieldKindKey(value)) }))}
      />
      {values.type === 'number' ? (
        <div className="grid grid-cols-2 gap-4">
          <NumberInput label={t('fields.minimum')} {...bind('minimum')} />
          <NumberInput label={t('fields.maximum')} {...bind('maximum')} />
        </div>
      ) : null}
      <CheckboxInput
        label={t('fields.required')}
        checked={values.isRequired}
        onChange={bind('isRequired').onChange}
      />
    </PartDialog>
  );
}
