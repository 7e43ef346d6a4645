import type { CustomField } from '#client/ui/form/custom-schema.ts';
import type {
  InvitedRole,
  OrganizationInvitation as OrganizationInvitationRecord,
  OrganizationRegistrationInput,
  RegisteredUser,
  RegistrationInput,
  UserInvite as UserInviteRecord,
} from '#common/contracts/auth.ts';
import { fetchJson } from './fetch-json.ts';

/**
 * Registration by invitation through the BFF's guest proxy (docs/contracts.md, "Guest"): no
 * signed-in account, the token of the e-mail link is the only credential. One function per
 * request; each takes an AbortSignal. Invalid, expired or used tokens answer 403 `invalid_token`.
 */

const GUEST = '/api/guest/authservice/v1';

/**
 * A tenant's custom schema as the verification returns it, read loosely: the registration form
 * must cope with a field type it does not know (spec: a required string), so it does not take
 * the editor's stricter field types of the contract.
 */
export interface InvitationCustomSchema {
  id: number;
  code: string;
  entity: string;
  fields: (Omit<CustomField, 'isRequired' | 'type'> & { type: string; isRequired?: boolean })[];
}

type WithLooseSchema<T> = Omit<T, 'customSchema'> & { customSchema: InvitationCustomSchema | null };

// The invitations are the authservice's contract (common/contracts/auth.ts).
export type { InvitedRole as RoleOfInvitation };
/** `GET /verify-invite`: the invitation of a user. */
export type UserInvite = WithLooseSchema<UserInviteRecord>;
/** `GET /verify-org-invitation`: the invitation of an organisation and its contact person. */
export type OrganizationInvitation = WithLooseSchema<OrganizationInvitationRecord>;

/** The spec's registration payload (section 3): the authservice's body, as it reads it. */
export type RegistrationPayload = RegistrationInput;
/** The postal address of a registration. */
export type AddressPayload = Pick<
  RegistrationInput,
  'street' | 'houseNumber' | 'zipCode' | 'city' | 'country'
>;

export function verifyInvite(token: string, signal?: AbortSignal): Promise<{ invite: UserInvite }> {
  return fetchJson(`${GUEST}/verify-invite?token=${encodeURIComponent(token)}`, { signal });
}

export function createUser(
  payload: RegistrationPayload,
  signal?: AbortSignal,
): Promise<RegisteredUser> {
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
  payload: OrganizationRegistrationInput,
  signal?: AbortSignal,
): Promise<{ organization: { id: number; name: string } }> {
  return fetchJson(`${GUEST}/create-org-and-user`, { method: 'POST', body: payload, signal });
}
