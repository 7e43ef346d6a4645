import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { numberText } from './custom-form-fields.tsx';
import { CUSTOM_TEXT_DEFAULT_MAX } from '#common/custom-schema-field.ts';
import { buildCustomSchema, validateForm, type CustomField } from './custom-schema.ts';
import { formatDate, formatDateTime, parseDisplayDate } from './dates.ts';
import { message, parseMessage, translateMessage } from './messages.ts';
import {
  emailRule,
  equalTo,
  isPhoneNumber,
  notMatchPasswordMessage,
  passwordRule,
  requiredString,
  trueRequired,
} from './rules.ts';
import { emptyToNull, formatNumberInput, parseNumberInput } from './values.ts';
import { preloadPhoneParser } from './phone-parser.ts';

const errorsOf = (schema: v.GenericSchema, value: unknown) => validateForm(schema, value).errors;

describe('messages', () => {
  it('encodes the key and values and parses them back', () => {
    const text = message('messages.numberMin', { min: 3 });
    expect(text).toBe('messages.numberMin?min=3');
    expect(parseMessage(text)).toEqual({ key: 'messages.numberMin', values: { min: '3' } });
    expect(parseMessage('messages.invalidEmail')).toEqual({
      key: 'messages.invalidEmail',
      values: {},
    });
    const fieldWithSymbols = message('messages.fieldRequired', { field: 'A & B = C?' });
    expect(parseMessage(fieldWithSymbols).values).toEqual({ field: 'A & B = C?' });
  });

  it('translates with t', () => {
    const t = (key: string, values: Record<string, string>) => `${key}:${JSON.stringify(values)}`;
    expect(translateMessage(t, 'messages.numberMax?max=9')).toBe('messages.numberMax:{"max":"9"}');
  });
});

describe('rules', () => {
  it('required strings give fieldRequired with the label', () => {
    const schema = v.object({ name: requiredString('Name') });
    for (const name of ['', '   ', null, undefined]) {
      expect(errorsOf(schema, { name })).toEqual({
        name: ['messages.fieldRequired?field=Name'],
      });
    }
    expect(validateForm(schema, { name: 'Ann' }).success).toBe(true);
  });

  it('e-mail: invalidEmail for dynamic fields, invalidEmailFormat for registration', () => {
    expect(v.safeParse(v.pipe(v.string(), emailRule()), 'x@').issues?.[0]?.message).toBe(
      'messages.invalidEmail',
    );
    expect(
      v.safeParse(v.pipe(v.string(), emailRule('invalidEmailFormat')), 'x@').issues?.[0]?.message,
    ).toBe('messages.invalidEmailFormat');
    expect(v.safeParse(v.pipe(v.string(), emailRule()), 'anna@example.com').success).toBe(true);
  });

  it.each([
    ['', true],
    ['+49 30 901820', true],
    ['030 901820', true],
    ['+48 22 123 45 67', true],
    ['12', false],
    ['not a phone', false],
  ])('isPhoneNumber(%j) is %j (empty is valid)', async (text, valid) => {
    await preloadPhoneParser();
    expect(isPhoneNumber(text)).toBe(valid);
  });

  it('password: length 8, then upper, lower and digit', () => {
    const schema = v.object({ password: passwordRule('Password') });
    expect(errorsOf(schema, { password: 'Ab1' }).password).toEqual([
      'messages.passwordLengthError?min=8',
    ]);
    expect(errorsOf(schema, { password: 'abcdefgh' }).password).toEqual([
      'messages.password_rules',
    ]);
    expect(errorsOf(schema, { password: 'ABCDEFG1' }).password).toEqual([
      'messages.password_rules',
    ]);
    expect(validateForm(schema, { password: 'Abcdefg1' }).success).toBe(true);
    expect(validateForm(schema, { password: 'Żółwiki1' }).success).toBe(true);
  });

  it('password: the sandbox rule, so no step passes what the submit refuses', () => {
    const schema = v.object({ password: passwordRule('Password') });
    // Unicode upper case counts on both sides (common/password-rules.ts).
    expect(validateForm(schema, { password: 'Äbcdefg1' }).success).toBe(true);
    expect(errorsOf(schema, { password: `Ab1${'x'.repeat(198)}` }).password).toEqual([
      'messages.string_max?max=200',
    ]);
    expect(errorsOf(schema, { password: 'Abcd\tefg1' }).password).toEqual([
      'messages.password_control_character',
    ]);
  });

  it('equalTo puts notMatchPasswordError on the confirmation', () => {
    const schema = v.pipe(
      v.object({ newPassword: v.string(), confirmPassword: v.string() }),
      equalTo('confirmPassword', 'newPassword', notMatchPasswordMessage),
    );
    expect(errorsOf(schema, { newPassword: 'Abcdefg1', confirmPassword: 'Abcdefg2' })).toEqual({
      confirmPassword: ['messages.notMatchPasswordError'],
    });
    expect(validateForm(schema, { newPassword: 'a', confirmPassword: 'a' }).success).toBe(true);
    const plain = v.pipe(v.object({ a: v.string(), b: v.string() }), equalTo('b', 'a'));
    expect(errorsOf(plain, { a: 'x', b: 'y' })).toEqual({ b: ['messages.not_equal'] });
  });

  it('a required boolean must be true', () => {
    const schema = v.object({ eula: trueRequired() });
    expect(errorsOf(schema, { eula: false })).toEqual({ eula: ['messages.booleanTrueRequired'] });
    expect(validateForm(schema, { eula: true }).success).toBe(true);
  });
});

