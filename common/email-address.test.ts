import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './email-address.ts';

describe('isEmailAddress', () => {
  it.each(['anna@example.com', 'a.b-c+tag@sub.example.de', `${'a'.repeat(64)}@example.com`])(
    'takes %s',
    (address) => expect(isEmailAddress(address)).toBe(true),
  );

  it.each([
    ['non-ASCII letters', 'jürgen.müller@example.com'],
    ['markup', '<script>alert(1)</script>@x.de'],
    ['a local part over 64', `${'a'.repeat(65)}@example.com`],
    ['the 300-character local part both sides took', `${'a'.repeat(300)}@example.com`],
    ['over 254 in all', `a@${'b'.repeat(250)}.de`],
    ['no domain dot', 'anna@example'],
    ['nothing before the @', '@example.com'],
    ['two @', 'a@b@example.com'],
  ])('refuses %s', (_, address) => expect(isEmailAddress(address)).toBe(false));
});
