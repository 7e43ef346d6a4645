import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import de from '#locales/de/ui.json';
import en from '#locales/en/ui.json';
import { preloadPhoneParser } from './phone-parser.ts';
import {
  buildCustomSchema,
  fieldControl,
  validateForm,
  type CustomField,
} from './custom-schema.ts';
import { customValueText } from './custom-value.ts';
import { setDateDisplay } from './dates.ts';
import { DateTimeInput, ListInput, entriesOf } from './fields.tsx';

/** The reader of custom values with a language's real `ui` texts. */
const reader = (texts: typeof en, language: string) =>
  customValueText((key) => texts.custom_value[key.replace('custom_value.', '') as 'yes'], language);

describe('customValueText: a custom value shown by its field type', () => {
  const shownDe = reader(de, 'de');
  const shownEn = reader(en, 'en');

  it('shows booleans as a translated yes or no, never the raw true or false', () => {
    const field = { type: 'boolean' };
    expect([shownDe(true, field), shownDe(false, field)]).toEqual(['Ja', 'Nein']);
    expect([shownEn(true, field), shownEn(false, field)]).toEqual(['Yes', 'No']);
  });

  it('shows a list by its option labels, a list without options by its entries', () => {
    const withOptions = {
      type: 'array',
      options: [
        { value: 'car', label: 'Kfz' },
        { value: 'home', label: 'Hausrat' },
      ],
    };
    expect(shownDe(['home', 'car'], withOptions)).toBe('Hausrat, Kfz');
    expect(shownDe(['a', 'b'], { type: 'array', options: ['a', 'b'] })).toBe('a, b');
    expect(shownDe(['first', 'second'], { type: 'array' })).toBe('first, second');
    expect(shownDe([], { type: 'array' })).toBe('—');
  });

  it('shows dates and date-times in the tenant display, other texts as they are', () => {
    setDateDisplay({ dateFormat: 'DD.MM.YYYY', timeFormat: 'HH:mm', timeZone: 'UTC' });
    expect(shownDe('2024-05-17', { type: 'date' })).toBe('17.05.2024');
    expect(shownDe('2024-05-17T10:15:00.000Z', { type: 'dateTime' })).toBe('17.05.2024 10:15');
    expect(shownDe('2024-05-17T10:15:00.000Z', { control: 'dateTime' })).toBe('17.05.2024 10:15');
    expect(shownDe('2024-05-17', { type: 'string' })).toBe('2024-05-17');
    expect(shownDe('+49 30 901820', { type: 'phone' })).toBe('+49 30 901820');
    expect(shownDe('line 1\nline 2', { type: 'textarea' })).toBe('line 1\nline 2');
  });

  it('shows numbers in the language, empties as a dash, a field since removed by its kind', () => {
    expect(shownDe(1234.5, { type: 'number' })).toBe('1.234,5');
    expect(shownEn(1234.5, { type: 'number' })).toBe('1,234.5');
    expect([shownDe(null), shownDe(undefined), shownDe('')]).toEqual(['—', '—', '—']);
    expect(shownDe(true)).toBe('Ja');
    expect(shownDe({ a: 1, b: false })).toBe('a: 1; b: Nein');
  });
});

describe('list fields', () => {
  it('are edited with the list control', () => {
    expect(fieldControl({ type: 'array' })).toBe('list');
    expect(fieldControl({ type: 'array', options: ['a'] })).toBe('list');
    expect(fieldControl({ type: 'textarea' })).toBe('textarea');
  });

  it('with options: a checkbox for each, the chosen ones checked, in a fieldset named by the label', () => {
    const html = renderToStaticMarkup(
      <ListInput
        label="Sparten"
        name="lines"
        value={['home']}
        options={[
          { value: 'car', label: 'Kfz' },
          { value: 'home', label: 'Hausrat' },
        ]}
        onChange={() => {}}
      />,
    );
    expect(html).toContain('<legend');
    expect(html).toContain('Sparten');
    const boxes = html.match(/<input[^>]*type="checkbox"[^>]*>/g) ?? [];
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toContain('value="car"');
    expect(boxes[0]).not.toContain('checked');
    expect(boxes[1]).toContain('value="home"');
    expect(boxes[1]).toContain('checked');
  });

  it('without options: one entry per line of a text area', () => {
    const html = renderToStaticMarkup(
      <ListInput label="Notes" name="notes" value={['first', 'second']} onChange={() => {}} />,
    );
    expect(html).toContain('<textarea');
    expect(html).toContain('first\nsecond');
    expect(html).not.toContain('type="checkbox"');
  });

  it('reads typed lines as entries, trimmed and without the blank ones', () => {
    expect(entriesOf(' first \n\nsecond\n')).toEqual(['first', 'second']);
    expect(entriesOf('')).toEqual([]);
  });

  it('validates entries against the options and a required list as non-empty', () => {
    const { schema } = buildCustomSchema([
      {
        name: 'lines',
        label: 'Sparten',
        type: 'array',
        isRequired: true,
        options: ['car', 'home'],
      },
      { name: 'notes', type: 'array', isRequired: false },
    ]);
    expect(validateForm(schema, { lines: ['car'], notes: ['anything'] }).errors).toEqual({});
    expect(validateForm(schema, { lines: ['boat'], notes: null }).errors).toEqual({
      lines: ['messages.invalid_value'],
    });
    expect(validateForm(schema, { lines: [], notes: null }).errors).toEqual({
      lines: ['messages.fieldRequired?field=Sparten'],
    });
  });
});

describe('phone, text area and date-time fields', () => {
  const fields: CustomField[] = [
    { name: 'phone', type: 'phone', isRequired: true },
    { name: 'notes', type: 'textarea', isRequired: false, maxLength: 10 },
    { name: 'meeting', type: 'dateTime', isRequired: false },
  ];
  const { schema, fields: formFields } = buildCustomSchema(fields);

  it('are offered with their controls', () => {
    expect(formFields.map((f) => f.control)).toEqual(['tel', 'textarea', 'dateTime']);
  });

  it('check the phone with the shared phone rule, a text area by its length, a date-time as ISO', async () => {
    await preloadPhoneParser();
    expect(
      validateForm(schema, {
        phone: '+49 30 901820',
        notes: 'a\nb',
        meeting: '2024-05-17T10:15:00.000Z',
      }).errors,
    ).toEqual({});
    expect(
      validateForm(schema, { phone: '12', notes: 'x'.repeat(11), meeting: '17.05.2024' }).errors,
    ).toEqual({
      phone: ['messages.invalidPhoneFormat'],
      notes: ['messages.string_max?max=10'],
      meeting: ['messages.invalid_date'],
    });
  });
});

describe('DateTimeInput', () => {
  it('shows an instant as the wall time of the tenant zone, not the browser’s', () => {
    const shown = (timeZone: string) => {
      setDateDisplay({ dateFormat: 'DD.MM.YYYY', timeFormat: 'HH:mm', timeZone });
      return renderToStaticMarkup(
        <DateTimeInput
          label="Meeting"
          value="2024-05-17T08:15:00.000Z"
          min="2024-05-17T06:00:00.000Z"
          onChange={() => undefined}
        />,
      );
    };
    expect(shown('America/New_York')).toContain('value="2024-05-17T04:15"');
    expect(shown('America/New_York')).toContain('min="2024-05-17T02:00"');
    expect(shown('Europe/Warsaw')).toContain('value="2024-05-17T10:15"');
  });
});
