import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  listClaimDocuments,
  listCustomerDocuments,
  listEntityDocuments,
  listPolicyDocuments,
  storageRefusalCode,
} from './documents-client.ts';

describe('storageRefusalCode', () => {
  it('reads the storage’s S3 code and the BFF’s JSON error alike', () => {
    expect(
      storageRefusalCode(
        '<?xml version="1.0"?><Error><Code>EntityTooSmall</Code><Message>x</Message></Error>',
      ),
    ).toBe('EntityTooSmall');
    expect(
      storageRefusalCode('{"error":"payload_too_large","message":"The upload is too large."}'),
    ).toBe('payload_too_large');
  });

  it('falls back to storage_error for an answer of neither kind', () => {
    expect(storageRefusalCode('')).toBe('storage_error');
    expect(storageRefusalCode('<html>Bad gateway</html>')).toBe('storage_error');
    expect(storageRefusalCode('{"message":"no code"}')).toBe('storage_error');
    expect(storageRefusalCode('null')).toBe('storage_error');
  });
});

describe('the document lists', () => {
  // The query each owner's list sends: its filter, page size and range; the policy's names its
  // order (spec: a policy's documents with pageSize, pageToken and order).
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.stubGlobal('window', { location: { pathname: '/u/0/home' } });
    fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ items: [], nextPageToken: null }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const sent = () => {
    const url = new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://x');
    return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
  };

  it("asks for a policy's documents by its code, 100 at a time, newest first", async () => {
    await listPolicyDocuments(0, { policyCode: 'pol_1', page: 2, from: '2026-01-01T00:00:00Z' });
    expect(sent()).toEqual({
      path: '/api/0/documentservice/v1/documents',
      query: {
        pageSize: '100',
        pageToken: '2',
        filter: 'policyCode=pol_1&createdAtFrom=2026-01-01T00:00:00Z',
        order: 'createdAt:DESC',
      },
    });
  });

  it("asks for a claim's, a customer's and a lead's documents as before", async () => {
    await listClaimDocuments(1, { claimId: 7, to: '2026-02-01T00:00:00Z' });
    expect(sent()).toEqual({
      path: '/api/1/documentservice/v1/documents',
      query: {
        pageSize: '100',
        filter: 'entityType=ClaimDocument&entityId=7&createdAtTo=2026-02-01T00:00:00Z',
      },
    });
    await listCustomerDocuments(0, { accountCode: 'acc_1', from: null, to: null });
    expect(sent().query).toEqual({ pageSize: '100', filter: 'accountCode=acc_1' });
    await listEntityDocuments(0, { entityType: 'lead', entityId: 'lea_1', page: 1, pageSize: 20 });
    expect(sent().query).toEqual({ pageSize: '20', filter: 'entityType=lead&entityId=lea_1' });
  });
});
