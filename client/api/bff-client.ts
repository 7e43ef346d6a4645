import type {
  AccountAnswer,
  BffChangePasswordInput,
  BffConfig,
  BffLoginInput,
  BffSamlLoginInput,
  SessionAnswer,
  SignInAnswer,
  WorkspacesAnswer,
} from '#common/contracts/bff.ts';
import type { Workspace } from '#common/contracts/auth.ts';
import { fetchJson } from './fetch-json.ts';

/** Typed calls of the BFF session API (`/bff/*`); the shapes are common/contracts/bff.ts. */

export type { BffConfig, Workspace };

export function getConfig(signal?: AbortSignal): Promise<BffConfig> {
  return fetchJson('/bff/config', { signal });
}

export function getSession(signal?: AbortSignal): Promise<SessionAnswer> {
  return fetchJson('/bff/session', { signal });
}

export function login(body: BffLoginInput, signal?: AbortSignal): Promise<SignInAnswer> {
  return fetchJson('/bff/login', { method: 'POST', body, signal });
}

export function loginSaml(body: BffSamlLoginInput, signal?: AbortSignal): Promise<SignInAnswer> {
  return fetchJson('/bff/login/saml', { method: 'POST', body, signal });
}

export function logout(accountIndex: number, signal?: AbortSignal): Promise<void> {
  return fetchJson(`/bff/accounts/${accountIndex}/logout`, { method: 'POST', signal });
}

export function listWorkspaces(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<WorkspacesAnswer> {
  return fetchJson(`/bff/accounts/${accountIndex}/workspaces`, { signal });
}

export function switchWorkspace(
  accountIndex: number,
  targetWorkspace: string,
  signal?: AbortSignal,
): Promise<AccountAnswer> {
  return fetchJson(`/bff/accounts/${accountIndex}/workspaces/switch`, {
    method: 'POST',
    body: { targetWorkspace },
    signal,
  });
}

export function changePassword(
  accountIndex: number,
  body: BffChangePasswordInput,
  signal?: AbortSignal,
): Promise<AccountAnswer> {
  return fetchJson(`/bff/accounts/${accountIndex}/change-password`, {
    method: 'POST',
    body,
    signal,
  });
}

/** Refreshes the account's token now, after its access changed; answers the new account data. */
export function refreshAccount(accountIndex: number, signal?: AbortSignal): Promise<AccountAnswer> {
  return fetchJson(`/bff/accounts/${accountIndex}/refresh`, { method: 'POST', signal });
}
