import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, expect } from './fixtures.ts';

/**
 * Invitations for the registration specs, created as an administrator through the real API (the
 * BFF session API and proxy), and the e-mail links read from the sandbox outbox, so that a test
 * follows the link the invitee would get.
 */

const CSRF = { 'X-CSRF': '1' };
const TENANT = '/api/0/tenantservice/v1';

/** A signed-in administrator's API session (its own cookie jar, apart from the page's). */
export async function adminSession(
  baseURL: string,
  username: 'admin@demo.test' | 'admin@nordlicht.test',
): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const login = await api.post('/bff/login', {
    headers: CSRF,
    data: { username, password: DEMO_PASSWORD },
  });
  expect(login.status(), await login.text()).toBe(200);
  expect((await login.json()).accountIndex).toBe(0);
  return api;
}

/** A fresh, unique e-mail address for one test. */
export function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The link of the newest e-mail the sandbox sent to `email`. */
export async function outboxLink(api: APIRequestContext, email: string): Promise<string> {
  const res = await api.get(`/sandbox/outbox?to=${encodeURIComponent(email)}`);
  expect(res.status()).toBe(200);
  const [mail] = (await res.json()).items as { link: string | null }[];
  expect(mail?.link, `an e-mail to ${email}`).toBeTruthy();
  // E-mail links are absolute (PUBLIC_BASE_URL, localhost here); the page opens them on its own
  // origin, so that its cookies are those of the test's base URL.
  const link = new URL(mail!.link!);
  expect(link.protocol).toBe('http:');
  return link.pathname + link.search;
}

/** Invites a user (show-only role) and returns the registration link of the e-mail. */
export async function inviteUser(api: APIRequestContext, email: string): Promise<string> {
  const res = await api.post(`${TENANT}/users/invites/batch`, {
    headers: CSRF,
    data: { emails: [email], roleCodes: ['show-only'] },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).results[0]).toMatchObject({ ok: true });
  const link = await outboxLink(api, email);
  expect(link).toMatch(/^\/registration\?token=/);
  return link;
}

/** Withdraws the pending user invitation of `email` (DELETE /users/invites/{id}). */
export async function withdrawUserInvite(api: APIRequestContext, email: string): Promise<void> {
  const list = await api.get(
    `${TENANT}/users/invites?filter=${encodeURIComponent(`email=${email}`)}`,
  );
  const invite = ((await list.json()).items as { id: number; email: string }[]).find(
    (item) => item.email === email,
  );
  expect(invite, `a pending invitation of ${email}`).toBeTruthy();
  const res = await api.delete(`${TENANT}/users/invites/${invite!.id}`, { headers: CSRF });
  expect(res.status()).toBe(204);
}

export interface OrganizationInvite {
  name: string;
  email: string;
  offerSso?: boolean;
  address?: Partial<Record<'street' | 'houseNumber' | 'zipCode' | 'city' | 'country', string>>;
  customFields?: Record<string, unknown>;
}

/** Invites an organisation and its contact person; returns the id and the e-mail's link. */
export async function inviteOrganization(
  api: APIRequestContext,
  invite: OrganizationInvite,
): Promise<{ id: number; link: string }> {
  const res = await api.post(`${TENANT}/invitations/organizations`, {
    headers: CSRF,
    data: {
      name: invite.name,
      slug: `org-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
      email: invite.email,
      ...invite.address,
      customFields: invite.customFields ?? {},
      roleCodes: ['show-only'],
      offerSso: invite.offerSso ?? false,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { invitation } = (await res.json()) as { invitation: { id: number } };
  const link = await outboxLink(api, invite.email);
  expect(link).toMatch(/^\/organization\/registration\?token=/);
  return { id: invitation.id, link };
}

/** Deletes an organisation invitation (the link stops working). */
export async function withdrawOrganizationInvite(api: APIRequestContext, id: number) {
  const res = await api.delete(`${TENANT}/invitations/organizations/${id}`, { headers: CSRF });
  expect(res.status()).toBe(204);
}

/** The token of a registration link (`?token=`). */
export function tokenOf(link: string): string {
  return new URL(link, 'http://x').searchParams.get('token') ?? '';
}

/**
 * Registers an organisation invitation directly through the guest API: the invitee did it in
 * another tab. Used to make the same e-mail address taken (a save error for a second link).
 */
export async function registerOrganizationDirectly(
  api: APIRequestContext,
  link: string,
  password: string,
): Promise<void> {
  const res = await api.post('/api/guest/authservice/v1/create-org-and-user', {
    headers: CSRF,
    data: {
      firstName: 'Other',
      lastName: 'Tab',
      password,
      street: 'Ringstraße',
      houseNumber: '7',
      zipCode: '04109',
      city: 'Leipzig',
      country: 'Deutschland',
      isEulaAccepted: true,
      customFields: { registrationNumber: 'HRB 777' },
      invitationToken: tokenOf(link),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}
