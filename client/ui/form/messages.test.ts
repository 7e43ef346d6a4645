import { describe, expect, it } from 'vitest';
import { message, translateMessage } from './messages.ts';

describe('translateMessage', () => {
  const t = (key: string, values: Record<string, string>) =>
    `[${key}${Object.keys(values).length ? ` ${JSON.stringify(values)}` : ''}]`;

  it('translates an encoded key with its values', () => {
    expect(translateMessage(t, message('messages.string_max', { max: 200 }))).toBe(
      '[messages.string_max {"max":"200"}]',
    );
    expect(translateMessage(t, 'tenant_settings:payment.errors.credential')).toBe(
      '[tenant_settings:payment.errors.credential]',
    );
  });

  it('shows a finished text as it is, dots, colons and question marks included', () => {
    const text =
      '„vehicle.unbekannt“ ist weder ein Feld dieser Version noch eine Variable (Zeichen 1: „vehicle.unbekann…“)';
    expect(translateMessage(t, text)).toBe(text);
    expect(translateMessage(t, 'Wirklich? Ja: a.b')).toBe('Wirklich? Ja: a.b');
  });
});
