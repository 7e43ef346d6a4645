import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { AccountFields, isPostcode } from './account-fields.ts';

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
