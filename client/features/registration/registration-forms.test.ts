import { describe, expect, it } from 'vitest';
import { validateForm } from '#client/ui/form/custom-schema.ts';
import {
  addressSchema,
  customFieldsOf,
  personSchema,
  registrationPayload,
} from './registration-forms.ts';

const person = personSchema({
  email: 'E-mail',
  firstName: 'First name',
  lastName: 'Last name',
  newPassword: 'Password',
  confirmPassword: 'Repeat password',
});
const valid = {
  email: 'rita@example.test',
  firstName: 'Rita',
  lastName: 'Register',
  newPassword: 'Fresh1234',
  confirmPassword: 'Fresh1234',
  isEulaAccepted: true,
};
const errorsOf = (values: Record<string, unknown>) => validateForm(person, values).errors;

describe('personSchema (spec, section 5: user registration step)', () => {
  it('accepts a complete person', () => {
    expect(validateForm(person, valid).success).toBe(true);
  });

  it('names every missing field with fieldRequired, and the EULA must be ticked', () => {
    expect(errorsOf({})).toEqual({
      email: ['messages.fieldRequired?field=E-mail'],
      firstName: ['messages.fieldRequired?field=First+name'],
      lastName: ['messages.fieldRequired?field=Last+name'],
      newPassword: ['messages.fieldRequired?field=Password'],
      confirmPassword: ['messages.fieldRequired?field=Repeat+password'],
      isEulaAccepted: ['messages.booleanTrueRequired'],
    });
    expect(errorsOf({ ...valid, firstName: '   ' }).firstName).toEqual([
      'messages.fieldRequired?field=First+name',
    ]);
    expect(errorsOf({ ...valid, isEulaAccepted: false }).isEulaAccepted).toEqual([
      'messages.booleanTrueRequired',
    ]);
  });

  it('checks the e-mail format with invalidEmailFormat', () => {
    expect(errorsOf({ ...valid, email: 'rita@' }).email).toEqual(['messages.invalidEmailFormat']);
  });

  it.each([
    ['Short1A', ['messages.passwordLengthError?min=8']],
    ['alllowercase1', ['messages.password_rules']],
    ['ALLUPPERCASE1', ['messages.password_rules']],
    ['NoDigitsHere', ['messages.password_rules']],
  ])('refuses the password %s', (password, messages) => {
    const errors = errorsOf({ ...valid, newPassword: password, confirmPassword: password });
    expect(errors.newPassword).toEqual(messages);
  });

  it('shows notMatchPasswordError while other fields are still open', () => {
    const errors = errorsOf({ newPassword: 'Fresh1234', confirmPassword: 'Fresh12345' });
    expect(errors.confirmPassword).toEqual(['messages.notMatchPasswordError']);
    expect(errors.isEulaAccepted).toBeDefined();
  });
});

describe('addressSchema (organisation step)', () => {
  const address = addressSchema({
    street: 'Street',
    houseNumber: 'House number',
    zipCode: 'Postcode',
    city: 'City',
    country: 'Country',
  });

  it('requires every field with its label', () => {
    const result = validateForm(address, { street: 'Ringstraße', city: '' });
    expect(result.errors).toEqual({
      houseNumber: ['messages.fieldRequired?field=House+number'],
      zipCode: ['messages.fieldRequired?field=Postcode'],
      city: ['messages.fieldRequired?field=City'],
      country: ['messages.fieldRequired?field=Country'],
    });
  });

  it('checks the postcode against its country, as the organisation forms and the sandbox do', () => {
    const at = { street: 'Ringstraße', houseNumber: '1', city: 'Kiel' };
    for (const [zipCode, country] of [
      ['ABCDE', 'Deutschland'],
      ['1234', 'DE'],
      ['00950', 'Polska'],
      ['12345', 'Österreich'],
    ]) {
      expect(validateForm(address, { ...at, zipCode, country }).errors, zipCode).toEqual({
        zipCode: ['messages.invalid_zip'],
      });
    }
    for (const [zipCode, country] of [
      ['24103', 'Deutschland'],
      ['00-950', 'Polen'],
      ['1010', 'AT'],
      ['SW1A 1AA', 'United Kingdom'],
    ]) {
      expect(validateForm(address, { ...at, zipCode, country }).success, zipCode).toBe(true);
    }
  });
});

describe('customFieldsOf', () => {
  const schema = (fields: { name: string; type: string; isRequired?: boolean }[]) => ({
    id: 1,
    code: 'organization-extra',
    entity: 'organization',
    fields,
  });

  it('is null without a schema or without fields: no custom step', () => {
    expect(customFieldsOf(null)).toBeNull();
    expect(customFieldsOf(schema([]))).toBeNull();
  });

  it('keeps known types and reads other types as required strings', () => {
    expect(
      customFieldsOf(
        schema([
          { name: 'employees', type: 'number' },
          { name: 'notes', type: 'textarea', isRequired: false },
          { name: 'colour', type: 'colour', isRequired: false },
        ]),
      ),
    ).toEqual([
      { name: 'employees', type: 'number', isRequired: false },
      // Spec: a text area is optionally required, as the admin's form takes it.
      { name: 'notes', type: 'textarea', isRequired: false },
      { name: 'colour', type: 'string', isRequired: true },
    ]);
  });
});

describe('registrationPayload', () => {
  const fields = customFieldsOf({
    id: 1,
    code: 'organization-extra',
    entity: 'organization',
    fields: [
      { name: 'registrationNumber', type: 'string', isRequired: true },
      { name: 'employees', type: 'number' },
      { name: 'foundedOn', type: 'date' },
    ],
  });

  it('builds the spec payload: trimmed texts, untouched password, empty custom values left out', () => {
    const payload = registrationPayload(
      'tok',
      {
        userData: { ...valid, firstName: ' Rita ', newPassword: ' Fresh1234 ' },
        customData: { registrationNumber: 'HRB 1', employees: '12', foundedOn: '' },
        orgData: {
          name: 'Makler AG',
          street: 'Ringstraße',
          houseNumber: '7',
          zipCode: '04109',
          city: 'Leipzig',
          country: 'Deutschland',
        },
      },
      fields,
    );
    expect(payload).toEqual({
      firstName: 'Rita',
      lastName: 'Register',
      password: ' Fresh1234 ',
      street: 'Ringstraße',
      houseNumber: '7',
      zipCode: '04109',
      city: 'Leipzig',
      country: 'Deutschland',
      isEulaAccepted: true,
      customFields: { registrationNumber: 'HRB 1', employees: 12 },
      invitationToken: 'tok',
    });
  });

  it('sends no custom fields without a schema and refuses invalid custom values', () => {
    expect(registrationPayload('tok', { userData: valid }, null).customFields).toEqual({});
    expect(() =>
      registrationPayload('tok', { customData: { registrationNumber: '' } }, fields),
    ).toThrow();
  });
});
