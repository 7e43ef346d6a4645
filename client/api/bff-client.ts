import type { SessionAccount } from '#machines/session.machine.ts';
import { fetchJson } from './fetch-json.ts';

/** Typed calls of the BFF session API (`/bff/*`); see docs/contracts.md. */

export interface BffConfig {
  appEnv: string;
  buildId: string;
  sandbox: boolean;
  /** The origin signed document addresses may point at; null: this origin's /storage/. */
  storageOrigin: string | null;
}

export interface Workspace {
  name: string;
  slug: string;
  tenantName: string;
  isDefault: boolean;
  isDisabled: boolean;
}

export function getConfig(signal?: AbortSignal): Promise<BffConfig> {
  return fetchJson('/bff/config', { signal });
}

export function getSession(signal?: AbortSignal): Promise<{ accounts: SessionAccount[] }> {
  return fetchJson('/bff/session', { signal });
}

export function login(
  body: { username: string; password: string },
  signal?: AbortSignal,
): Promise<{ accountIndex: number; account: SessionAccount }> {
  return fetchJson('/bff/login', { method: 'POST', body, signal });
}

export function loginSaml(
  body: { tenantSlug: string; code: string },
  signal?: AbortSignal,
): Promise<{ accountIndex: number; account: SessionAccount }> {
  return fetchJson('/bff/login/saml', { method: 'POST', body, signal });
}

export function logout(accountIndex: number, signal?: AbortSignal): Promise<void> {
  return fetchJson(`/bff/accounts/${accountIndex}/logout`, { method: 'POST', signal });
}

export function listWorkspaces(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ workspaces: Workspace[] }> {
  return fetchJson(`/bff/accounts/${accountIndex}/workspaces`, { signal });
}

export function switchWorkspace(
  accountIndex: number,
  targetWorkspace: string,
  signal?: AbortSignal,
): Promise<{ account: SessionAccount }> {
  return fetchJson(`/bff/accounts/${accountIndex}/workspaces/switch`, {
    method: 'POST',
    body: { targetWorkspace },
    signal,
  });
}

export function changePassword(
  accountIndex: number,
  body: { newPassword: string; oldPassword?: string },
  signal?: AbortSignal,
): Promise<{ account: SessionAccount }> {
  return fetchJson(`/bff/accounts/${accountIndex}/change-password`, {
    method: 'POST',
    body,
    signal,
  });
}

/** Refreshes the account's token now, after its access changed; answers the new account data. */
export function refreshAccount(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ account: SessionAccount }> {
  return fetchJson(`/bff/accounts/${accountIndex}/refresh`, { method: 'POST', signal });
}