describe('buildCustomSchema', () => {
  const fields: CustomField[] = [
    { name: 'nickname', type: 'string', isRequired: true, minLength: 2, maxLength: 5 },
    { name: 'age', label: 'Age', type: 'number', isRequired: true, minimum: 18, maximum: 99 },
    { name: 'email', type: 'email', isRequired: false },
    { name: 'phone', type: 'phone', isRequired: false },
    { name: 'website', type: 'url', isRequired: false },
    { name: 'birthday', type: 'date', isRequired: true },
    { name: 'meeting', type: 'dateTime', isRequired: false },
    { name: 'consent', type: 'boolean', isRequired: true },
    { name: 'newsletter', type: 'boolean', isRequired: false },
    { name: 'tags', type: 'array', isRequired: true },
    { name: 'extra', type: 'object', isRequired: false },
    { name: 'colour', type: 'string', isRequired: false, options: ['red', 'blue'] },
    { name: 'notes', type: 'string', isRequired: false, multiline: true },
  ];
  const { schema, fields: formFields } = buildCustomSchema(fields);
  const valid = {
    nickname: 'Ann',
    age: '42',
    email: 'ann@example.com',
    phone: '+49 30 901820',
    website: 'https://example.com',
    birthday: '1990-05-17',
    meeting: '2024-05-17T10:15:00.000Z',
    consent: true,
    newsletter: false,
    tags: ['a'],
    extra: { a: 1 },
    colour: 'red',
    notes: '',
  };

  it('lists the fields with their controls', () => {
    expect(formFields.map((f) => [f.name, f.control, f.required])).toEqual([
      ['nickname', 'text', true],
      ['age', 'number', true],
      ['email', 'email', false],
      ['phone', 'tel', false],
      ['website', 'url', false],
      ['birthday', 'date', true],
      ['meeting', 'dateTime', false],
      ['consent', 'checkbox', true],
      ['newsletter', 'checkbox', false],
      ['tags', 'list', true],
      ['extra', 'none', false],
      ['colour', 'select', false],
      ['notes', 'textarea', false],
    ]);
    expect(formFields[1]!.label).toBe('Age');
    expect(formFields[0]!.label).toBe('nickname');
  });

  it('accepts valid values, numbers converted and empty strings as null', () => {
    const result = validateForm(schema, valid);
    expect(result.errors).toEqual({});
    expect(result.output).toMatchObject({ age: 42, notes: null });
  });

  it('reports every rule of section 5', async () => {
    // The schema started loading the phone parser; a form is filled long after it arrived.
    await preloadPhoneParser();
    const result = validateForm(schema, {
      nickname: 'A',
      age: '12',
      email: 'nope',
      phone: '12',
      website: 'nope',
      birthday: '',
      meeting: 'yesterday',
      consent: false,
      newsletter: null,
      tags: [],
      extra: null,
      colour: 'green',
      notes: null,
    });
    expect(result.success).toBe(false);
    expect(result.errors).toEqual({
      nickname: ['messages.string_min?min=2'],
      age: ['messages.numberMin?min=18'],
      email: ['messages.invalidEmail'],
      phone: ['messages.invalidPhoneFormat'],
      website: ['messages.invalid_url'],
      birthday: ['messages.fieldRequired?field=birthday'],
      meeting: ['messages.invalid_date'],
      consent: ['messages.booleanTrueRequired'],
      tags: ['messages.fieldRequired?field=tags'],
      colour: ['messages.invalid_value'],
    });
  });

  it('numbers: max, type error and required', () => {
    expect(validateForm(schema, { ...valid, age: 100 }).errors).toEqual({
      age: ['messages.numberMax?max=99'],
    });
    expect(validateForm(schema, { ...valid, age: 'abc' }).errors).toEqual({
      age: ['messages.number_type'],
    });
    expect(validateForm(schema, { ...valid, age: '' }).errors).toEqual({
      age: ['messages.fieldRequired?field=Age'],
    });
    expect(validateForm(schema, { ...valid, age: true }).errors).toEqual({
      age: ['messages.number_type'],
    });
  });

  it('numbers show with the decimal sign of the language and save back unchanged', () => {
    expect(numberText(2500.75, 'de')).toBe('2500,75');
    expect(numberText(2500.75, 'pl')).toBe('2500,75');
    expect(numberText(2500.75, 'en')).toBe('2500.75');
    expect(numberText(40, 'de')).toBe('40');
    const { schema: one } = buildCustomSchema([
      { name: 'estimate', label: 'Estimate', type: 'number', isRequired: true },
    ]);
    expect(validateForm(one, { estimate: numberText(2500.75, 'de') }).output).toEqual({
      estimate: 2500.75,
    });
  });

  it('untouched (missing) fields get their own messages', () => {
    const { schema: small } = buildCustomSchema([
      { name: 'firstName', label: 'First name', type: 'string', isRequired: true },
      { name: 'note', type: 'string', isRequired: false },
    ]);
    expect(validateForm(small, {}).errors).toEqual({
      firstName: ['messages.fieldRequired?field=First+name'],
    });
    expect(validateForm(small, { firstName: 'Ann' }).output).toEqual({
      firstName: 'Ann',
      note: null,
    });
  });

  it('strings: max length', () => {
    expect(validateForm(schema, { ...valid, nickname: 'Annabelle' }).errors).toEqual({
      nickname: ['messages.string_max?max=5'],
    });
  });

  it('strings without a maxLength of their own stop at the sandbox default', () => {
    expect(formFields.find((f) => f.name === 'notes')!.maxLength).toBe(CUSTOM_TEXT_DEFAULT_MAX);
    expect(formFields.find((f) => f.name === 'nickname')!.maxLength).toBe(5);
    const long = 'x'.repeat(CUSTOM_TEXT_DEFAULT_MAX + 1);
    expect(validateForm(schema, { ...valid, notes: long }).errors).toEqual({
      notes: [`messages.string_max?max=${CUSTOM_TEXT_DEFAULT_MAX}`],
    });
    expect(validateForm(schema, { ...valid, notes: long.slice(1) }).errors).toEqual({});
  });

  it('shows all errors or only the first one per field', () => {
    const both = v.object({
      code: v.pipe(
        v.string(),
        v.minLength(3, message('messages.string_min', { min: 3 })),
        v.regex(/^\d+$/, message('messages.invalid_value')),
      ),
    });
    expect(validateForm(both, { code: 'a' }, 'all').errors.code).toEqual([
      'messages.string_min?min=3',
      'messages.invalid_value',
    ]);
    expect(validateForm(both, { code: 'a' }, 'first').errors.code).toEqual([
      'messages.string_min?min=3',
    ]);
  });
});

