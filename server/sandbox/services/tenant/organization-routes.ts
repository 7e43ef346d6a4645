import { Router } from 'express';
import { systemClock, type Clock } from '#common/clock.ts';
import * as v from 'valibot';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { randomToken, sha256, type TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { alreadyRegistered, HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { settingType } from './tenant-routes.ts';
import {
  OrgInvitationBody,
  OrganizationBody,
  OrganizationUpdateBody,
  ReinviteBody,
  SettingBody,
  settingKey,
} from '#common/contracts/tenant.ts';
import {
  checkCustomFields,
  customSchemasOf,
  newCode,
  assertPostcodeFitsCountry,
} from '#server/sandbox/platform/admin-shared.ts';
import { sendTenantMail } from '#server/sandbox/services/notification/index.ts';
import { organizationInTenant } from './user-admin-routes.ts';
import {
  equals,
  equalsIgnoringCase,
  listRoute,
  numeric,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { audit, rowById, type Audit } from '#server/sandbox/platform/records.ts';
import {
  changesBetween,
  recordChange,
  writeAudited,
  type AuditEvent,
} from '#server/sandbox/platform/audit-trail.ts';
import {
  ORGANIZATION_INVITATIONS,
  expiryFrom,
  grantableRoles,
  isExpired,
  linkRoles,
  openInvitationsRoute,
  rolesOfInvitations,
} from './invitations.ts';

const ORG = 'tenant-management.organizations';

const MAX_INVITATION_DAYS = 90;

// The advisory-lock namespace of "who takes an organisation name", by invitation or directly (any
// number the sandbox does
// not use elsewhere; administrators.ts has 4_170_001; the second key is the tenant).
const ORG_NAME_LOCK = 4_170_002;

/** One taker of an organisation name at a time per workspace, until the transaction ends. */
const lockOrganizationNames = (tx: Queryable, tenantId: number) =>
  tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ORG_NAME_LOCK, tenantId]);

/** The postal address an organisation and an organisation's invitation carry. */
interface AddressRow {
  street: string;
  house_number: string;
  zip_code: string;
  city: string;
  country: string;
}

/** The address of a body in the column order of the writes (street to country). */
const addressValues = (b: {
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  country: string;
}) => [b.street, b.houseNumber, b.zipCode, b.city, b.country];

const presentAddress = (r: AddressRow) => ({
  street: r.street,
  houseNumber: r.house_number,
  zipCode: r.zip_code,
  city: r.city,
  country: r.country,
});

interface OrgRow extends AddressRow, Audit {
  id: number;
  code: string;
  parent_id: number | null;
  name: string;
  email: string;
  custom_fields: Record<string, unknown>;
  version: number;
}

const ORG_COLUMNS = `id, code, parent_id, name, email, street, house_number, zip_code, city, country,
  custom_fields, version, created_at, updated_at, created_by, updated_by`;

export function presentOrganization(r: OrgRow) {
  return {
    id: r.id,
    code: r.code,
    parentId: r.parent_id,
    name: r.name,
    email: r.email,
    ...presentAddress(r),
    customFields: r.custom_fields,
    ern: `ern:tenant:organization:${r.code}`,
    version: r.version,
    ...audit(r),
  };
}

const nameRefused = (code: string, why: string) =>
  new HttpError(409, code, why, undefined, [{ path: 'name', code }]);

/**
 * Names are unique in a workspace (case aside). The refusal names the field, so that the forms
 * show it at the name. Checked when an invitation is sent as well: accepted then, the invitee
 * would only learn of the clash at the end of the registration wizard.
 */
async function assertNameFree(tx: Queryable, tenantId: number, name: string): Promise<void> {
  const [taken] = await tx.query(
    'SELECT 1 FROM organizations WHERE tenant_id = $1 AND lower(name) = lower($2)',
    [tenantId, name],
  );
  if (taken) throw nameRefused('organization_name_taken', 'an organisation has this name');
}

/**
 * An open invitation (neither used nor expired) holds its name: of two invitations for one name,
 * the second to register would dead-end the same way.
 */
async function assertNameNotInvited(
  tx: Queryable,
  tenantId: number,
  name: string,
  clock: Clock,
): Promise<void> {
  const [invited] = await tx.query(
    `SELECT 1 FROM organization_invitations
      WHERE tenant_id = $1 AND lower(name) = lower($2) AND used_at IS NULL AND expires_at > $3`,
    [tenantId, name, new Date(clock.now())],
  );
  if (invited) {
    throw nameRefused('organization_name_invited', 'an open invitation has this name');
  }
}

/**
 * The contact person registers with the invitation's address; when that address already has an
 * account of the workspace group (which shares accounts across its workspaces), the registration
 * would end in 409 `already_registered` at the last step. Refused here, naming the field; a
 * seeded `invited` user may still register, as the registration allows. The invitee would learn
 * the same at the end of the wizard, so the administrator learns nothing the flow did not show.
 */
async function assertEmailUnregistered(
  db: Queryable,
  tenantGroupId: number,
  email: string,
): Promise<void> {
  const [existing] = await db.query(
    `SELECT 1 FROM users
      WHERE tenant_group_id = $1 AND lower(email) = lower($2) AND status <> 'invited'`,
    [tenantGroupId, email],
  );
  if (existing) throw alreadyRegistered();
}

export async function insertOrganization(
  tx: Queryable,
  tenantId: number,
  by: string,
  org: {
    name: string;
    email: string;
    parentId: number | null;
    street: string;
    houseNumber: string;
    zipCode: string;
    city: string;
    country: string;
    customFields: Record<string, unknown>;
  },
): Promise<OrgRow> {
  await assertNameFree(tx, tenantId, org.name);
  const [row] = await tx.query<OrgRow>(
    `INSERT INTO organizations (tenant_id, code, parent_id, name, email, street, house_number,
                                zip_code, city, country, custom_fields, created_by, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING ${ORG_COLUMNS}`,
    [
      tenantId,
      newCode('org'),
      org.parentId,
      org.name,
      org.email,
      ...addressValues(org),
      JSON.stringify(org.customFields),
      by,
    ],
  );
  if (!row) throw new Error('organisation not created');
  return row;
}

export interface InvitationRow extends AddressRow, Audit {
  id: number;
  code: string;
  email: string;
  name: string;
  slug: string;
  parent_organization_id: number | null;
  custom_fields: Record<string, unknown>;
  offer_sso: boolean;
  expires_at: Date;
  used_at: Date | null;
  organization_id: number | null;
}

export const INVITATION_COLUMNS = `id, code, email, name, slug, parent_organization_id, street,
  house_number, zip_code, city, country, custom_fields, offer_sso, expires_at, used_at,
  organization_id, created_at, updated_at, created_by, updated_by`;

/** `clock`: whether an invitation has expired is a matter of the sandbox's time. */
export async function presentInvitations(
  db: Queryable,
  tenantId: number,
  rows: InvitationRow[],
  withRoles: boolean,
  clock: Clock = systemClock,
) {
  const rolesOf = withRoles
    ? await rolesOfInvitations(db, ORGANIZATION_INVITATIONS, tenantId, rows)
    : null;
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    email: r.email,
    name: r.name,
    slug: r.slug,
    parentOrganizationId: r.parent_organization_id,
    ...presentAddress(r),
    customFields: r.custom_fields,
    expiresAt: r.expires_at,
    isExpired: isExpired(r.expires_at, clock),
    usedAt: r.used_at,
    organizationId: r.organization_id,
    ...(rolesOf ? { roles: rolesOf(r.id) } : {}),
    ...audit(r),
  }));
}

