import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_CATEGORIES } from '#common/products.ts';
import {
  createProduct,
  createProductVersion,
  type Product,
  type ProductVersion,
} from '#client/api/products-client.ts';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { DialogForm } from './dialog-form.tsx';
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
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const labels = { name: t('fields.product_name'), category: t('fields.category') };

  const submit = () => {
    const result = validateForm(productSchema(labels), { name, category });
    setErrors(result.errors);
    if (!result.success) return false;
    return createProduct(accountIndex, result.output).then((product) => {
      onClose(product);
      return true;
    });
  };

  return (
    <DialogForm
      title={t('dialogs.new_product')}
      submitLabel={t('actions.create')}
      submit={submit}
      onCancel={() => onClose(null)}
    >
      <TextInput
        label={labels.name}
        value={name}
        onChange={setName}
        required
        errors={errors.name}
        maxLength={200}
      />
      <SelectInput
        label={labels.category}
        value={category}
        onChange={setCategory}
        required
        errors={errors.category}
        options={PRODUCT_CATEGORIES.map((value) => ({ value, label: t(categoryKey(value)) }))}
      />
    </DialogForm>
  );
}

/** "New version": a draft that starts with the 'default' insured object and its system fields. */
export function VersionDialog({
  accountIndex,
  productId,
  onClose,
}: {
  accountIndex: number;
  productId: number;
  onClose: (created: ProductVersion | null) => void;
}) {
  const { t } = useTranslation('products');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = () => {
    const result = validateForm(versionSchema(), { description });
    setErrors(result.errors);
    if (!result.success) return false;
    return createProductVersion(accountIndex, { productId, ...result.output }).then((version) => {
      onClose(version);
      return true;
    });
  };

  return (
    <DialogForm
      title={t('dialogs.new_version')}
      submitLabel={t('actions.create')}
      submit={submit}
      onCancel={() => onClose(null)}
    >
      <TextareaInput
        label={t('fields.description')}
        value={description}
        onChange={setDescription}
        errors={errors.description}
        rows={3}
        hint={t('hints.new_version')}
      />
    </DialogForm>
  );
}
