import { describe, expect, it } from 'vitest';
import { personOf } from './person-name.ts';

describe('personOf', () => {
  const account = { userCode: 'usr_own', userFullName: 'Carla Care' };

  it("names the signed-in user by the session's user code", () => {
    expect(personOf('usr_own', account)).toEqual({ kind: 'self', name: 'Carla Care' });
  });

  it('keeps another code neutral, the seeded rows as system', () => {
    expect(personOf('usr_other', account)).toEqual({ kind: 'someone', code: 'usr_other' });
    expect(personOf('system', account)).toEqual({ kind: 'system' });
  });

  it('names nobody when the session does not know the code (an older session)', () => {
    expect(personOf('usr_own', { userCode: null, userFullName: 'Carla Care' })).toEqual({
      kind: 'someone',
      code: 'usr_own',
    });
    expect(personOf('usr_own', undefined)).toEqual({ kind: 'someone', code: 'usr_own' });
  });
});