/** The invitation e-mail with the wizard's link (`publicBaseUrl`: the back office's address). */
export async function mailOrganizationInvitation(
  tx: Queryable,
  publicBaseUrl: string,
  invitation: { tenantId: number; to: string; name: string; token: string },
): Promise<void> {
  await sendTenantMail(tx, {
    tenantId: invitation.tenantId,
    to: invitation.to,
    kind: 'organizationInvitation',
    name: invitation.name,
    path: `/organization/registration?token=${invitation.token}`,
    publicBaseUrl,
  });
}

const ORGANIZATIONS = { table: 'organizations', columns: ORG_COLUMNS, noun: 'organization' };
const INVITATIONS = {
  table: ORGANIZATION_INVITATIONS.table,
  columns: INVITATION_COLUMNS,
  noun: 'invitation',
};

const ORGANIZATION_LIST: ListSource = {
  filters: {
    id: numeric('id', 'id must be numeric'),
    code: equals('code'),
    parentId: numeric('parent_id', 'parentId must be numeric'),
  },
  search: ['name', 'email', 'city'],
  // Names are unique in a workspace: the id only orders equal ids.
  orders: { id: 'id', name: 'lower(name)' },
  defaultOrder: ['id', 'ASC'],
  unique: 'id',
};

const INVITATION_LIST: ListSource = {
  filters: { id: numeric('id', 'id must be numeric'), email: equalsIgnoringCase('email') },
  search: ['name', 'email'],
  orders: { id: 'id', name: 'lower(name)', expiresAt: 'expires_at' },
  defaultOrder: ['id', 'ASC'],
  unique: 'id',
  expands: ['roles'],
};