describe('dates', () => {
  it('shows DD.MM.YYYY and stores ISO', () => {
    expect(formatDate('2024-12-31')).toBe('31.12.2024');
    expect(formatDate('')).toBe('');
    expect(formatDate(null)).toBe('');
    expect(formatDate('31.12.2024')).toBe('');
    expect(parseDisplayDate('31.12.2024')).toBe('2024-12-31');
    expect(parseDisplayDate(' 01.02.2025 ')).toBe('2025-02-01');
    expect(parseDisplayDate('31.02.2024')).toBeNull();
    expect(parseDisplayDate('1.1.24')).toBeNull();
    expect(parseDisplayDate('')).toBeNull();
    expect(formatDateTime('2024-05-17T10:15:00')).toBe('17.05.2024 10:15');
    expect(formatDateTime('nope')).toBe('');
  });
});

describe('values', () => {
  it('turns empty and blank strings into null, deeply', () => {
    expect(
      emptyToNull({ a: '', b: ' ', c: 'x', d: 0, e: false, f: ['', 'y'], g: { h: '' }, i: null }),
    ).toEqual({
      a: null,
      b: null,
      c: 'x',
      d: 0,
      e: false,
      f: [null, 'y'],
      g: { h: null },
      i: null,
    });
  });

  it('number inputs turn an unparsable value into empty', () => {
    expect(parseNumberInput('12')).toBe(12);
    expect(parseNumberInput('1,5')).toBe(1.5);
    expect(parseNumberInput(' ')).toBeNull();
    expect(parseNumberInput('12abc')).toBeNull();
  });

  it('reads numbers as written in the user’s language (issue 15)', () => {
    expect(parseNumberInput('20.000,50', 'de')).toBe(20000.5);
    expect(parseNumberInput('20.000', 'de')).toBe(20000);
    expect(parseNumberInput('20,000', 'de')).toBe(20);
    expect(parseNumberInput('20,000.50', 'en')).toBe(20000.5);
    expect(parseNumberInput('20,000', 'en')).toBe(20000);
    expect(parseNumberInput('20.000', 'en')).toBe(20);
    expect(parseNumberInput('20\u00a0000,50', 'pl')).toBe(20000.5);
    expect(parseNumberInput('1.234.567', 'en')).toBe(1234567);
    expect(parseNumberInput('1,5', 'en')).toBe(1.5);
    expect(parseNumberInput('1.5', 'de')).toBe(1.5);
    expect(parseNumberInput('1.2.3', 'de')).toBeNull();
    expect(parseNumberInput('20.00,5', 'de')).toBeNull();
    expect(formatNumberInput(20000.5, 'de')).toBe('20000,5');
    expect(formatNumberInput(60000, 'en')).toBe('60000');
  });
});

describe('validateForm without messages of the schema', () => {
  it('says a rule by its code, never in valibot’s words', () => {
    const schema = v.object({
      name: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
      email: v.pipe(v.string(), v.email()),
      slug: v.pipe(v.string(), v.regex(/^[a-z]+$/)),
    });
    const { errors } = validateForm(schema, { name: 'n'.repeat(241), email: 'x', slug: 'A' });
    expect(errors).toEqual({
      name: ['messages.string_max?max=200'],
      email: ['messages.invalidEmail'],
      slug: ['messages.invalid_value'],
    });
    expect(validateForm(schema, { name: '   x', email: 'a@b.de', slug: 'a' }).success).toBe(true);
  });
});
