import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PREMIUM_UNITS } from '#common/products.ts';
import {
  createPremiumFormula,
  updatePremiumFormula,
  type PremiumFormula,
} from '#client/api/products-client.ts';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { SelectInput, TextInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { DialogForm } from './dialog-form.tsx';
import { formulaSchema } from './product-forms.ts';
import { unitKey } from './labels.ts';

/**
 * Adds or edits a premium formula. The expression is checked by the service (it knows the
 * version's fields and the variables of earlier formulas); its message shows in the dialog.
 */
export function FormulaDialog({
  accountIndex,
  productVersionId,
  formula,
  variables,
  onClose,
}: {
  accountIndex: number;
  productVersionId: number;
  formula: PremiumFormula | null;
  /** The names a formula may read, offered as a hint. */
  variables: readonly string[];
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation('products');
  const [values, setValues] = useState({
    group: formula?.group ?? '',
    name: formula?.name ?? '',
    expression: formula?.expression ?? '',
    unit: formula?.unit ?? '',
    variableName: formula?.variableName ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (key: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));
  const labels = {
    group: t('fields.group'),
    name: t('fields.formula_name'),
    expression: t('fields.expression'),
    unit: t('fields.unit'),
  };

  const submit = () => {
    const result = validateForm(formulaSchema(labels), values);
    setErrors(result.errors);
    if (!result.success) return false;
    const body = { productVersionId, ...result.output };
    const saved = formula
      ? updatePremiumFormula(accountIndex, formula.id, body)
      : createPremiumFormula(accountIndex, body);
    return saved.then(() => {
      onClose(true);
      return true;
    });
  };

  return (
    <DialogForm
      title={formula ? t('dialogs.edit_formula') : t('dialogs.new_formula')}
      submitLabel={formula ? t('actions.save') : t('actions.add')}
      submit={submit}
      onCancel={() => onClose(false)}
      wide
    >
      <div className="grid grid-cols-2 gap-4">
        <TextInput
          label={labels.group}
          value={values.group}
          onChange={set('group')}
          required
          errors={errors.group}
        />
        <TextInput
          label={labels.name}
          value={values.name}
          onChange={set('name')}
          required
          errors={errors.name}
        />
      </div>
      <TextareaInput
        label={labels.expression}
        value={values.expression}
        onChange={set('expression')}
        required
        rows={3}
        errors={errors.expression}
        hint={t('hints.expression', { variables: variables.join(', ') })}
      />
      <div className="grid grid-cols-2 gap-4">
        <SelectInput
          label={labels.unit}
          value={values.unit}
          onChange={set('unit')}
          required
          errors={errors.unit}
          options={PREMIUM_UNITS.map((value) => ({ value, label: t(unitKey(value)) }))}
        />
        <TextInput
          label={t('fields.variable_name')}
          value={values.variableName}
          onChange={set('variableName')}
          errors={errors.variableName}
          hint={t('hints.variable_name')}
        />
      </div>
    </DialogForm>
  );
}