function parseKeys(raw: unknown): string[] {
  const keys = (typeof raw === 'string' ? raw : '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0 || keys.length > 50 || !keys.every((k) => v.is(settingKey, k))) {
    throw new HttpError(400, 'invalid_query', 'keys: 1 to 50 comma-separated setting keys');
  }
  return keys;
}

export function organizationRouter(deps: {
  db: Db;
  signer: TokenSigner;
  clock: Clock;
  publicBaseUrl: string;
}): Router {
  const { db, clock } = deps;
  const router = Router();
  router.use(requireAuth(db, deps.signer));

  const findOrg = (tenantId: number, idText: string) =>
    rowById<OrgRow>(db, ORGANIZATIONS, tenantId, idText);

  /** An organisation's entry in the activity log; a new one lists the values it was made with. */
  const orgEvent = (action: string, before: OrgRow | null, after: OrgRow): AuditEvent => {
    const was = before && presentOrganization(before);
    const is = presentOrganization(after);
    return {
      entityType: 'organization',
      entityId: after.code,
      entityLabel: after.name,
      action,
      ...(was ? { before: was, after: is } : { changes: changesBetween(null, is) }),
    };
  };

  /** An organisation invitation's entry: to whom it went, under which name. */
  const invitationEvent = (
    action: string,
    invitation: { code: string; name: string },
    email: { before: string | null; after: string | null },
  ): AuditEvent => ({
    entityType: 'organization_invitation',
    entityId: invitation.code,
    entityLabel: invitation.name,
    action,
    changes: email.before === email.after ? [] : [{ field: 'email', ...email }],
  });

  router.get(
    '/organizations',
    requirePermission(`${ORG}.view`),
    listRoute<OrgRow>(
      db,
      ORGANIZATION_LIST,
      `SELECT ${ORG_COLUMNS} FROM organizations`,
      'tenant_id',
      (rows) => rows.map(presentOrganization),
    ),
  );

  router.get('/organizations/:id', requirePermission(`${ORG}.view`), async (req, res) => {
    const auth = getAuth(res);
    const expand = (typeof req.query.expand === 'string' ? req.query.expand : '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    if (expand.some((e) => e !== 'parent' && e !== 'users')) {
      throw new HttpError(400, 'invalid_query', 'unsupported expand');
    }
    const org = await findOrg(auth.tenantId, String(req.params.id));
    const organization: Record<string, unknown> = presentOrganization(org);
    if (expand.includes('parent')) {
      organization.parent =
        org.parent_id === null
          ? null
          : presentOrganization(await findOrg(auth.tenantId, String(org.parent_id)));
    }
    if (expand.includes('users')) {
      organization.users = await db.query(
        `SELECT u.id, u.code, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
                u.status
           FROM tenant_users tu JOIN users u ON u.id = tu.user_id
          WHERE tu.tenant_id = $1 AND tu.organization_id = $2 ORDER BY u.id LIMIT 200`,
        [auth.tenantId, org.id],
      );
    }
    res.json({ organization });
  });

  router.post('/organizations', requirePermission(`${ORG}.create`), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(OrganizationBody, req.body);
    assertPostcodeFitsCountry(body);
    if (body.parentId) await organizationInTenant(db, auth.tenantId, body.parentId);
    const [schema] = await customSchemasOf(db, auth.tenantId, 'organization');
    const customFields = checkCustomFields(schema ?? null, body.customFields);
    const row = await db.transaction(async (tx) => {
      // An open invitation holds its name here too: created directly meanwhile, the invitee's
      // registration would dead-end at its last step. The invitations' lock keeps a sender and
      // this creation from passing each other's check.
      await lockOrganizationNames(tx, auth.tenantId);
      await assertNameNotInvited(tx, auth.tenantId, body.name, clock);
      const created = await insertOrganization(tx, auth.tenantId, auth.userCode, {
        ...body,
        parentId: body.parentId ?? null,
        customFields,
      });
      await recordChange(tx, { auth, clock }, orgEvent('created', null, created));
      return created;
    });
    res.status(201).json({ organization: presentOrganization(row) });
  });

  router.put('/organizations/:id', requirePermission(`${ORG}.update`), async (req, res) => {
    const auth = getAuth(res);
    const org = await findOrg(auth.tenantId, String(req.params.id));
    const body = parseBody(OrganizationUpdateBody, req.body);
    assertPostcodeFitsCountry(body);
    if (body.name !== undefined && body.name !== org.name) {
      throw new HttpError(400, 'name_read_only', 'the name of an organisation cannot change');
    }
    if (body.parentId === org.id) {
      throw new HttpError(
        400,
        'validation_error',
        'parentId: an organisation cannot be its own parent',
      );
    }
    if (body.parentId) await organizationInTenant(db, auth.tenantId, body.parentId);
    const [schema] = await customSchemasOf(db, auth.tenantId, 'organization');
    const customFields =
      body.customFields === undefined
        ? org.custom_fields
        : checkCustomFields(schema ?? null, body.customFields);
    // Saved on top of the version the form read, when it says which: a stale save would undo
    // another administrator's change unseen.
    const conflict = async () => {
      const current = await findOrg(auth.tenantId, String(org.id));
      return new HttpError(
        409,
        'version_conflict',
        `the organisation was changed meanwhile (version ${current.version}, yours ${body.version})`,
        { organization: presentOrganization(current) },
      );
    };
    if (body.version !== undefined && body.version !== org.version) throw await conflict();
    const [row] = await writeAudited(
      db,
      { auth, clock },
      (tx) =>
        tx.query<OrgRow>(
          `UPDATE organizations SET email = $1, parent_id = $2, street = $3, house_number = $4,
              zip_code = $5, city = $6, country = $7, custom_fields = $8, updated_at = now(),
              updated_by = $9, version = version + 1
        WHERE tenant_id = $10 AND id = $11 AND ($12::int IS NULL OR version = $12)
        RETURNING ${ORG_COLUMNS}`,
          [
            body.email ?? org.email,
            body.parentId === undefined ? org.parent_id : body.parentId,
            ...addressValues(body),
            JSON.stringify(customFields),
            auth.userCode,
            auth.tenantId,
            org.id,
            body.version ?? null,
          ],
        ),
      ([saved]) => (saved ? orgEvent('updated', org, saved) : null),
    );
    if (!row) throw await conflict();
    res.json({ organization: presentOrganization(row) });
  });

  // --- organisation invitations ---

  /**
   * Custom values of an invitation are a proposal that the registration asks for again, where the
   * required ones are enforced; here each given value must still fit its field (type, length,
   * range), and keys the schema does not know are dropped, as for organisations.
   */
  async function proposedCustomFields(
    tenantId: number,
    values: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const [schema] = await customSchemasOf(db, tenantId, 'organization');
    if (!schema) return {};
    const optional = { ...schema, fields: schema.fields.map((f) => ({ ...f, isRequired: false })) };
    return checkCustomFields(optional, values);
  }

  const findInvitation = (tenantId: number, idText: string) =>
    rowById<InvitationRow>(db, INVITATIONS, tenantId, idText);

  router.get(
    '/invitations/organizations',
    requirePermission(`${ORG}.view`),
    openInvitationsRoute<InvitationRow>(
      db,
      ORGANIZATION_INVITATIONS,
      INVITATION_LIST,
      INVITATION_COLUMNS,
      (tenantId, rows, expand) =>
        presentInvitations(db, tenantId, rows, expand.has('roles'), clock),
    ),
  );

  router.post(
    '/invitations/organizations',
    requirePermission(`${ORG}.create`),
    async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(OrgInvitationBody, req.body);
      assertPostcodeFitsCountry(body);
      const roles = await grantableRoles(db, auth, body);
      if (body.parentOrganizationId) {
        await organizationInTenant(db, auth.tenantId, body.parentOrganizationId);
      }
      const customFields = await proposedCustomFields(auth.tenantId, body.customFields);
      const expiresAt = body.expiresAt ? new Date(body.expiresAt) : expiryFrom(clock);
      if (
        isExpired(expiresAt, clock) ||
        expiresAt.getTime() > clock.now() + MAX_INVITATION_DAYS * 86_400_000
      ) {
        throw new HttpError(
          400,
          'validation_error',
          `expiresAt: in the future, at most ${MAX_INVITATION_DAYS} days`,
        );
      }
      const token = randomToken();
      const row = await db.transaction(async (tx) => {
        // One sender at a time per workspace, so that two invitations cannot take one name.
        await lockOrganizationNames(tx, auth.tenantId);
        await assertNameFree(tx, auth.tenantId, body.name);
        await assertNameNotInvited(tx, auth.tenantId, body.name, clock);
        await assertEmailUnregistered(tx, auth.tenantGroupId, body.email);
        const [inv] = await tx.query<InvitationRow>(
          `INSERT INTO organization_invitations (tenant_id, code, email, name, slug,
           parent_organization_id, street, house_number, zip_code, city, country, custom_fields,
           offer_sso, token_hash, expires_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
         RETURNING ${INVITATION_COLUMNS}`,
          [
            auth.tenantId,
            newCode('oin'),
            body.email,
            body.name,
            body.slug,
            body.parentOrganizationId ?? null,
            ...addressValues(body),
            JSON.stringify(customFields),
            body.offerSso,
            sha256(token),
            expiresAt,
            auth.userCode,
          ],
        );
        if (!inv) throw new Error('invitation not created');
        await recordChange(
          tx,
          { auth, clock },
          invitationEvent('sent', inv, { before: null, after: inv.email }),
        );
        await linkRoles(tx, ORGANIZATION_INVITATIONS, auth.tenantId, inv.id, roles);
        await mailOrganizationInvitation(tx, deps.publicBaseUrl, {
          tenantId: auth.tenantId,
          to: body.email,
          name: body.name,
          token,
        });
        return inv;
      });
      const [invitation] = await presentInvitations(db, auth.tenantId, [row], true, clock);
      res.status(201).json({ invitation });
    },
  );

  router.patch(
    '/invitations/organizations/:id',
    requirePermission(`${ORG}.create`),
    async (req, res) => {
      const auth = getAuth(res);
      const current = await findInvitation(auth.tenantId, String(req.params.id));
      const body = parseBody(ReinviteBody, req.body);
      if (current.used_at) throw new HttpError(409, 'invitation_used', 'the invitation was used');
      await assertEmailUnregistered(db, auth.tenantGroupId, body.email);
      const token = randomToken();
      // A new token replaces the old hash, so the link of the earlier e-mail stops working.
      const row = await db.transaction(async (tx) => {
        const [inv] = await tx.query<InvitationRow>(
          `UPDATE organization_invitations SET email = $1, token_hash = $2,
                  expires_at = $3, updated_at = now(), updated_by = $4
            WHERE tenant_id = $5 AND id = $6 AND used_at IS NULL RETURNING ${INVITATION_COLUMNS}`,
          [body.email, sha256(token), expiryFrom(clock), auth.userCode, auth.tenantId, current.id],
        );
        if (!inv) throw new HttpError(409, 'invitation_used', 'the invitation was used');
        await recordChange(
          tx,
          { auth, clock },
          invitationEvent('resent', inv, { before: current.email, after: inv.email }),
        );
        await mailOrganizationInvitation(tx, deps.publicBaseUrl, {
          tenantId: auth.tenantId,
          to: body.email,
          name: inv.name,
          token,
        });
        return inv;
      });
      const [invitation] = await presentInvitations(db, auth.tenantId, [row], true, clock);
      res.json({ invitation });
    },
  );

  router.delete(
    '/invitations/organizations/:id',
    requirePermission(`${ORG}.delete`),
    async (req, res) => {
      const auth = getAuth(res);
      const current = await findInvitation(auth.tenantId, String(req.params.id));
      await db.transaction(async (tx) => {
        await tx.query('DELETE FROM organization_invitations WHERE tenant_id = $1 AND id = $2', [
          auth.tenantId,
          current.id,
        ]);
        await recordChange(
          tx,
          { auth, clock },
          invitationEvent('revoked', current, { before: current.email, after: null }),
        );
      });
      res.status(204).end();
    },
  );

  // --- custom schemas and per-user settings ---

  router.get(
    '/custom-schemas',
    requirePermission('tenant-management.settings.view'),
    async (req, res) => {
      const auth = getAuth(res);
      const list = parseListQuery(req.query, { filters: ['entity'], orders: [], expands: [] });
      const entity =
        list.filter.get('entity') ??
        (typeof req.query.entity === 'string' ? req.query.entity : undefined);
      if (
        entity !== undefined &&
        !['account', 'claim', 'invoice', 'payment', 'organization'].includes(entity)
      ) {
        throw new HttpError(400, 'invalid_query', 'unknown entity');
      }
      const items = await customSchemasOf(db, auth.tenantId, entity);
      res.json({ items, nextPageToken: null });
    },
  );

  // Own settings: any signed-in user of the workspace, no permission needed; scoped by user.
  router.get('/settings/user', async (req, res) => {
    const auth = getAuth(res);
    const keys = parseKeys(req.query.keys);
    const rows = await db.query<{ key: string; value: unknown }>(
      `SELECT key, value FROM user_settings
        WHERE tenant_id = $1 AND user_id = $2 AND key = ANY($3::text[])`,
      [auth.tenantId, auth.userId, keys],
    );
    const byKey = new Map(rows.map((r) => [r.key, r.value]));
    res.json({
      values: keys.map((key) => {
        const value = byKey.has(key) ? byKey.get(key) : null;
        return { key, value, type: settingType(value) };
      }),
    });
  });

  router.post('/settings/user', async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(SettingBody, req.body);
    await db.query(
      `INSERT INTO user_settings (tenant_id, user_id, key, value, is_sensitive)
       VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (tenant_id, user_id, key) DO UPDATE SET value = $4::jsonb, is_sensitive = $5,
         updated_at = now()`,
      [auth.tenantId, auth.userId, body.key, JSON.stringify(body.value), body.isSensitive],
    );
    res.json({ key: body.key, value: body.value, type: settingType(body.value) });
  });

  return router;
}
