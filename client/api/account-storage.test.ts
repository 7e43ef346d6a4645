import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionAccount } from '#machines/session.machine.ts';
import { readStoredAccounts, writeStoredAccounts } from './account-storage.ts';

describe('stored account list', () => {
  let data: Map<string, string>;
  beforeEach(() => {
    data = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    });
  });

  it('keeps only the non-secret fields of the spec, never permissions or anything else', () => {
    const account = {
      accountIndex: 0,
      sub: 'u1',
      tenantId: '1',
      tenantSlug: 'demo',
      tenantName: 'Demo',
      userName: 'a@demo.test',
      userFullName: 'A',
      permissions: ['*.*.*'],
      isRequiredToChangePassword: false,
      userCode: 'usr_1',
      expiresAt: 0,
      workspace: 'demo',
      accessToken: 'secret',
    } satisfies SessionAccount & { accessToken: string };
    writeStoredAccounts([account]);
    const raw = data.get('bo.accounts')!;
    expect(raw).not.toContain('secret');
    expect(raw).not.toContain('permissions');
    expect(readStoredAccounts()).toEqual([
      {
        accountIndex: 0,
        sub: 'u1',
        tenantId: '1',
        tenantSlug: 'demo',
        tenantName: 'Demo',
        userName: 'a@demo.test',
        userFullName: 'A',
      },
    ]);
  });

  it('reads garbage as an empty list', () => {
    data.set('bo.accounts', '{not json');
    expect(readStoredAccounts()).toEqual([]);
  });
});
