import { describe, expect, it } from 'vitest';
import { documentSourceOf } from './document-source.ts';

describe('documentSourceOf', () => {
  it('reads the services that write documents themselves as the system', () => {
    expect(documentSourceOf({ requester: 'documentservice' })).toBe('system');
    expect(documentSourceOf({ requester: 'insuranceservice' })).toBe('system');
  });

  it('tells what the customer sent from what a user uploaded', () => {
    expect(documentSourceOf({ requester: 'customer' })).toBe('customer');
    expect(documentSourceOf({ requester: 'claimservice' })).toBe('upload');
    expect(documentSourceOf({ requester: '' })).toBe('upload');
  });
});
