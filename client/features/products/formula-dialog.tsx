import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formulaIssueOf, formulaIssueText } from '#client/entities/product/formula-issue.ts';
import { PREMIUM_UNITS } from '#common/products.ts';
import {
  createPremiumFormula,
  updatePremiumFormula,
  type PremiumFormula,
} from '#client/api/products-client.ts';
import { SelectInput, TextInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { PartDialog, schemaCheck, useReplacedPartEdit } from './record-dialog.tsx';
import { formulaSchema } from './product-forms.ts';
import { unitKey } from './labels.ts';

const formulaValuesOf = (formula: PremiumFormula | null) => ({
  group: formula?.group ?? '',
  name: formula?.name ?? '',
  expression: formula?.expression ?? '',
  unit: formula?.unit ?? '',
  variableName: formula?.variableName ?? '',
});
type FormulaValues = ReturnType<typeof formulaValuesOf>;

/**
 * Adds or edits a premium formula, on the record-edit machine. The service keeps no versions of a
 * formula (a PUT replaces it), so a save cannot conflict; the last save wins. The expression is checked by the service (it knows the
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
  const { t: tErrors } = useTranslation('errors');
  // The expression as sent, so that its problem can quote the place it is at.
  const sent = useRef('');
  const labels = {
    group: t('fields.group'),
    name: t('fields.formula_name'),
    expression: t('fields.expression'),
    unit: t('fields.unit'),
  };
  const { field, frame } = useReplacedPartEdit({
    record: formula,
    valuesOf: formulaValuesOf,
    validate: (values: FormulaValues) => {
      sent.current = values.expression;
      return schemaCheck(formulaSchema(labels), values, { productVersionId });
    },
    // The service's check says what is wrong and where: shown at the expression, pointing there.
    fieldErrorsOf: (error) => {
      const issue = formulaIssueOf(error);
      return issue ? { expression: [formulaIssueText(tErrors, issue, sent.current)] } : null;
    },
    create: (input) => createPremiumFormula(accountIndex, input),
    replace: (id, input) => updatePremiumFormula(accountIndex, id, input),
    onClose,
  });

  return (
    <PartDialog
      {...frame}
      title={formula ? t('dialogs.edit_formula') : t('dialogs.new_formula')}
      wide
    >
      <div className="grid grid-cols-2 gap-4">
        <TextInput label={labels.group} {...field('group')} required />
        <TextInput label={labels.name} {...field('name')} required />
      </div>
      <TextareaInput
        label={labels.expression}
        {...field('expression')}
        required
        rows={3}
        hint={t('hints.expression', { variables: variables.join(', ') })}
      />
      <div className="grid grid-cols-2 gap-4">
        <SelectInput
          label={labels.unit}
          {...field('unit')}
          required
          options={PREMIUM_UNITS.map((value) => ({ value, label: t(unitKey(value)) }))}
        />
        <TextInput
          label={t('fields.variable_name')}
          {...field('variableName')}
          hint={t('hints.variable_name')}
        />
      </div>
    </PartDialog>
  );
}
