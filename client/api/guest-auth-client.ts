import type { SamlLink } from '#common/contracts/auth.ts';
import { fetchJson } from './fetch-json.ts';

/** The single-sign-on link of a tenant: the only auth call that needs no signed-in account. */
export function getSamlLoginLink(tenantSlug: string, signal?: AbortSignal): Promise<SamlLink> {
  return fetchJson(
    `/api/guest/authservice/v1/saml-login-link?tenantSlug=${encodeURIComponent(tenantSlug)}`,
    { signal },
  );
}
