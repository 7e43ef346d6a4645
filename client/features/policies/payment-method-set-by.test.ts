import { describe, expect, it } from 'vitest';
import { setByText } from './payment-method-set-by.ts';

describe('who set a policy’s payment method', () => {
  it('names the person who set it', () => {
    expect(setByText({ createdBy: 'usr_1', createdByName: 'Clara Care' })).toEqual({
      key: 'policy.since',
      name: 'Clara Care',
    });
  });

  it('says the system set it when the seed or a job did, never a dash', () => {
    expect(setByText({ createdBy: 'system', createdByName: null })).toEqual({
      key: 'policy.since_system',
    });
  });

  it('leaves the "set by" out when the person is not known any more', () => {
    expect(setByText({ createdBy: 'usr_gone', createdByName: null })).toEqual({
      key: 'policy.since_date',
    });
  });
});
