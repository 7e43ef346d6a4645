import { describe, expect, it } from 'vitest';
import { refusalText } from './user-errors.ts';

describe('refusalText', () => {
  const texts: Record<string, string> = {
    'errors.last_administrator': 'the workspace would be left without an administrator',
    'errors.escalation': 'You cannot grant or remove a role you do not hold.',
    'errors.generic': 'Something went wrong. Please try again.',
  };
  const t = (key: string, values?: { reason: string }) =>
    key === 'errors.refused' ? `Not saved: ${values?.reason}.` : (texts[key] ?? key);

  it('frames a reason written to follow a name as a sentence of its own', () => {
    expect(refusalText(t, 'last_administrator')).toBe(
      'Not saved: the workspace would be left without an administrator.',
    );
  });

  it('leaves whole sentences and unknown codes as they are', () => {
    expect(refusalText(t, 'escalation')).toBe(texts['errors.escalation']);
    expect(refusalText(t, 'something_else')).toBe(texts['errors.generic']);
  });
});
