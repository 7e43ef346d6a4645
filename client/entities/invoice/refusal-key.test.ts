import { describe, expect, it } from 'vitest';
import { refusalKeyOf } from './refusal-key.ts';

describe('refusalKeyOf', () => {
  const known = ['payment_already_reversed', 'payment_exceeds_due'] as const;
  it('names a known code, else the refusal by its status', () => {
    expect(refusalKeyOf(known, { status: 409, code: 'payment_already_reversed' })).toBe(
      'payment_already_reversed',
    );
    expect(refusalKeyOf(known, { status: 403, code: 'nope' })).toBe('forbidden');
    expect(refusalKeyOf(known, { status: 404, code: 'gone' })).toBe('not_found');
    expect(refusalKeyOf(known, { status: 422, code: 'other' })).toBe('validation_error');
  });
  it('reads no answer, 429 and 5xx as the service not answering', () => {
    for (const status of [0, 429, 500, 503])
      expect(refusalKeyOf(known, { status, code: 'unavailable' })).toBe('unavailable');
  });
});
