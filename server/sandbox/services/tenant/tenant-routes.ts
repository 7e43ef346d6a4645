import { Router } from 'express';
import * as v from 'valibot';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { ACCESS_CHANGED } from '#server/sandbox/services/notification/index.ts';
import { HttpError, notFound } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { BrandingBody, GeneralBody, SettingBody, settingKey } from '#common/contracts/tenant.ts';
import { checkProductSetting, tenantSettingsAccess } from './product-settings.ts';
import {
  PAYMENT_SETTING_KEYS,
  checkPaymentSetting,
  isPaymentSettingKey,
  maskPaymentSetting,
} from '#common/payment-settings.ts';
import {
  equals,
  equalsIgnoringCase,
  invalidQuery,
  listPage,
  listRoute,
  numeric,
  oneOf,
  readList,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import type { Audit } from '#server/sandbox/platform/records.ts';

/** The version stamps of a settings record, named as the contract's SettingsVersionEntries. */
const VERSION_COLUMNS = 'version, updated_at AS "updatedAt", updated_by AS "updatedBy"';

/** The versioned settings records: one row per tenant, its table and the columns a save sets. */
const VERSIONED_SETTINGS = {
  general: {
    table: 'general_settings',
    columns: ['time_zone', 'language', 'currency', 'format_hours', 'format_dates'],
    alsoRead: [],
  },
  branding: {
    table: 'branding',
    columns: ['name', 'address', 'logo', 'main_color'],
    alsoRead: ['tenant_id'],
  },
} as const;
type SettingsName = keyof typeof VERSIONED_SETTINGS;

function settingsSelect(name: SettingsName): string {
  const { table, columns, alsoRead } = VERSIONED_SETTINGS[name];
  return `SELECT ${[...alsoRead, ...columns, VERSION_COLUMNS].join(', ')} FROM ${table}`;
}

async function readSettings(db: Queryable, name: SettingsName, tenantId: number) {
  const [record] = await db.query<{ version: number }>(
    `${settingsSelect(name)} WHERE tenant_id = $1`,
    [tenantId],
  );
  return record;
}

/**
 * Saves a tenant's settings record only on top of the version the caller loaded (a stale save
 * would overwrite what the caller never saw) and answers it as saved. A save that changes no row
 * is refused: 409 with the record as saved now, under its name as a save's answer carries it,
 * so the client can show what changed; 404 when the tenant has none.
 */
async function saveSettings(
  db: Queryable,
  name: SettingsName,
  auth: { tenantId: number; userCode: string },
  body: Record<string, unknown> & { version: number },
) {
  const { table, columns, alsoRead } = VERSIONED_SETTINGS[name];
  const set = columns.map((c, i) => `${c} = $${i + 2}`).join(', ');
  const by = columns.length + 2;
  const [saved] = await db.query(
    `UPDATE ${table} SET ${set}, version = version + 1, updated_by = $${by}, updated_at = now()
     WHERE tenant_id = $1 AND version = $${by + 1}
     RETURNING ${[...alsoRead, ...columns, VERSION_COLUMNS].join(', ')}`,
    [auth.tenantId, ...columns.map((c) => body[c]), auth.userCode, body.version],
  );
  if (saved) return saved;
  const current = await readSettings(db, name, auth.tenantId);
  if (!current) throw notFound(`${name} settings`);
  throw new HttpError(
    409,
    'version_conflict',
    `${name} was changed meanwhile (version ${current.version}, yours ${body.version})`,
    { [name]: current },
  );
}

/** A stored tenant setting with its version stamps. */
interface SettingRow {
  key: string;
  value: unknown;
  version?: number;
  updatedAt?: Date;
  updatedBy?: string;
  is_sensitive?: boolean;
}
const SETTING_SELECT = `SELECT key, value, is_sensitive, ${VERSION_COLUMNS} FROM settings`;

/** A tenant setting as read and saved: the spec's key, value and type, and its version. */
function presentSetting(row: SettingRow) {
  return {
    key: row.key,
    // A payment provider's secret is never answered whole (common/payment-settings.ts).
    value: maskPaymentSetting(row.key, row.value),
    type: settingType(row.value),
    version: row.version ?? 0,
    updatedAt: row.updatedAt ?? null,
    updatedBy: row.updatedBy ?? null,
  };
}

export function settingType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export interface RoleRow extends Audit {
  id: number;
  code: string;
  label: string;
  description: string;
  /** The description per language (migration 027). */
  description_labels: NameLabels;
  /** The label (the role's name) per language (migration 038). */
  label_labels: NameLabels;
}

export async function rolesWithPermissions(db: Queryable, tenantId: number, roles: RoleRow[]) {
  const ids = roles.map((r) => r.id);
  const perms = ids.length
    ? await db.query<{ id: number; role_id: number; permission: string }>(
        `SELECT id, role_id, permission FROM role_permissions
          WHERE tenant_id = $1 AND role_id = ANY($2::int[]) ORDER BY permission`,
        [tenantId, ids],
      )
    : [];
  return roles.map((r) => ({
    id: r.id,
    code: r.code,
    label: r.label,
    labels: r.label_labels ?? {},
    description: r.description,
    descriptionLabels: r.description_labels ?? {},
    permissions: perms
      .filter((p) => p.role_id === r.id)
      .map((p) => {
        const [module = '', entity = '', action = ''] = p.permission.split('.');
        return { id: p.id, code: p.permission, module, entity, action };
      }),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
    updatedBy: r.updated_by,
  }));
}

export interface UserRow extends Audit {
  id: number;
  code: string;
  email: string;
  first_name: string;
  last_name: string;
  status: string;
  sub: string;
  version: number;
  must_change_password: boolean;
  organization_id: number | null;
}

export const USER_SELECT = `SELECT u.id, u.code, u.email, u.first_name, u.last_name, u.status, u.sub,
  u.version, u.must_change_password, tu.organization_id, u.created_at, u.updated_at, u.created_by, u.updated_by
  FROM users u JOIN tenant_users tu ON tu.user_id = u.id`;

export async function presentUsers(
  db: Queryable,
  tenantId: number,
  slug: string,
  rows: UserRow[],
  withRoles: boolean,
  withOrganizations = false,
) {
  const organizations = new Map<number, { id: number; code: string; name: string }>();
  const orgIds = [...new Set(rows.map((r) => r.organization_id).filter((id) => id !== null))];
  if (withOrganizations && orgIds.length) {
    const orgRows = await db.query<{ id: number; code: string; name: string }>(
      'SELECT id, code, name FROM organizations WHERE tenant_id = $1 AND id = ANY($2::int[])',
      [tenantId, orgIds],
    );
    for (const org of orgRows) organizations.set(org.id, org);
  }
  let rolesByUser = new Map<number, Awaited<ReturnType<typeof rolesWithPermissions>>>();
  if (withRoles && rows.length) {
    const links = await db.query<RoleRow & { user_id: number }>(
      `SELECT ur.user_id, r.id, r.code, r.label, r.description, r.description_labels, r.label_labels, r.created_at, r.updated_at,
              r.created_by, r.updated_by
         FROM user_roles ur JOIN roles r ON r.id = ur.role_id AND r.tenant_id = ur.tenant_id
        WHERE ur.tenant_id = $1 AND ur.user_id = ANY($2::int[]) ORDER BY r.id`,
      [tenantId, rows.map((r) => r.id)],
    );
    const unique = [...new Map(links.map((l) => [l.id, l])).values()];
    const full = new Map((await rolesWithPermissions(db, tenantId, unique)).map((r) => [r.id, r]));
    rolesByUser = new Map();
    for (const link of links) {
      const role = full.get(link.id);
      if (!role) continue;
      rolesByUser.set(link.user_id, [...(rolesByUser.get(link.user_id) ?? []), role]);
    }
  }
  return rows.map((u) => ({
    id: u.id,
    code: u.code,
    email: u.email,
    firstName: u.first_name,
    lastName: u.last_name,
    status: u.status,
    sub: u.sub,
    ern: `ern:tenant:${slug}:user:${u.code}`,
    mfaAuthentication: false,
    subscriptions: [],
    organizationId: u.organization_id,
    ...(withRoles ? { roles: rolesByUser.get(u.id) ?? [] } : {}),
    ...(withOrganizations
      ? {
          organization:
            u.organization_id === null ? null : (organizations.get(u.organization_id) ?? null),
        }
      : {}),
    version: u.version,
    mustChangePassword: u.must_change_password,
    createdAt: u.created_at,
    updatedAt: u.updated_at,
    createdBy: u.created_by,
    updatedBy: u.updated_by,
  }));
}

const USER_LIST: ListSource = {
  filters: {
    id: numeric('u.id', 'id must be numeric'),
    code: equals('u.code'),
    email: equalsIgnoringCase('u.email'),
    status: oneOf('u.status', new Set(['active', 'disabled', 'invited']), 'unknown status'),
    sub: {
      where: (p) => `u.sub = ${p}::uuid`,
      value: (text) => {
        if (!/^[0-9a-f-]{36}$/i.test(text)) throw invalidQuery('bad sub');
        return text;
      },
    },
    organizationId: numeric('tu.organization_id', 'organizationId must be numeric'),
    roleId: {
      ...numeric('', 'roleId must be numeric'),
      where: (p) =>
        `EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.tenant_id = tu.tenant_id
           AND ur.role_id = ${p})`,
    },
    // The spec's filterByRole names the role by its code.
    role: {
      where: (p) =>
        `EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
           WHERE ur.user_id = u.id AND ur.tenant_id = tu.tenant_id AND r.code = ${p})`,
    },
  },
  search: ['u.email', 'u.first_name', 'u.last_name', "(u.first_name || ' ' || u.last_name)"],
  orders: {
    id: 'u.id',
    email: 'lower(u.email)',
    firstName: 'lower(u.first_name)',
    lastName: 'lower(u.last_name)',
  },
  defaultOrder: ['id', 'ASC'],
  unique: 'u.id',
  expands: ['roles', 'organizations'],
};

const ROLE_LIST: ListSource = {
  filters: {
    id: numeric('id', 'id must be numeric'),
    code: equals('code'),
    // Roles that reach into the module, wildcard grants included (they reach every module).
    module: {
      where: (p) => `EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = roles.id
        AND (split_part(rp.permission, '.', 1) IN (${p}, '*')
             OR rp.permission IN ('*', '*.*', '*.*.*', 'admin')))`,
    },
  },
  search: ['label', 'code'],
  orders: { id: 'id', code: 'code', label: 'label' },
  defaultOrder: ['id', 'ASC'],
  unique: 'id',
  uniqueAscending: true,
  expands: ['permissions'],
};

export function tenantRouter(
  deps: Pick<SandboxContext, 'db' | 'signer' | 'hub' | 'clock'>,
): Router {
  const { db, clock } = deps;

  /** A save of a versioned settings record, with its entry in the activity log. */
  const saveAudited = (
    auth: AuthContext,
    name: SettingsName,
    body: Record<string, unknown> & { version: number },
  ) =>
    db.transaction(async (tx) => {
      const before = await readSettings(tx, name, auth.tenantId);
      const saved = await saveSettings(tx, name, auth, body);
      await recordChange(
        tx,
        { auth, clock },
        {
          entityType: 'setting',
          entityId: name,
          entityLabel: name,
          action: 'updated',
          before,
          after: saved,
        },
      );
      return saved;
    });
  const router = Router();
  router.use(requireAuth(db, deps.signer));

  router.get(
    '/tenants/:id',
    requirePermission('tenant-management.tenants.view'),
    async (req, res) => {
      const auth = getAuth(res);
      // Only the caller's own tenant exists for them; any other id looks like a missing one.
      if (req.params.id !== String(auth.tenantId)) throw notFound('tenant');
      const [tenant] = await db.query<{ id: number; name: string; slug: string }>(
        'SELECT id, name, slug FROM tenants WHERE id = $1',
        [auth.tenantId],
      );
      if (!tenant) throw notFound('tenant');
      res.json({ tenant });
    },
  );

  router.get('/general', requirePermission('tenant-management.tenants.view'), async (_req, res) => {
    const auth = getAuth(res);
    const general = await readSettings(db, 'general', auth.tenantId);
    if (!general) throw notFound('general settings');
    res.json({ general });
  });

  router.put(
    '/general',
    requirePermission('tenant-management.settings.update'),
    async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(GeneralBody, req.body);
      const general = await saveAudited(auth, 'general', body);
      res.json({ general });
    },
  );

  router.get(
    '/branding',
    requirePermission('tenant-management.tenants.view'),
    async (_req, res) => {
      const auth = getAuth(res);
      const branding = await readSettings(db, 'branding', auth.tenantId);
      if (!branding) throw notFound('branding');
      res.json({ branding });
    },
  );

  router.put(
    '/branding',
    requirePermission('tenant-management.settings.update'),
    async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(BrandingBody, req.body);
      const branding = await saveAudited(auth, 'branding', body);
      res.json({ branding });
    },
  );

  router.get('/settings/tenant', tenantSettingsAccess('view'), async (req, res) => {
    const auth = getAuth(res);
    const raw = typeof req.query.keys === 'string' ? req.query.keys : '';
    const keys = raw
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    if (keys.length === 0 || keys.length > 50 || !keys.every((k) => v.is(settingKey, k))) {
      throw new HttpError(400, 'invalid_query', 'keys: 1 to 50 comma-separated setting keys');
    }
    const rows = await db.query<SettingRow>(
      `${SETTING_SELECT} WHERE tenant_id = $1 AND key = ANY($2::text[])`,
      [auth.tenantId, keys],
    );
    const byKey = new Map(rows.map((r) => [r.key, r]));
    res.json({
      values: keys.map((key) => presentSetting(byKey.get(key) ?? { key, value: null })),
    });
  });

  router.post('/settings/tenant', tenantSettingsAccess('update'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(SettingBody, req.body);
    body.value = (await checkProductSetting(
      db,
      auth.tenantId,
      body.key,
      body.value,
    )) as typeof body.value;
    const outcome = await db.transaction(async (tx) => {
      // One settings save of a tenant at a time: each takes the next revision of the tenant.
      await tx.query('SELECT id FROM tenants WHERE id = $1 FOR UPDATE', [auth.tenantId]);
      if (isPaymentSettingKey(body.key)) {
        // The payment keys' rules read what is stored: the private key kept, the provider's access.
        const [config] = await tx.query<{ value: unknown }>(
          'SELECT value FROM settings WHERE tenant_id = $1 AND key = $2',
          [auth.tenantId, PAYMENT_SETTING_KEYS.braintreeConfig],
        );
        const checked = checkPaymentSetting(body.key, body.value, {
          braintreeConfig: config?.value ?? null,
        });
        if (!checked.ok) {
          throw new HttpError(
            checked.code === 'psp_not_configured' ? 422 : 400,
            checked.code === 'psp_not_configured' ? checked.code : 'validation_error',
            `${checked.path}: ${checked.code}`,
            undefined,
            [{ path: checked.path, code: checked.code }],
          );
        }
        body.value = checked.value as typeof body.value;
        body.isSensitive = checked.isSensitive;
      }
      const [current] = await tx.query<SettingRow>(
        `${SETTING_SELECT} WHERE tenant_id = $1 AND key = $2`,
        [auth.tenantId, body.key],
      );
      // A version newer than the one sent: saved by somebody since the caller read it (the
      // version of a tab of several keys is the newest of them, hence "newer", not "other").
      if (current && body.version !== undefined && (current.version ?? 0) > body.version) {
        return { stale: true, row: current };
      }
      // A secret (a payment provider's key) is logged as changed, never with its value.
      const secret = body.isSensitive || current?.is_sensitive;
      await recordChange(
        tx,
        { auth, clock },
        {
          entityType: 'setting',
          entityId: body.key,
          entityLabel: body.key,
          action: current ? (secret ? 'secret_changed' : 'updated') : 'created',
          ...(secret
            ? { changes: [] }
            : { before: { value: current?.value ?? null }, after: { value: body.value } }),
        },
      );
      const [saved] = await tx.query<SettingRow>(
        `INSERT INTO settings (tenant_id, key, value, is_sensitive, updated_by, version)
         VALUES ($1, $2, $3::jsonb, $4, $5,
                 (SELECT coalesce(max(version), 0) + 1 FROM settings WHERE tenant_id = $1))
         ON CONFLICT (tenant_id, key) DO UPDATE SET value = $3::jsonb, is_sensitive = $4,
           updated_by = $5, updated_at = now(), version = excluded.version
         RETURNING key, value, ${VERSION_COLUMNS}`,
        [auth.tenantId, body.key, JSON.stringify(body.value), body.isSensitive, auth.userCode],
      );
      return { stale: false, row: saved! };
    });
    if (outcome.stale) {
      throw new HttpError(
        409,
        'version_conflict',
        `${body.key} was changed meanwhile (version ${outcome.row.version}, yours ${body.version})`,
        { setting: presentSetting(outcome.row) },
      );
    }
    res.json(presentSetting(outcome.row));
  });

  router.get('/users', requirePermission('tenant-management.users.view'), async (req, res) => {
    const auth = getAuth(res);
    const list = readList(req.query, USER_LIST);
    const page = await listPage<UserRow>(db, list, USER_LIST, USER_SELECT, {
      where: ['tu.tenant_id = $1'],
      params: [auth.tenantId],
    });
    res.json({
      items: await presentUsers(
        db,
        auth.tenantId,
        auth.tenantSlug,
        page.items,
        list.expand.has('roles'),
        list.expand.has('organizations'),
      ),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    });
  });

  async function findUser(tenantId: number, idOrCode: string): Promise<UserRow> {
    const byId = /^\d{1,9}$/.test(idOrCode);
    const [user] = await db.query<UserRow>(
      `${USER_SELECT} WHERE tu.tenant_id = $1 AND ${byId ? 'u.id = $2' : 'u.code = $2'}`,
      [tenantId, byId ? Number(idOrCode) : idOrCode],
    );
    if (!user) throw notFound('user');
    return user;
  }

  router.get('/users/:id', requirePermission('tenant-management.users.view'), async (req, res) => {
    const auth = getAuth(res);
    const expand = (typeof req.query.expand === 'string' ? req.query.expand.split(',') : []).map(
      (e) => e.trim(),
    );
    if (expand.some((e) => e && e !== 'roles' && e !== 'organizations')) {
      throw new HttpError(400, 'invalid_query', 'unsupported expand');
    }
    const user = await findUser(auth.tenantId, String(req.params.id));
    const [presented] = await presentUsers(
      db,
      auth.tenantId,
      auth.tenantSlug,
      [user],
      expand.includes('roles'),
      expand.includes('organizations'),
    );
    res.json({ user: presented });
  });

  for (const action of ['enable', 'disable'] as const) {
    router.post(
      `/users/:id/${action}`,
      requirePermission('tenant-management.users.update'),
      async (req, res) => {
        const auth = getAuth(res);
        const user = await findUser(auth.tenantId, String(req.params.id));
        if (action === 'disable' && user.id === auth.userId) {
          throw new HttpError(400, 'cannot_disable_self', 'you cannot disable your own user');
        }
        const updated = await db.transaction(async (tx) => {
          const [row] = await tx.query<UserRow>(
            `UPDATE users SET status = $1, updated_at = now(), updated_by = $2 WHERE id = $3
           RETURNING id, code, email, first_name, last_name, status, sub,
                     (SELECT organization_id FROM tenant_users
                       WHERE user_id = users.id AND tenant_id = $4) AS organization_id,
                     created_at, updated_at, created_by, updated_by`,
            [action === 'enable' ? 'active' : 'disabled', auth.userCode, user.id, auth.tenantId],
          );
          if (action === 'disable') {
            // A disabled user must not be able to mint new access tokens from an old session.
            await tx.query(
              'UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
              [user.id],
            );
          }
          return row;
        });
        if (!updated) throw notFound('user');
        if (action === 'disable') deps.hub.publishToUsers(auth.tenantId, [user.id], ACCESS_CHANGED);
        const [presented] = await presentUsers(db, auth.tenantId, auth.tenantSlug, [updated], true);
        res.json({ user: presented });
      },
    );
  }

  router.get(
    '/roles',
    requirePermission('identity-management.roles.view'),
    listRoute<RoleRow>(
      db,
      ROLE_LIST,
      'SELECT id, code, label, label_labels, description, description_labels, created_at, updated_at, created_by, updated_by FROM roles',
      'tenant_id',
      (rows, _list, auth) => rolesWithPermissions(db, auth.tenantId, rows),
    ),
  );

  return router;
}
