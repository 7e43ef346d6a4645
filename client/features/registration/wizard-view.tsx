import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { Alert } from '#client/ui/alert.tsx';
import type { CustomField } from '#client/ui/form/custom-schema.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import type {
  createRegistrationWizard,
  StepValues,
  WizardStep,
  WizardValues,
} from '#machines/registration-wizard.ts';
import { translateMessage } from '#client/ui/form/messages.ts';
import { FIELD_LABELS } from './registration-forms.ts';
import { refusedFields } from './save-error.ts';
import { AddressStep, CustomStep, PersonStep, type StepFrame } from './wizard-steps.tsx';

const STEP_KEYS = {
  userData: 'user_data',
  customData: 'custom_data',
  orgData: 'org_data',
} as const;

/**
 * The person step came back from a reload: what was typed is there, the password is not (it is
 * never kept), so the user is told why the password boxes are empty.
 */
function passwordAgain(step: WizardStep, values: WizardValues): boolean {
  const person = values.userData;
  return step === 'userData' && Boolean(person?.['firstName']) && !person?.['newPassword'];
}

const CUSTOM_PREFIX = 'customFields.';

/**
 * The save error of the last step. When the service named what it refused (an address that
 * already has an account, a taken organisation name, a field's rule), each field is named with
 * the reason in the user's language: "try again" would not help. Else the spec's errorSave.
 */
function SaveError({
  error,
  customFields,
}: {
  error: unknown;
  customFields: readonly CustomField[] | null;
}) {
  const { t } = useTranslation('registration');
  const refused = refusedFields(error);
  if (refused.length === 0) return <Alert tone="danger">{t('errorSave')}</Alert>;
  const labelOf = (field: string): string => {
    if (field in FIELD_LABELS) return t(FIELD_LABELS[field as keyof typeof FIELD_LABELS]);
    const name = field.startsWith(CUSTOM_PREFIX) ? field.slice(CUSTOM_PREFIX.length) : field;
    const custom = customFields?.find((f) => f.name === name);
    return custom?.label ?? name;
  };
  return (
    <Alert tone="danger">
      <p>{t('refused.lead')}</p>
      <ul className="mt-1 list-disc pl-5">
        {refused.map(({ field, text }) => (
          <li key={`${field}:${'key' in text ? text.key : text.message}`}>
            {field ? <span className="font-semibold">{labelOf(field)}: </span> : null}
            {'key' in text
              ? t(text.key)
              : translateMessage(
                  (key, values) => t(key as never, { ns: 'ui', ...values }),
                  text.message,
                )}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

export type WizardActor = ActorRefFrom<ReturnType<typeof createRegistrationWizard>>;

/**
 * What a registration wizard shows in each state of its machine: a spinner while the invitation
 * is checked (and while leaving for the result page), else the current step; while submitting
 * and after a failed save the last step stays, with its button or the danger alert errorSave.
 */
export function WizardView({
  actor,
  order,
  kind,
  customFields,
  ssoUrl,
  onValues,
  onPrevious,
}: {
  actor: WizardActor;
  order: readonly WizardStep[];
  kind: 'user' | 'organization';
  customFields: readonly CustomField[] | null;
  ssoUrl?: string | null;
  /** The current step's values on every change (a wizard that keeps a draft). */
  onValues?: (step: WizardStep, values: StepValues) => void;
  /** Instead of sending `wizard.previous`: a wizard whose steps are history entries goes back. */
  onPrevious?: (values: StepValues) => void;
}) {
  const { t } = useTranslation('registration');
  const snapshot = useSelector(actor, (s) => s);
  if (snapshot.matches('verifying') || snapshot.status !== 'active') {
    return <Spinner label={t('verifying')} />;
  }
  const visible = order.filter((step) => step !== 'customData' || customFields !== null);
  const editing = (snapshot.value as { editing?: WizardStep }).editing;
  const step = editing ?? visible[visible.length - 1]!;
  const index = visible.indexOf(step) + 1;
  const send =
    (type: 'wizard.next' | 'wizard.previous' | 'wizard.submit') => (values: StepValues) =>
      actor.send({ type, values });
  const frame: StepFrame = {
    step,
    title: t(`${kind}.steps.${STEP_KEYS[step]}`),
    index,
    count: visible.length,
    initial: snapshot.context.values[step] ?? {},
    busy: snapshot.matches('submitting'),
    error: snapshot.matches('failed') ? (
      <SaveError error={snapshot.context.error} customFields={customFields} />
    ) : passwordAgain(step, snapshot.context.values) ? (
      <Alert>{t('password_again')}</Alert>
    ) : null,
    onPrevious: index > 1 ? (onPrevious ?? send('wizard.previous')) : undefined,
    onValues: onValues ? (values) => onValues(step, values) : undefined,
    onNext: index < visible.length ? send('wizard.next') : undefined,
    onSubmit: index === visible.length ? send('wizard.submit') : undefined,
  };
  // Keyed by step: each step starts from the values the wizard kept for it.
  switch (step) {
    case 'userData':
      return <PersonStep key={step} frame={frame} ssoUrl={ssoUrl ?? null} />;
    case 'orgData':
      return <AddressStep key={step} frame={frame} />;
    case 'customData':
      return <CustomStep key={step} frame={frame} fields={customFields ?? []} />;
  }
}
