import { useTranslation } from 'react-i18next';
import { PRODUCT_CATEGORIES } from '#common/products.ts';
import {
  createProduct,
  createProductVersion,
  type Product,
  type ProductVersion,
} from '#client/api/products-client.ts';
import { CheckboxInput, SelectInput, TextInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { PartDialog, fieldBinder, schemaCheck, usePartEdit } from './record-dialog.tsx';
import { productSchema, versionSchema } from './product-forms.ts';
import { categoryKey } from './labels.ts';

/** "New product": its name and category; the service derives the slug from the name. */
export function ProductDialog({
  accountIndex,
  onClose,
}: {
  accountIndex: number;
  onClose: (created: Product | null) => void;
}) {
  const { t } = useTranslation('products');
  const labels = { name: t('fields.product_name'), category: t('fields.category') };
  // Create only, on the record-edit machine: the form's check, the save, a refusal at the fields.
  const form = usePartEdit({
    record: null,
    valuesOf: (product: Product) => ({ name: product.name, category: product.category }),
    emptyValues: () => ({ name: '', category: '' }),
    validate: (values: { name: string; category: string }) =>
      schemaCheck(productSchema(labels), values),
    create: (input) => createProduct(accountIndex, input),
    onSaved: (product) => onClose(product),
  });
  const field = fieldBinder(form);

  return (
    <PartDialog
      form={form}
      title={t('dialogs.new_product')}
      submitLabel={t('actions.create')}
      onCancel={() => onClose(null)}
    >
      <TextInput label={labels.name} {...field('name')} required maxLength={200} />
      <SelectInput
        label={labels.category}
        {...field('category')}
        required
        options={PRODUCT_CATEGORIES.map((value) => ({ value, label: t(categoryKey(value)) }))}
      />
    </PartDialog>
  );
}

interface VersionValues {
  description: string;
  /** Only the 'default' insured object, instead of a copy of `copyFrom`. */
  startEmpty: boolean;
}

/**
 * "New version": a draft that starts as a copy of the product's newest version (its insured
 * objects, fields, formulas, factors, named ranges and the booking funnels that sell it; the
 * service copies them, docs/decisions/005), or, when chosen or when there is none, with only the
 * 'default' insured object and its system fields.
 */
export function VersionDialog({
  accountIndex,
  productId,
  copyFrom,
  onClose,
}: {
  accountIndex: number;
  productId: number;
  /** The version a new one copies unless the user starts empty; null for the first version. */
  copyFrom: ProductVersion | null;
  onClose: (created: ProductVersion | null) => void;
}) {
  const { t } = useTranslation('products');
  const form = usePartEdit({
    record: null,
    valuesOf: (version: ProductVersion) => ({
      description: version.description,
      startEmpty: false,
    }),
    emptyValues: (): VersionValues => ({ description: '', startEmpty: false }),
    validate: ({ description, startEmpty }: VersionValues) =>
      schemaCheck(
        versionSchema(),
        { description },
        {
          productId,
          ...(copyFrom && !startEmpty ? { copyFromVersionId: copyFrom.id } : {}),
        },
      ),
    create: (input) => createProductVersion(accountIndex, input),
    onSaved: (version) => onClose(version),
  });
  const { values } = form;
  const field = fieldBinder(form);
  const copies = copyFrom !== null && !values.startEmpty;

  return (
    <PartDialog
      form={form}
      title={t('dialogs.new_version')}
      submitLabel={t('actions.create')}
      onCancel={() => onClose(null)}
    >
      <TextareaInput
        label={t('fields.description')}
        {...field('description')}
        rows={3}
        hint={
          copies
            ? t('hints.new_version_copy', { version: copyFrom.version })
            : t('hints.new_version')
        }
      />
      {copyFrom ? (
        <CheckboxInput
          label={t('fields.start_empty')}
          checked={values.startEmpty}
          onChange={field('startEmpty').onChange}
          hint={t('hints.start_empty', { version: copyFrom.version })}
        />
      ) : null}
    </PartDialog>
  );
}
