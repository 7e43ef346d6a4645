// Guest endpoints of the authservice: registration by invitation and password reset. No bearer;
// the random, hashed, expiring, single-use token in the link is the only credential.
import { sendTenantMail } from '#server/sandbox/services/notification/index.ts';
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import * as v from 'valibot';
import type { Clock } from '#common/clock.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { hashPassword, randomToken, sha256 } from '#server/sandbox/platform/crypto.ts';
import { passwordMeetsRules } from '#common/password-rules.ts';
import { alreadyRegistered, HttpError } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  CreateOrgAndUserBody,
  CreateUserBody,
  ForgotBody,
  ResetBody,
} from '#common/contracts/auth.ts';
import { newUserCode } from '#server/sandbox/services/tenant/index.ts';
import {
  RESET_TTL_SECONDS,
  assertPostcodeFitsCountry,
  checkCustomFields,
  customSchemasOf,
  emailAddress,
} from '#server/sandbox/platform/admin-shared.ts';
import {
  INVITATION_COLUMNS,
  insertOrganization,
  type InvitationRow,
  presentInvitations,
  presentOrganization,
} from '#server/sandbox/services/tenant/index.ts';

const invalidToken = (): HttpError =>
  new HttpError(403, 'invalid_token', 'the link is invalid, expired or already used');

function queryToken(value: unknown): string {
  if (typeof value !== 'string' || !value || value.length > 200) throw invalidToken();
  return value;
}

function assertPassword(password: string): void {
  if (!passwordMeetsRules(password)) {
    throw new HttpError(400, 'invalid_password', 'min 8 characters, upper, lower and digit');
  }
}

interface InviteLookup {
  id: number;
  tenant_id: number;
  tenant_group_id: number;
  email: string;
  organization_id: number | null;
  expires_at: Date;
}

/** `now`: the sandbox clock's time, so that a test moves it past the link's expiry. */
async function liveInvite(
  db: Queryable,
  raw: string,
  now: Date,
  lock = false,
): Promise<InviteLookup | null> {
  const [row] = await db.query<InviteLookup>(
    `SELECT i.id, i.tenant_id, t.tenant_group_id, i.email, i.organization_id, i.expires_at
       FROM invites i JOIN tenants t ON t.id = i.tenant_id
      WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > $2::timestamptz
        AND NOT t.is_disabled
      ${lock ? 'FOR UPDATE OF i' : ''}`,
    [sha256(raw), now],
  );
  return row ?? null;
}

async function rolesOf(
  db: Queryable,
  table: 'invite_roles' | 'organization_invitation_roles',
  id: number,
) {
  const column = table === 'invite_roles' ? 'invite_id' : 'invitation_id';
  return db.query<{ id: number; code: string; label: string }>(
    `SELECT r.id, r.code, r.label FROM ${table} l JOIN roles r ON r.id = l.role_id
      WHERE l.${column} = $1 ORDER BY r.id`,
    [id],
  );
}

/**
 * Creates the active user of a registration (or activates a seeded `invited` one of the same
 * e-mail) with the given roles and organisation in the workspace.
 */
async function registerUser(
  tx: Queryable,
  input: {
    tenantId: number;
    groupId: number;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    organizationId: number | null;
    roleIds: number[];
    profile: Record<string, unknown>;
  },
): Promise<number> {
  const [existing] = await tx.query<{ id: number; status: string }>(
    'SELECT id, status FROM users WHERE tenant_group_id = $1 AND lower(email) = lower($2)',
    [input.groupId, input.email],
  );
  if (existing && existing.status !== 'invited') {
    throw alreadyRegistered();
  }
  let userId: number;
  if (existing) {
    userId = existing.id;
    await tx.query(
      `UPDATE users SET status = 'active', password_hash = $1, first_name = $2, last_name = $3,
              profile = $4, updated_at = now(), updated_by = code WHERE id = $5`,
      [input.passwordHash, input.firstName, input.lastName, JSON.stringify(input.profile), userId],
    );
  } else {
    const [created] = await tx.query<{ id: number }>(
      `INSERT INTO users (tenant_group_id, tenant_id, code, sub, email, password_hash, first_name,
                          last_name, status, profile, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9, 'registration', 'registration')
       RETURNING id`,
      [
        input.groupId,
        input.tenantId,
        newUserCode(),
        randomUUID(),
        input.email,
        input.passwordHash,
        input.firstName,
        input.lastName,
        JSON.stringify(input.profile),
      ],
    );
    if (!created) throw new Error('user not created');
    userId = created.id;
  }
  await tx.query(
    `INSERT INTO tenant_users (tenant_id, user_id, organization_id) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, user_id) DO UPDATE SET organization_id = $3`,
    [input.tenantId, userId, input.organizationId],
  );
  await tx.query(
    `INSERT INTO user_roles (tenant_id, user_id, role_id) SELECT $1, $2, unnest($3::int[])
     ON CONFLICT DO NOTHING`,
    [input.tenantId, userId, input.roleIds],
  );
  return userId;
}

