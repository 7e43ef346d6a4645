import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { AccountFields, isPostcode } from './account-fields.ts';
import { countryCodeOf, postcodeFitsCountry } from './postcodes.ts';

describe('postcodes', () => {
  it("follow their country's format", () => {
    expect(isPostcode('51147', 'DE')).toBe(true);
    expect(isPostcode('ABCDE', 'DE')).toBe(false);
    expect(isPostcode('5114', 'DE')).toBe(false);
    expect(isPostcode('1010', 'AT')).toBe(true);
    expect(isPostcode('8001', 'ch')).toBe(true);
    expect(isPostcode('80011', 'CH')).toBe(false);
    expect(isPostcode('00-950', 'PL')).toBe(true);
    expect(isPostcode('00950', 'PL')).toBe(false);
  });

  it('are read as German on a customer, as the customer form and the service check them', () => {
    const person = {
      type: 'person',
      firstName: 'Erika',
      lastName: 'Mustermann',
      email: 'erika@example.test',
      street: 'Heidestraße',
      houseNumber: '17',
      city: 'Köln',
    };
    const issue = (zipCode: string) =>
      v.safeParse(AccountFields, { ...person, zipCode }).issues?.map((i) => i.message);
    expect(issue(' 51147 ')).toBeUndefined();
    expect(issue('ABCDE')).toEqual(['invalid_zip']);
  });
});

describe('postcodes of an address with its country as typed', () => {
  it('know the country by its code or name, in the product’s languages', () => {
    expect(countryCodeOf(' Deutschland ')).toBe('DE');
    expect(countryCodeOf('Österreich')).toBe('AT');
    expect(countryCodeOf('szwajcaria')).toBe('CH');
    expect(countryCodeOf('pl')).toBe('PL');
    expect(countryCodeOf('Frankreich')).toBeNull();
  });

  it('check DE, PL, AT and CH and leave other countries and an empty postcode free', () => {
    expect(postcodeFitsCountry('04109', 'Germany')).toBe(true);
    expect(postcodeFitsCountry('ABCDE', 'Deutschland')).toBe(false);
    expect(postcodeFitsCountry('00-950', 'Polen')).toBe(true);
    expect(postcodeFitsCountry('00950', 'Polska')).toBe(false);
    expect(postcodeFitsCountry('1010', 'Austria')).toBe(true);
    expect(postcodeFitsCountry('10100', 'AT')).toBe(false);
    expect(postcodeFitsCountry('SW1A 1AA', 'United Kingdom')).toBe(true);
    expect(postcodeFitsCountry('anything', '')).toBe(true);
    expect(postcodeFitsCountry('', 'Deutschland')).toBe(true);
  });
});
