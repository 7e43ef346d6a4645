import { useEffect, useId, useMemo, useRef, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '#client/ui/button.tsx';
import { CustomFormFields } from '#client/ui/form/custom-form-fields.tsx';
import { useLocalizedFields } from '#client/i18n/translated-text.ts';
import { buildCustomSchema, type CustomField } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { translateMessage } from '#client/ui/form/messages.ts';
import type { StepValues, WizardStep } from '#machines/registration-wizard.ts';
import { REGISTRATION_FIELD_MAX } from '#common/registration-fields.ts';
import { PASSWORD_MAX_LENGTH } from '#common/password-rules.ts';
import { ADDRESS_FIELDS, addressSchema, FIELD_LABELS, personSchema } from './registration-forms.ts';
import { useStepForm, type StepForm } from './use-step-form.ts';

/** Where a step stands in its wizard and what its buttons may do. */
export interface StepFrame {
  step: WizardStep;
  title: string;
  /** 1-based position and the number of steps (2 without a custom schema, else 3). */
  index: number;
  count: number;
  initial: StepValues;
  /** The registration call is running (the last step's button reads 'registering'). */
  busy: boolean;
  /** A save error to show above the buttons (last step only). */
  error?: ReactNode;
  onPrevious?: ((values: StepValues) => void) | undefined;
  onNext?: ((values: StepValues) => void) | undefined;
  onSubmit?: ((values: StepValues) => void) | undefined;
  /** Told the step's values on every change. */
  onValues?: ((values: StepValues) => void) | undefined;
}

/** The sandbox's limit of a field as the input's `maxlength`: one cannot type past it. */
const maxLengthOf = (name: string): number | undefined =>
  name === 'newPassword' || name === 'confirmPassword'
    ? PASSWORD_MAX_LENGTH
    : name in REGISTRATION_FIELD_MAX
      ? REGISTRATION_FIELD_MAX[name as keyof typeof REGISTRATION_FIELD_MAX]
      : undefined;

const text = (form: StepForm, name: string) =>
  typeof form.values[name] === 'string' ? (form.values[name] as string) : '';

/**
 * A step: heading with the position (1/3), the fields, the save error and the buttons. Next is
 * disabled while the form is invalid when `strict` (organisation data, the final step), else it
 * shows every error.
 */
function StepForm({
  frame,
  form,
  strict,
  children,
}: {
  frame: StepFrame;
  form: StepForm;
  strict: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('registration');
  const heading = useRef<HTMLHeadingElement>(null);
  const last = frame.onSubmit !== undefined;
  // A new step takes the focus, so that keyboard and screen-reader users start at its top.
  useEffect(() => heading.current?.focus(), []);
  const { onValues } = frame;
  useEffect(() => onValues?.(form.values), [onValues, form.values]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.check()) return;
    if (last) frame.onSubmit?.(form.values);
    else frame.onNext?.(form.values);
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`step-${frame.step}`}>
      <h2
        id={`step-${frame.step}`}
        ref={heading}
        tabIndex={-1}
        className="mb-4 flex items-baseline gap-3 text-xl font-semibold text-slate-900 outline-none"
      >
        <span className="rounded-full bg-slate-200 px-2 py-0.5 text-sm text-slate-800">
          {t('step_label', { index: frame.index, count: frame.count })}
        </span>
        {frame.title}
      </h2>
      <fieldset className="flex flex-col gap-4" disabled={frame.busy}>
        {children}
      </fieldset>
      {frame.error ? <div className="mt-4">{frame.error}</div> : null}
      <div className="mt-6 flex justify-between gap-3">
        {frame.onPrevious ? (
          <Button
            variant="secondary"
            disabled={frame.busy}
            onClick={() => frame.onPrevious?.(form.values)}
          >
            {t('actions.previous')}
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" disabled={frame.busy || (strict && !form.isValid)}>
          {last
            ? frame.busy
              ? t('actions.registering')
              : t('actions.register')
            : t('actions.next')}
        </Button>
      </div>
    </form>
  );
}

/** Opens beside the wizard, so that nothing typed is lost; says so to screen readers. */
function NewTabLink({ href, children }: { href: string; children?: ReactNode }) {
  const { t } = useTranslation('registration');
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-blue-800 underline">
      {children}
      <span className="sr-only"> ({t('opens_new_tab')})</span>
    </a>
  );
}

/** The EULA checkbox: its label links to the terms and the privacy page (new tab). */
function EulaField({ form }: { form: StepForm }) {
  const { t } = useTranslation(['registration', 'ui']);
  const id = useId();
  const errors = form.errors.isEulaAccepted ?? [];
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          name="isEulaAccepted"
          className="mt-1 size-4"
          checked={form.values.isEulaAccepted === true}
          aria-required
          aria-invalid={errors.length > 0 ? true : undefined}
          aria-describedby={errors.length > 0 ? `${id}-errors` : undefined}
          onChange={(event) => form.set('isEulaAccepted', event.target.checked)}
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          <Trans
            t={t}
            i18nKey="eula"
            components={{
              terms: <NewTabLink href="/terms" />,
              privacy: <NewTabLink href="/privacy" />,
            }}
          />
          <span aria-hidden="true" className="text-red-700">
            {' *'}
          </span>
        </label>
      </div>
      {errors.length > 0 ? (
        <ul id={`${id}-errors`} className="text-sm text-red-700">
          {errors.map((error) => (
            <li key={error}>
              {translateMessage((key, values) => t(key as never, { ns: 'ui', ...values }), error)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * User data, also the contact person of an organisation: e-mail (the invitation's, read-only),
 * names, password twice with the rules shown, and the EULA. `ssoUrl` adds the identity
 * provider's button with an 'or' divider.
 */
export function PersonStep({ frame, ssoUrl }: { frame: StepFrame; ssoUrl?: string | null }) {
  const { t } = useTranslation('registration');
  const schema = useMemo(
    () =>
      personSchema({
        email: t(FIELD_LABELS.email),
        firstName: t(FIELD_LABELS.firstName),
        lastName: t(FIELD_LABELS.lastName),
        newPassword: t(FIELD_LABELS.newPassword),
        confirmPassword: t(FIELD_LABELS.confirmPassword),
      }),
    [t],
  );
  const form = useStepForm(schema, frame.initial);
  const field = (name: keyof typeof FIELD_LABELS) => ({
    name,
    label: t(FIELD_LABELS[name]),
    required: true,
    errors: form.errors[name],
    value: text(form, name),
    maxLength: maxLengthOf(name),
    onChange: (value: string) => form.set(name, value),
  });
  return (
    <StepForm frame={frame} form={form} strict={frame.onSubmit !== undefined}>
      {ssoUrl ? (
        <>
          <a
            href={ssoUrl}
            className="inline-flex justify-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
          >
            {t('sso.button')}
          </a>
          <p className="flex items-center gap-3 text-sm text-slate-600">
            <span aria-hidden="true" className="h-px flex-1 bg-slate-300" />
            {t('sso.or')}
            <span aria-hidden="true" className="h-px flex-1 bg-slate-300" />
          </p>
        </>
      ) : null}
      {/* The invitation belongs to the address it was sent to: it is shown, not changed. */}
      <TextInput {...field('email')} type="email" readOnly autoComplete="username" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput {...field('firstName')} autoComplete="given-name" />
        <TextInput {...field('lastName')} autoComplete="family-name" />
      </div>
      <TextInput
        {...field('newPassword')}
        type="password"
        autoComplete="new-password"
        hint={t('password_hint')}
      />
      <TextInput {...field('confirmPassword')} type="password" autoComplete="new-password" />
      <EulaField form={form} />
    </StepForm>
  );
}

/** Organisation data: the invitation's name (read-only) and the address, all required. */
export function AddressStep({ frame }: { frame: StepFrame }) {
  const { t } = useTranslation('registration');
  const schema = useMemo(
    () =>
      addressSchema(
        Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, t(FIELD_LABELS[name])])) as Record<
          (typeof ADDRESS_FIELDS)[number],
          string
        >,
      ),
    [t],
  );
  const form = useStepForm(schema, frame.initial);
  const name = text(form, 'name');
  return (
    <StepForm frame={frame} form={form} strict>
      {name ? (
        <TextInput
          name="name"
          label={t(FIELD_LABELS.name)}
          value={name}
          readOnly
          onChange={() => {}}
        />
      ) : null}
      {ADDRESS_FIELDS.map((field) => (
        <TextInput
          key={field}
          name={field}
          label={t(FIELD_LABELS[field])}
          required
          maxLength={REGISTRATION_FIELD_MAX[field]}
          errors={form.errors[field]}
          value={text(form, field)}
          onChange={(value) => form.set(field, value)}
        />
      ))}
    </StepForm>
  );
}

/** The tenant's custom fields, rendered and checked by the form kit. */
export function CustomStep({
  frame,
  fields,
}: {
  frame: StepFrame;
  fields: readonly CustomField[];
}) {
  // Labels in the invitee's language, as the tenant translated them.
  const localized = useLocalizedFields(fields);
  const built = useMemo(() => buildCustomSchema(localized), [localized]);
  const form = useStepForm(built.schema, frame.initial);
  return (
    <StepForm frame={frame} form={form} strict={frame.onSubmit !== undefined}>
      <CustomFormFields
        fields={built.fields}
        values={form.values}
        errors={form.errors}
        onChange={form.set}
      />
    </StepForm>
  );
}