/**
 * Uses an invitation up and registers its user (registerUser) with the invitation's roles, in
 * the caller's transaction. The UPDATE is the gate: a second registration with the same link
 * finds it used. An organisation invitation keeps the organisation its registration made.
 */
async function redeemInvitation(
  tx: Queryable,
  invitation: {
    kind: 'user' | 'organization';
    id: number;
    tenant_id: number;
    tenant_group_id: number;
    email: string;
  },
  /** The registration's body: the names the registrant gave. */
  registrant: { firstName: string; lastName: string },
  user: Pick<Parameters<typeof registerUser>[1], 'passwordHash' | 'organizationId' | 'profile'>,
): Promise<void> {
  const organization = invitation.kind === 'organization';
  const used = await tx.query(
    organization
      ? `UPDATE organization_invitations SET used_at = now(), organization_id = $2
          WHERE id = $1 AND used_at IS NULL RETURNING id`
      : 'UPDATE invites SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id',
    organization ? [invitation.id, user.organizationId] : [invitation.id],
  );
  if (!used.length) throw invalidToken();
  const roles = await rolesOf(
    tx,
    organization ? 'organization_invitation_roles' : 'invite_roles',
    invitation.id,
  );
  await registerUser(tx, {
    tenantId: invitation.tenant_id,
    groupId: invitation.tenant_group_id,
    email: invitation.email,
    firstName: registrant.firstName,
    lastName: registrant.lastName,
    roleIds: roles.map((r) => r.id),
    ...user,
  });
}

/**
 * `clock`: the time every link's expiry is checked against (and a reset link's starts from), so
 * that tests move time past it instead of waiting an hour.
 */
