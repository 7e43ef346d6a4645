import * as v from 'valibot';
import type { OrganizationAddress } from '#client/api/organizations-client.ts';
import { isCustomFieldType, type CustomField } from '#client/ui/form/custom-schema.ts';
import { message } from '#client/ui/form/messages.ts';
import {
  emailRule,
  maxLengthRule,
  postcodeChecked,
  requiredString,
} from '#client/ui/form/rules.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { REGISTRATION_FIELD_MAX } from '#common/registration-fields.ts';

/** The spec's organisation form: name (read-only after creation) and the address. */
export const ADDRESS_FIELDS = ['street', 'houseNumber', 'zipCode', 'city', 'country'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type FormLabels = Record<AddressField | 'name' | 'email' | 'slug', string>;

// The service's limits (common/registration-fields.ts): the form says so before the server does.
export const MAX_LENGTH: Record<AddressField | 'name', number> = REGISTRATION_FIELD_MAX;
export const SLUG_MAX_LENGTH = 63;
const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

export const emptyAddress = (): OrganizationAddress => ({
  street: '',
  houseNumber: '',
  zipCode: '',
  city: '',
  country: '',
});

export function pickAddress(source: OrganizationAddress): OrganizationAddress {
  return {
    street: source.street,
    houseNumber: source.houseNumber,
    zipCode: source.zipCode,
    city: source.city,
    country: source.country,
  };
}

const required = (labels: FormLabels, field: AddressField | 'name') =>
  v.pipe(requiredString(labels[field]), v.trim(), maxLengthRule(MAX_LENGTH[field]));

const optional = (field: AddressField) =>
  v.pipe(
    v.nullish(v.string(), ''),
    v.transform((value) => value.trim()),
    maxLengthRule(MAX_LENGTH[field]),
  );

/**
 * An object schema for a form: a field left out counts as empty, so that it gets its own
 * 'field required' message rather than valibot's "invalid key".
 */
function formObject<TEntries extends v.ObjectEntries>(entries: TEntries) {
  const missing = Object.fromEntries(Object.keys(entries).map((key) => [key, null]));
  return v.pipe(
    v.record(v.string(), v.unknown()),
    v.transform((input) => ({ ...missing, ...input })),
    v.object(entries),
  );
}

function addressEntries(labels: FormLabels) {
  return {
    street: required(labels, 'street'),
    houseNumber: required(labels, 'houseNumber'),
    zipCode: required(labels, 'zipCode'),
    city: required(labels, 'city'),
    country: required(labels, 'country'),
  };
}

/** Edit form: every address field required, 'field required' with its label (spec, section 3). */
export function addressSchema(labels: FormLabels) {
  return postcodeChecked(formObject(addressEntries(labels)));
}

/** Create form: the name too, since it can only be chosen here. */
export function organizationSchema(labels: FormLabels) {
  return postcodeChecked(formObject({ name: required(labels, 'name'), ...addressEntries(labels) }));
}

/**
 * Invitation form: the name, the slug and the contact e-mail are required; the address is a
 * proposal the invited organisation completes in its registration wizard, so it may stay empty.
 */
export function invitationSchema(labels: FormLabels) {
  return postcodeChecked(
    formObject({
      name: required(labels, 'name'),
      slug: v.pipe(
        requiredString(labels.slug),
        v.trim(),
        maxLengthRule(SLUG_MAX_LENGTH),
        v.regex(SLUG_PATTERN, message('messages.invalid_value')),
      ),
      email: v.pipe(requiredString(labels.email), v.trim(), emailRule('invalidEmail')),
      street: optional('street'),
      houseNumber: optional('houseNumber'),
      zipCode: optional('zipCode'),
      city: optional('city'),
      country: optional('country'),
    }),
  );
}

// Spec, section 9: German umlauts are transliterated in slugs. The Polish ł has no decomposed
// form, so the accent stripping below would turn it into a hyphen.
const TRANSLITERATION: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ł: 'l' };

/** 'Makler Müller GmbH' -> 'makler-mueller-gmbh': the service's slug rule, from a name. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[äöüßł]/g, (c) => TRANSLITERATION[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
}

const isLabels = (value: unknown): value is NameLabels =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every((text) => typeof text === 'string');

/**
 * The fields of a custom schema as the service sent them, checked: a field of a type the form
 * kit does not know is left out rather than breaking the form.
 */
export function customFieldsOf(raw: readonly unknown[] | undefined): CustomField[] {
  return (raw ?? []).flatMap((item): CustomField[] => {
    if (typeof item !== 'object' || item === null) return [];
    const field = item as Record<string, unknown>;
    if (typeof field.name !== 'string' || typeof field.type !== 'string') return [];
    if (!isCustomFieldType(field.type)) return [];
    const number = (key: string) =>
      typeof field[key] === 'number' ? { [key]: field[key] as number } : {};
    return [
      {
        name: field.name,
        type: field.type,
        isRequired: field.isRequired === true,
        ...(typeof field.label === 'string' ? { label: field.label } : {}),
        ...(isLabels(field.labels) ? { labels: field.labels } : {}),
        ...number('minimum'),
        ...number('maximum'),
        ...number('minLength'),
        ...number('maxLength'),
        ...(Array.isArray(field.options) ? { options: field.options as string[] } : {}),
      },
    ];
  });
}

/**
 * Custom values of an invitation are a proposal: the registration wizard asks for them again and
 * enforces the required ones there. Here only their form (length, range, type) is checked.
 */
export function asProposal(fields: readonly CustomField[]): CustomField[] {
  return fields.map((field) => ({ ...field, isRequired: false }));
}

/** Custom values without the empty ones: the service keeps only what was given. */
export function withoutEmpty(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== null && value !== undefined),
  );
}

const KNOWN_ERRORS = [
  'validation_error',
  'name_read_only',
  'organization_name_taken',
  'organization_name_invited',
  'already_registered',
  'not_found',
  'forbidden',
  'escalation',
  'unknown_role',
  'invitation_used',
] as const;
export type ErrorKey = `errors.${(typeof KNOWN_ERRORS)[number] | 'generic'}`;

/** The translation key of a service error code; unknown codes get the generic text. */
export function errorKey(code: string | undefined): ErrorKey {
  const known = KNOWN_ERRORS.find((k) => k === code);
  return `errors.${known ?? 'generic'}`;
}
