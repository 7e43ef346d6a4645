import type { ResetAccount, ResetPasswordInput } from '#common/contracts/auth.ts';
import { fetchJson } from './fetch-json.ts';

/**
 * Forgot and reset password over the BFF's guest proxy (no signed-in account needed; see
 * docs/contracts.md, "Administration and registration"). One function per request; each takes
 * an AbortSignal. Invalid, expired or used links answer 403 `invalid_token`.
 */

const BASE = '/api/guest/authservice/v1';

/** Asks for a reset e-mail. Always 204, whether the address has an account or not. */
export function requestPasswordReset(email: string, signal?: AbortSignal): Promise<void> {
  return fetchJson(`${BASE}/forgot-password`, { method: 'POST', body: { email }, signal });
}

/** Checks the link's token; answers the address of the account it belongs to. */
export function verifyResetToken(resetToken: string, signal?: AbortSignal): Promise<ResetAccount> {
  return fetchJson(`${BASE}/verify-reset-password?resetToken=${encodeURIComponent(resetToken)}`, {
    signal,
  });
}

/** Sets the new password; the token works once and every session of the user ends. */
export function resetPassword(body: ResetPasswordInput, signal?: AbortSignal): Promise<void> {
  return fetchJson(`${BASE}/reset-password`, { method: 'POST', body, signal });
}