export function guestRouter(deps: {
  db: Db;
  tools: boolean;
  clock: Clock;
  publicBaseUrl: string;
}): Router {
  const { db } = deps;
  const now = () => new Date(deps.clock.now());
  const router = Router();

  router.get('/verify-invite', async (req, res) => {
    const invite = await liveInvite(db, queryToken(req.query.token), now());
    if (!invite) throw invalidToken();
    const [org] = invite.organization_id
      ? await db.query<{ id: number; name: string }>(
          'SELECT id, name FROM organizations WHERE id = $1 AND tenant_id = $2',
          [invite.organization_id, invite.tenant_id],
        )
      : [];
    const [schema] = await customSchemasOf(db, invite.tenant_id, 'organization');
    res.json({
      invite: {
        email: invite.email,
        expiresOn: invite.expires_at,
        organizationId: invite.organization_id,
        organization: org ?? null,
        roles: await rolesOf(db, 'invite_roles', invite.id),
        customSchema: schema ?? null,
      },
    });
  });

  router.post('/create-user', async (req, res) => {
    const body = parseBody(CreateUserBody, req.body);
    assertPassword(body.password);
    assertPostcodeFitsCountry(body);
    const passwordHash = await hashPassword(body.password);
    await db.transaction(async (tx) => {
      const invite = await liveInvite(tx, body.invitationToken, now(), true);
      if (!invite) throw invalidToken();
      const [schema] = await customSchemasOf(tx, invite.tenant_id, 'organization');
      const customFields = checkCustomFields(schema ?? null, body.customFields);
      await redeemInvitation(tx, { kind: 'user', ...invite }, body, {
        passwordHash,
        organizationId: invite.organization_id,
        profile: {
          street: body.street,
          houseNumber: body.houseNumber,
          zipCode: body.zipCode,
          city: body.city,
          country: body.country,
          customFields,
        },
      });
    });
    res.status(201).json({ email: (await emailOfInvite(db, body.invitationToken)) ?? null });
  });

  router.get('/verify-org-invitation', async (req, res) => {
    const raw = queryToken(req.query.invitationToken);
    const [row] = await db.query<InvitationRow & { tenant_id: number; slug_t: string }>(
      `SELECT ${INVITATION_COLUMNS.replace(/(^|,\s*)/g, '$1oi.')}, oi.tenant_id, t.slug AS slug_t
         FROM organization_invitations oi JOIN tenants t ON t.id = oi.tenant_id
        WHERE oi.token_hash = $1 AND oi.used_at IS NULL AND oi.expires_at > $2::timestamptz
          AND NOT t.is_disabled`,
      [sha256(raw), now()],
    );
    if (!row) throw invalidToken();
    const [invitation] = await presentInvitations(db, row.tenant_id, [row], true);
    const [schema] = await customSchemasOf(db, row.tenant_id, 'organization');
    res.json({
      invitation: {
        ...invitation,
        customSchema: schema ?? null,
        samlIdpLoginUrl:
          row.offer_sso && deps.tools
            ? `/sandbox-idp/login?tenantSlug=${encodeURIComponent(row.slug_t)}`
            : null,
      },
    });
  });

  router.post('/create-org-and-user', async (req, res) => {
    const body = parseBody(CreateOrgAndUserBody, req.body);
    assertPassword(body.password);
    assertPostcodeFitsCountry(body);
    const passwordHash = await hashPassword(body.password);
    const organization = await db.transaction(async (tx) => {
      const [inv] = await tx.query<{
        id: number;
        tenant_id: number;
        tenant_group_id: number;
        email: string;
        name: string;
        parent_organization_id: number | null;
        custom_fields: Record<string, unknown>;
      }>(
        `SELECT oi.id, oi.tenant_id, t.tenant_group_id, oi.email, oi.name, oi.parent_organization_id,
                oi.custom_fields
           FROM organization_invitations oi JOIN tenants t ON t.id = oi.tenant_id
          WHERE oi.token_hash = $1 AND oi.used_at IS NULL AND oi.expires_at > $2::timestamptz
            AND NOT t.is_disabled
          FOR UPDATE OF oi`,
        [sha256(body.invitationToken), now()],
      );
      if (!inv) throw invalidToken();
      const [schema] = await customSchemasOf(tx, inv.tenant_id, 'organization');
      const customFields = checkCustomFields(schema ?? null, {
        ...inv.custom_fields,
        ...body.customFields,
      });
      const org = await insertOrganization(tx, inv.tenant_id, 'registration', {
        // The invitation fixes the name unless the registrant corrects it in the form.
        name: body.name ?? inv.name,
        email: inv.email,
        parentId: inv.parent_organization_id,
        street: body.street,
        houseNumber: body.houseNumber,
        zipCode: body.zipCode,
        city: body.city,
        country: body.country,
        customFields,
      });
      await redeemInvitation(tx, { kind: 'organization', ...inv }, body, {
        passwordHash,
        organizationId: org.id,
        profile: {},
      });
      return org;
    });
    res.status(201).json({ organization: presentOrganization(organization) });
  });

  router.post('/forgot-password', async (req, res) => {
    const body = parseBody(ForgotBody, req.body);
    // Always 204 with no body: the answer must not tell whether the address has an account.
    if (v.is(emailAddress, body.email)) {
      const users = await db.query<{ id: number; tenant_id: number; email: string }>(
        `SELECT id, tenant_id, email FROM users WHERE lower(email) = lower($1) AND status = 'active'`,
        [body.email],
      );
      for (const user of users) {
        const resetToken = randomToken();
        await db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO password_reset_tokens (tenant_id, user_id, token_hash, expires_at)
             VALUES ($1, $2, $3, $4)`,
            [
              user.tenant_id,
              user.id,
              sha256(resetToken),
              new Date(deps.clock.now() + RESET_TTL_SECONDS * 1000),
            ],
          );
          await sendTenantMail(tx, {
            tenantId: user.tenant_id,
            userId: user.id,
            to: user.email,
            kind: 'passwordReset',
            path: `/account/resetpassword?resetToken=${resetToken}`,
            publicBaseUrl: deps.publicBaseUrl,
          });
        });
      }
    }
    res.status(204).end();
  });

  router.get('/verify-reset-password', async (req, res) => {
    const raw = queryToken(req.query.resetToken);
    const [row] = await db.query<{ email: string }>(
      `SELECT u.email FROM password_reset_tokens p JOIN users u ON u.id = p.user_id
        WHERE p.token_hash = $1 AND p.used_at IS NULL AND p.expires_at > $2::timestamptz
          AND u.status = 'active'`,
      [sha256(raw), now()],
    );
    if (!row) throw invalidToken();
    res.json({ email: row.email });
  });

  router.post('/reset-password', async (req, res) => {
    const body = parseBody(ResetBody, req.body);
    // Checked before the token is taken, so that a weak password does not burn the link.
    assertPassword(body.newPassword);
    const passwordHash = await hashPassword(body.newPassword);
    await db.transaction(async (tx) => {
      // One reading of the clock: the link is checked and older access tokens end at that time.
      const at = now();
      const [reset] = await tx.query<{ user_id: number }>(
        `UPDATE password_reset_tokens SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2::timestamptz
          RETURNING user_id`,
        [sha256(body.resetToken), at],
      );
      if (!reset) throw invalidToken();
      const updated = await tx.query(
        `UPDATE users SET password_hash = $1, must_change_password = false, tokens_valid_after = $2,
                updated_at = now(), updated_by = code
          WHERE id = $3 AND status = 'active' RETURNING id`,
        // The sandbox clock, as the access tokens' issue times are: a moved clock would
        // otherwise leave tokens issued before the reset still valid after it.
        [passwordHash, at, reset.user_id],
      );
      if (!updated.length) throw invalidToken();
      // Every session ends: refresh tokens die here, access tokens via tokens_valid_after.
      await tx.query(
        'UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
        [reset.user_id],
      );
      // Other reset links of the same user die with this one.
      await tx.query(
        'UPDATE password_reset_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL',
        [reset.user_id],
      );
    });
    res.status(204).end();
  });

  return router;
}

async function emailOfInvite(db: Queryable, raw: string): Promise<string | undefined> {
  const [row] = await db.query<{ email: string }>(
    'SELECT email FROM invites WHERE token_hash = $1',
    [sha256(raw)],
  );
  return row?.email;
}
