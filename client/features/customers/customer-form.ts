import * as v from 'valibot';
import type { Account } from '#client/api/accounts-client.ts';
import { AccountFields, type AccountInput } from '#common/account-fields.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { conflictRowsOf, type ConflictRow as ConflictRowOf } from '#client/ui/conflict-rows.ts';

/**
 * The customer form's values and the comparison behind the edit conflict, kept apart from React
 * so that they are tested on their own. Validation is the service's own schema
 * (`#common/account-fields.ts`): the form refuses exactly what the service would refuse.
 */

/** What the form edits: every field a string (inputs), null-able ones as ''. */
export interface CustomerValues {
  type: Account['type'];
  title: Account['title'];
  firstName: string;
  lastName: string;
  companyName: string;
  email: string;
  gender: Account['gender'];
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  birthDate: string;
  phone: string;
  brokerCode: string;
}

export const CUSTOMER_FIELDS = [
  'type',
  'title',
  'firstName',
  'lastName',
  'companyName',
  'email',
  'gender',
  'street',
  'houseNumber',
  'zipCode',
  'city',
  'birthDate',
  'phone',
  'brokerCode',
] as const satisfies readonly (keyof CustomerValues)[];

export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

export function valuesOf(account: Account): CustomerValues {
  return {
    type: account.type,
    title: account.title,
    firstName: account.firstName,
    lastName: account.lastName,
    companyName: account.companyName ?? '',
    email: account.email,
    gender: account.gender,
    street: account.street,
    houseNumber: account.houseNumber,
    zipCode: account.zipCode,
    city: account.city,
    birthDate: account.birthDate ?? '',
    phone: account.phone ?? '',
    brokerCode: account.brokerCode ?? '',
  };
}

/** A new customer: a person, every field empty. */
export function emptyValues(): CustomerValues {
  return {
    type: 'person',
    title: '',
    firstName: '',
    lastName: '',
    companyName: '',
    email: '',
    gender: 'unspecified',
    street: '',
    houseNumber: '',
    zipCode: '',
    city: '',
    birthDate: '',
    phone: '',
    brokerCode: '',
  };
}

/** The form's values as the service takes them: empty optional fields are null. */
export function inputOf(values: CustomerValues): AccountInput {
  return {
    ...values,
    companyName: values.companyName.trim() || null,
    birthDate: values.birthDate || null,
    phone: values.phone.trim() || null,
    brokerCode: values.brokerCode || null,
  };
}

/**
 * Checks the values with the service's schema. Error messages are the schema's codes turned into
 * keys of this namespace (`customers:form.errors.required`), translated where they are shown.
 */
export function validateCustomer(
  values: CustomerValues,
): { ok: true; input: AccountInput } | { ok: false; errors: FieldErrors } {
  const input = inputOf(values);
  const result = v.safeParse(AccountFields, input, { abortPipeEarly: false });
  if (result.success) return { ok: true, input };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const field = v.getDotPath(issue) ?? 'form';
    const code = /^[a-z_]+$/.test(issue.message) ? issue.message : 'invalid';
    const list = (errors[field] ??= []);
    const key = `customers:form.errors.${code}`;
    if (!list.includes(key)) list.push(key);
  }
  return { ok: false, errors };
}

export type ConflictRow = ConflictRowOf<CustomerField>;

/** The fields another save changed since the form was loaded (see conflictRowsOf). */
export function conflictRows(loaded: Account, mine: CustomerValues, saved: Account): ConflictRow[] {
  return conflictRowsOf(CUSTOMER_FIELDS, valuesOf(loaded), mine, valuesOf(saved));
}
