import * as v from 'valibot';
import type {
  AddressPayload,
  InvitationCustomSchema,
  RegistrationPayload,
} from '#client/api/registration-client.ts';
import {
  buildCustomSchema,
  isCustomFieldType,
  validateForm,
  type CustomField,
} from '#client/ui/form/custom-schema.ts';
import {
  emailRule,
  notMatchPasswordMessage,
  passwordRule,
  postcodeChecked,
  requiredMessage,
  requiredString,
  trueRequired,
} from '#client/ui/form/rules.ts';
import { message } from '#client/ui/form/messages.ts';
import {
  ADDRESS_TEXT_FIELDS,
  addressTextRules,
  personTextRules,
  type FieldMessages,
} from '#common/registration-fields.ts';
import type { StepValues, WizardValues } from '#machines/registration-wizard.ts';

/**
 * The forms of the registration wizards (spec, section 5) and how their values become the
 * registration payload. Labels come in translated, so that "field required" names the field.
 */

/** The translation keys of the fields (camelCase names, snake_case keys). */
export const FIELD_LABELS = {
  email: 'fields.email',
  firstName: 'fields.first_name',
  lastName: 'fields.last_name',
  newPassword: 'fields.new_password',
  confirmPassword: 'fields.confirm_password',
  name: 'fields.name',
  street: 'fields.street',
  houseNumber: 'fields.house_number',
  zipCode: 'fields.zip_code',
  city: 'fields.city',
  country: 'fields.country',
} as const;

export interface PersonLabels {
  email: string;
  firstName: string;
  lastName: string;
  newPassword: string;
  confirmPassword: string;
}

/** The shared rules' refusals as the form shows them: with the field's label, translated. */
const formMessages =
  <F extends string>(labels: Readonly<Record<F, string>>) =>
  (field: F): FieldMessages => ({
    required: requiredMessage(labels[field]),
    tooLong: (max) => message('messages.string_max', { max }),
  });

/**
 * A field the user never touched is missing from the values; as null it gets the field's own
 * message (fieldRequired) rather than valibot's "invalid key".
 */
function missingAsNull(names: readonly string[]) {
  const nulls = Object.fromEntries(names.map((name) => [name, null]));
  return v.pipe(
    v.record(v.string(), v.unknown()),
    v.transform((input) => ({ ...nulls, ...input })),
  );
}

const PERSON_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'newPassword',
  'confirmPassword',
  'isEulaAccepted',
] as const;

/**
 * The user data step, also the contact person of an organisation registration. The names follow
 * the sandbox's rules (common/registration-fields.ts), so that the step refuses what the
 * registration call would.
 */
export function personSchema(labels: PersonLabels) {
  return v.pipe(
    missingAsNull(PERSON_FIELDS),
    v.object({
      email: v.pipe(requiredString(labels.email), emailRule('invalidEmailFormat')),
      ...personTextRules(formMessages(labels)),
      newPassword: passwordRule(labels.newPassword),
      confirmPassword: requiredString(labels.confirmPassword),
      isEulaAccepted: trueRequired(),
    }),
    // A partial check, so that a mismatch shows while other fields (the EULA) are still open.
    v.forward(
      v.partialCheck(
        [['newPassword'], ['confirmPassword']],
        (input) => input.newPassword === input.confirmPassword,
        notMatchPasswordMessage,
      ),
      ['confirmPassword'],
    ),
  );
}

export const ADDRESS_FIELDS = ADDRESS_TEXT_FIELDS;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/**
 * The organisation step: every address field required, at most as long as the sandbox takes,
 * the postcode in its country's format (issue 15 point 5); the name is the invitation's.
 */
export function addressSchema(labels: Record<AddressField, string>) {
  return postcodeChecked(
    v.pipe(missingAsNull(ADDRESS_FIELDS), v.object(addressTextRules(formMessages(labels)))),
  );
}

/**
 * The tenant's schema as the form kit reads it. Spec: "text, date, text-area, colour and select
 * are optionally required", other types are required strings; a schema without fields is no
 * schema (the wizard then has no custom step). A text area is a text area here too, required only
 * when its field says so (it was taken as a required string).
 */
export function customFieldsOf(schema: InvitationCustomSchema | null): CustomField[] | null {
  if (!schema || schema.fields.length === 0) return null;
  return schema.fields.map(({ type, ...field }) =>
    isCustomFieldType(type)
      ? { ...field, type, isRequired: field.isRequired ?? false }
      : { ...field, type: 'string', isRequired: true },
  );
}

/** Empty strings become null; numbers typed as text become numbers (the schema's output). */
export function customFieldValues(
  fields: readonly CustomField[] | null,
  values: StepValues | undefined,
): Record<string, unknown> {
  if (!fields) return {};
  const result = validateForm(buildCustomSchema(fields).schema, values ?? {});
  if (!result.success) throw new Error('custom fields are not valid');
  // Null means "no value": the service stores nothing for it.
  return Object.fromEntries(Object.entries(result.output).filter(([, value]) => value !== null));
}

const text = (values: StepValues | undefined, name: string): string => {
  const value = values?.[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** The registration payload of the spec from the values of the wizard's steps. */
export function registrationPayload(
  token: string,
  values: WizardValues,
  fields: readonly CustomField[] | null,
): RegistrationPayload {
  const address = Object.fromEntries(
    ADDRESS_FIELDS.map((field) => [field, text(values.orgData, field)]),
  ) as unknown as AddressPayload;
  return {
    firstName: text(values.userData, 'firstName'),
    lastName: text(values.userData, 'lastName'),
    // Never trimmed: spaces may be part of a password.
    password: typeof values.userData?.newPassword === 'string' ? values.userData.newPassword : '',
    ...address,
    isEulaAccepted: true,
    customFields: customFieldValues(fields, values.customData),
    invitationToken: token,
  };
}
