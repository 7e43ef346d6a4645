import { describe, expect, it } from 'vitest';
import { validateForm } from '#client/ui/form/custom-schema.ts';
import {
  addressSchema,
  asProposal,
  customFieldsOf,
  errorKey,
  invitationSchema,
  organizationSchema,
  slugify,
  withoutEmpty,
  type FormLabels,
} from './organization-form.ts';
import { orderOf } from './table-order.ts';

const labels: FormLabels = {
  name: 'Name',
  street: 'Street',
  houseNumber: 'House number',
  zipCode: 'Postcode',
  city: 'City',
  country: 'Country',
  email: 'Contact e-mail',
  slug: 'Slug',
};
const address = {
  street: 'Hafenweg',
  houseNumber: '12',
  zipCode: '20457',
  city: 'Hamburg',
  country: 'Deutschland',
};

describe('addressSchema', () => {
  it('accepts a full address and trims it', () => {
    const result = validateForm(addressSchema(labels), { ...address, city: '  Hamburg ' });
    expect(result).toMatchObject({ success: true, output: { ...address, city: 'Hamburg' } });
  });

  it('gives fieldRequired with the label for every empty or blank field', () => {
    const result = validateForm(addressSchema(labels), {
      ...address,
      street: '',
      houseNumber: '   ',
      country: undefined,
    });
    expect(result.success).toBe(false);
    expect(result.errors).toEqual({
      street: ['messages.fieldRequired?field=Street'],
      houseNumber: ['messages.fieldRequired?field=House+number'],
      country: ['messages.fieldRequired?field=Country'],
    });
  });

  it("keeps to the service's length limits", () => {
    const result = validateForm(addressSchema(labels), { ...address, zipCode: '1'.repeat(21) });
    expect(result.errors).toEqual({ zipCode: ['messages.string_max?max=20'] });
  });

  it('says at the postcode when it does not fit the country, as the service would', () => {
    for (const [zipCode, country] of [
      ['ABCDE', 'Deutschland'],
      ['00950', 'Polska'],
      ['10100', 'Österreich'],
    ]) {
      const result = validateForm(addressSchema(labels), { ...address, zipCode, country });
      expect(result.errors).toEqual({ zipCode: ['messages.invalid_zip'] });
    }
    const created = validateForm(organizationSchema(labels), {
      name: 'Agentur',
      ...address,
      zipCode: '1234',
    });
    expect(created.errors).toEqual({ zipCode: ['messages.invalid_zip'] });
    // Other countries keep their own formats; an invitation's empty postcode stays allowed.
    expect(
      validateForm(addressSchema(labels), { ...address, zipCode: 'SW1A 1AA', country: 'UK' })
        .success,
    ).toBe(true);
    expect(
      validateForm(invitationSchema(labels), {
        name: 'Agentur',
        slug: 'agentur',
        email: 'a@agentur.test',
        country: 'Deutschland',
      }).success,
    ).toBe(true);
  });
});

describe('organizationSchema', () => {
  it('requires the name as well', () => {
    expect(validateForm(organizationSchema(labels), address).errors).toEqual({
      name: ['messages.fieldRequired?field=Name'],
    });
    expect(validateForm(organizationSchema(labels), { ...address, name: 'Neu' }).success).toBe(
      true,
    );
  });
});

describe('invitationSchema', () => {
  const valid = { name: 'Makler Neu', slug: 'makler-neu', email: 'a@b.test' };

  it('needs name, slug and e-mail; the address may stay empty', () => {
    const result = validateForm(invitationSchema(labels), valid);
    expect(result).toMatchObject({
      success: true,
      output: { ...valid, street: '', houseNumber: '', zipCode: '', city: '', country: '' },
    });
    expect(validateForm(invitationSchema(labels), {}).errors).toEqual({
      name: ['messages.fieldRequired?field=Name'],
      slug: ['messages.fieldRequired?field=Slug'],
      email: ['messages.fieldRequired?field=Contact+e-mail'],
    });
  });

  it('checks the e-mail and the slug form', () => {
    const result = validateForm(invitationSchema(labels), {
      ...valid,
      email: 'not-an-address',
      slug: 'Big Slug',
    });
    expect(result.errors).toEqual({
      email: ['messages.invalidEmail'],
      slug: ['messages.invalid_value'],
    });
  });
});

describe('slugify', () => {
  it('transliterates German umlauts and ß (spec, section 9)', () => {
    expect(slugify('Makler Müller GmbH')).toBe('makler-mueller-gmbh');
    expect(slugify('Büro Größe & Söhne')).toBe('buero-groesse-soehne');
  });

  it('drops other accents and leading or trailing separators', () => {
    expect(slugify('  Żółć Café!  ')).toBe('zolc-cafe');
    expect(slugify('---')).toBe('');
  });

  it('stays within 63 characters without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(62)} b`);
    expect(slug).toBe('a'.repeat(62));
    expect(slugify('x'.repeat(100))).toHaveLength(63);
  });
});

describe('customFieldsOf', () => {
  it('keeps known field types with their limits and drops unknown ones', () => {
    expect(
      customFieldsOf([
        {
          name: 'registrationNumber',
          label: 'Reg.',
          type: 'string',
          isRequired: true,
          minLength: 3,
        },
        { name: 'employees', type: 'number', minimum: 1, maximum: 10 },
        { name: 'picture', type: 'image' },
        { type: 'string' },
        null,
      ]),
    ).toEqual([
      {
        name: 'registrationNumber',
        label: 'Reg.',
        type: 'string',
        isRequired: true,
        minLength: 3,
      },
      { name: 'employees', type: 'number', isRequired: false, minimum: 1, maximum: 10 },
    ]);
    expect(customFieldsOf(undefined)).toEqual([]);
  });

  it('makes every field optional for an invitation', () => {
    const fields = customFieldsOf([{ name: 'a', type: 'string', isRequired: true }]);
    expect(asProposal(fields)).toEqual([{ name: 'a', type: 'string', isRequired: false }]);
  });
});

describe('withoutEmpty', () => {
  it('drops null and undefined values, keeps false and 0', () => {
    expect(withoutEmpty({ a: null, b: undefined, c: false, d: 0, e: 'x' })).toEqual({
      c: false,
      d: 0,
      e: 'x',
    });
  });
});

describe('errorKey', () => {
  it('maps known service errors and falls back to the generic text', () => {
    expect(errorKey('name_read_only')).toBe('errors.name_read_only');
    expect(errorKey('organization_name_taken')).toBe('errors.organization_name_taken');
    expect(errorKey('http_500')).toBe('errors.generic');
    expect(errorKey(undefined)).toBe('errors.generic');
  });
});

describe('orderOf', () => {
  const fields = { name: 'name', created: 'id' };
  it("turns the table's sort into the service's order", () => {
    expect(orderOf({ column: 'name', direction: 'asc' }, fields)).toEqual({
      field: 'name',
      direction: 'ASC',
    });
    expect(orderOf({ column: 'created', direction: 'desc' }, fields)).toEqual({
      field: 'id',
      direction: 'DESC',
    });
  });

  it('has no order without a sort or for a column the service cannot sort by', () => {
    expect(orderOf(null, fields)).toBeNull();
    expect(orderOf({ column: 'country', direction: 'asc' }, fields)).toBeNull();
  });
});
