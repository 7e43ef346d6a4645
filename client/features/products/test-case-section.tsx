import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  saveProductTestCase,
  type ProductTestCase,
  type TestCaseAnswer,
  type TestCaseObjects,
  type TrialCalculation,
} from '#client/api/product-extras-client.ts';
import type { PremiumFormula } from '#client/api/products-client.ts';
import { formulaIssueText } from '#client/entities/product/formula-issue.ts';
import { grandTotalUnit } from '#client/entities/policy/policy-display.ts';
import { formatMoney } from '#client/ui/money.ts';
import { productQueries } from '#client/api/products-queries.ts';
import {
  ApplicationFields,
  ApplicationSummary,
  useFieldTexts,
} from '#client/entities/application/application-fields.tsx';
import {
  applicationObjects,
  initialValues,
  splitIssues,
  type ApplicationObject,
} from '#client/entities/application/application-values.ts';
import {
  useApplicationForm,
  useFieldFocus,
} from '#client/entities/application/use-application-form.ts';
import { FixFieldsAlert } from '#client/entities/application/application-form.tsx';
import { useTariff, type Tariff } from '#client/entities/product/use-tariff.ts';
import type { PolicyObjectInput } from '#common/policy-object-data.ts';
import { Button } from '#client/ui/button.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { allLoaded, loadStateOf, retryFailed } from '#client/ui/load-state.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { Loading, useFailureMessage } from './page-parts.tsx';
import { unitKey } from './labels.ts';

/**
 * A product version's stored test case (issue 15 point 2): per insured object and field the
 * sample values the activation's trial calculation computes the premium with, instead of the
 * fields' default values. The service answers the trial as an activation now would run it (the
 * premium, or the formula that fails and why), so the product manager sees it before activating;
 * a test case that makes a formula fail keeps the version from being activated. Edited on a draft
 * only; an active version shows what it was tried with.
 */

/** Every field may stay empty: an empty field takes its sample value at the trial. */
const optionalFields = (objects: readonly ApplicationObject[]): ApplicationObject[] =>
  objects.map((object) => ({
    ...object,
    productFields: object.productFields.map((field) => ({ ...field, isRequired: false })),
  }));

/** The form's policy objects as the test case's body: by object name, blank fields left out. */
export function testCaseObjectsOf(
  objects: readonly ApplicationObject[],
  policyObjects: readonly PolicyObjectInput[],
): TestCaseObjects {
  const result: TestCaseObjects = {};
  for (const { insuredObjectId, data } of policyObjects) {
    const object = objects.find((o) => o.id === insuredObjectId);
    if (!object) continue;
    const given = Object.entries(data as Record<string, unknown>).filter(
      ([, value]) => value !== null && value !== undefined,
    ) as [string, string | number | boolean][];
    if (given.length) result[object.name] = Object.fromEntries(given);
  }
  return result;
}

/** The stored values only: the objects and fields the test case sets. */
function givenOnly(objects: readonly ApplicationObject[], stored: TestCaseObjects) {
  return objects
    .map((object) => ({
      ...object,
      productFields: object.productFields.filter((f) => stored[object.name]?.[f.name] != null),
    }))
    .filter((object) => object.productFields.length > 0);
}

