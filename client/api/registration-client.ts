import type { CustomField } from '#client/ui/form/custom-schema.ts';
import { fetchJson } from './fetch-json.ts';

/**
 * Registration by invitation through the BFF's guest proxy (docs/contracts.md, "Guest"): no
 * signed-in account, the token of the e-mail link is the only credential. One function per
 * request; each takes an AbortSignal. Invalid, expired or used tokens answer 403 `invalid_token`.
 */

const GUEST = '/api/guest/authservice/v1';

/** A tenant's custom schema as the verification returns it (fields as the spec lists them). */
export interface InvitationCustomSchema {
  id: number;
  code: string;
  entity: string;
  fields: (Omit<CustomField, 'isRequired' | 'type'> & { type: string; isRequired?: boolean })[];
}

export interface RoleOfInvitation {
  id: number;
  code: string;
  label: string;
}

/** `GET /verify-invite`: the invitation of a user. */
export interface UserInvite {
  email: string;
  expiresOn: string;
  organizationId: number | null;
  organization: { id: number; name: string } | null;
  roles: RoleOfInvitation[];
  customSchema: InvitationCustomSchema | null;
}

/** `GET /verify-org-invitation`: the invitation of an organisation and its contact person. */
export interface OrganizationInvitation {
  email: string;
  name: string;
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  country: string;
  customFields: Record<string, unknown>;
  expiresAt: string;
  customSchema: InvitationCustomSchema | null;
  /** The identity provider's sign-in address when the invitation offers single sign-on. */
  samlIdpLoginUrl: string | null;
}

export interface AddressPayload {
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  country: string;
}

/** The spec's registration payload (section 3). */
export interface RegistrationPayload extends AddressPayload {
  firstName: string;
  lastName: string;
  password: string;
  isEulaAccepted: true;
  customFields: Record<string, unknown>;
  invitationToken: string;
}

export function verifyInvite(token: string, signal?: AbortSignal): Promise<{ invite: UserInvite }> {
  return fetchJson(`${GUEST}/verify-invite?token=${encodeURIComponent(token)}`, { signal });
}

export function createUser(
  payload: RegistrationPayload,
  signal?: AbortSignal,
): Promise<{ email: string | null }> {
  return fetchJson(`${GUEST}/create-user`, { method: 'POST', body: payload, signal });
}

export function verifyOrganizationInvitation(
  invitationToken: string,
  signal?: AbortSignal,
): Promise<{ invitation: OrganizationInvitation }> {
  return fetchJson(
    `${GUEST}/verify-org-invitation?invitationToken=${encodeURIComponent(invitationToken)}`,
    { signal },
  );
}

export function createOrganizationAndUser(
  payload: RegistrationPayload & { name?: string },
  signal?: AbortSignal,
): Promise<{ organization: { id: number; name: string } }> {
  return fetchJson(`${GUEST}/create-org-and-user`, { method: 'POST', body: payload, signal });
}