export function TestCaseSection({
  accountIndex,
  versionId,
  canEdit,
  onSaved,
}: {
  accountIndex: number;
  versionId: number;
  /** A draft the user may update; otherwise the test case is only shown. */
  canEdit: boolean;
  onSaved: (message: string) => void;
}) {
  const { t, i18n } = useTranslation('products');
  const tariff = useTariff(accountIndex, versionId, true);
  const testCaseQuery = useQuery(productQueries.testCase(accountIndex, versionId));
  const [editing, setEditing] = useState(false);
  const state = allLoaded<[Tariff | null, TestCaseAnswer]>([tariff, loadStateOf(testCaseQuery)]);
  const objects = useMemo(
    () =>
      tariff.kind === 'ready' && tariff.value
        ? applicationObjects(tariff.value.objects, i18n.language)
        : [],
    [tariff, i18n.language],
  );

  let body;
  if (state.kind === 'loading') body = <Loading />;
  else if (state.kind === 'failed') {
    body = (
      <LoadProblem
        error={state.error}
        failed={t('test_case.load_failed')}
        onRetry={() => {
          tariff.retry();
          retryFailed([testCaseQuery]);
        }}
      />
    );
  } else {
    const { testCase, trial } = state.value[1];
    const given = givenOnly(objects, testCase.objects);
    body = (
      <>
        <TrialResult trial={trial} formulas={state.value[0]?.formulas ?? []} />
        {given.length ? (
          <ApplicationSummary
            accountIndex={accountIndex}
            objects={given}
            // Stored values as they are (no language): the summary formats numbers itself.
            values={initialValues(given, testCase.objects)}
          />
        ) : (
          <p className="text-sm text-slate-700">{t('test_case.none')}</p>
        )}
      </>
    );
  }
  const testCase = state.kind === 'ready' ? state.value[1].testCase : null;

  return (
    <section aria-labelledby="test-case-heading" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id="test-case-heading" className="text-lg font-semibold text-slate-900">
          {t('test_case.title')}
        </h2>
        {canEdit && testCase ? (
          <Button onClick={() => setEditing(true)}>{t('test_case.edit')}</Button>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">{t('test_case.used_when_activating')}</p>
      {body}
      {editing && testCase ? (
        <TestCaseDialog
          accountIndex={accountIndex}
          versionId={versionId}
          objects={objects}
          testCase={testCase}
          onClose={(saved) => {
            setEditing(false);
            if (saved) onSaved(t('test_case.saved'));
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * The trial calculation's result in words: the premium with its unit, or why there is none (the
 * formula and what fails in it, as the activation would refuse).
 */
function TrialResult({
  trial,
  formulas,
}: {
  trial: TrialCalculation;
  formulas: readonly PremiumFormula[];
}) {
  const { t, i18n } = useTranslation('products');
  const { t: tErrors } = useTranslation('errors');
  const productFailure = useFailureMessage();
  if ('premium' in trial) {
    const { premium } = trial;
    const unit = grandTotalUnit(premium.premiumItems, new Map(formulas.map((f) => [f.id, f.unit])));
    return (
      <p className="font-semibold text-slate-900" data-testid="trial-premium">
        {t('test_case.trial_premium', {
          total: formatMoney(premium.grandTotal, premium.currency, i18n.language),
          unit: unit ? t(unitKey(unit)) : '',
        }).trim()}
      </p>
    );
  }
  const issue = trial.issues.find((i) => i.formula !== undefined && i.position !== undefined);
  const why = issue
    ? formulaIssueText(tErrors, issue)
    : productFailure(new ApiError(409, trial.error, '', { issues: trial.issues }));
  return (
    <p className="font-semibold text-red-800" data-testid="trial-premium">
      {t('test_case.trial_failed', { message: why })}
    </p>
  );
}

/** An issue of the service's answer as it comes (with a range issue's bound). */
type AnswerIssue = { path: string; code: string; limit?: number };

const answerIssues = (error: unknown): AnswerIssue[] => {
  if (!(error instanceof ApiError) || error.code !== 'validation_error') return [];
  const issues = (error.body as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? (issues as AnswerIssue[]) : [];
};

function TestCaseDialog({
  accountIndex,
  versionId,
  objects,
  testCase,
  onClose,
}: {
  accountIndex: number;
  versionId: number;
  objects: readonly ApplicationObject[];
  testCase: ProductTestCase;
  onClose: (saved: boolean) => void;
}) {
  const { t, i18n } = useTranslation('products');
  const texts = useFieldTexts();
  const productFailure = useFailureMessage();
  const editable = useMemo(() => optionalFields(objects), [objects]);
  // A version without a test case starts from the fields' defaults, as the trial would use them.
  const [initial] = useState(() =>
    initialValues(
      editable,
      testCase.version > 0 ? testCase.objects : {},
      new Date(),
      i18n.language,
    ),
  );
  const form = useApplicationForm(editable, initial);
  const [busy, setBusy] = useState(false);
  const focusField = useFieldFocus(busy);

  /** A refusal in words: the fields it names with their labels, else the editor's message. */
  const failureMessage = (error: unknown) => {
    const issues = answerIssues(error);
    if (!issues.length) return productFailure(error);
    return t('test_case.refused', {
      issues: issues.map((issue) => texts.issueLine(editable, issue)).join('; '),
    });
  };

  const submit = () => {
    const invalid = form.revealAll();
    if (invalid.length) {
      focusField(invalid[0]!);
      return false;
    }
    setBusy(true);
    return saveProductTestCase(accountIndex, versionId, {
      objects: testCaseObjectsOf(editable, form.policyObjects),
      version: testCase.version,
    }).then(
      () => {
        setBusy(false);
        onClose(true);
      },
      (error: unknown) => {
        setBusy(false);
        // The service's verdict at the fields it names, too (the message above the buttons lists all).
        const { atFields } = splitIssues(editable, answerIssues(error));
        if (atFields.length) {
          form.showServerIssues(atFields);
          focusField(atFields[0]!.path);
        }
        throw error;
      },
    );
  };

  return (
    <SubmitDialog
      title={t('test_case.dialog_title')}
      submitLabel={t('actions.save')}
      busyLabel={t('actions.saving')}
      cancelLabel={t('actions.cancel')}
      submit={submit}
      failureMessage={failureMessage}
      onCancel={() => onClose(false)}
      wide
    >
      <p className="text-sm text-slate-700">{t('test_case.hint')}</p>
      <ApplicationFields accountIndex={accountIndex} form={form} disabled={busy} />
      <FixFieldsAlert form={form} />
    </SubmitDialog>
  );
}
