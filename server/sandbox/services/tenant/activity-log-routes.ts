import { Router, type Request } from 'express';
import { ADMIN_ENTITY_TYPES, type AdminEntityType } from '#common/contracts/activity-log.ts';
import type { AuditChange } from '#server/sandbox/platform/audit-trail.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#server/sandbox/platform/list-query.ts';

/**
 * The tenant's activity log (issue 16): the administration changes of the workspace (users,
 * roles, organisations and their invitations, settings) from the one audit trail, newest first,
 * filtered by kind, actor, time and a search. Pages by keyset on (at, id): the log grows while an
 * administrator reads it, and an OFFSET page would then repeat entries.
 *
 * Read by whoever may change the tenant's settings, the permission of the settings screen the log
 * lives in (docs/decisions/008-activity-log.md): every UI role reads the settings, so the read
 * permission would show any clerk who changed which role.
 */
export const ACTIVITY_LOG_PERMISSION = 'tenant-management.settings.update';

const invalid = (message: string) => new HttpError(400, 'invalid_query', message);

function text(query: Request['query'], name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`${name} given twice`);
  return value;
}

/** A day (YYYY-MM-DD, in the tenant's time zone) or an instant. */
function when(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) || !Date.parse(value)) {
    throw invalid(`${name} must be a day (YYYY-MM-DD) or an ISO instant`);
  }
  return value;
}

/** The keyset of the last row of a page: `<at ISO>_<id>`, opaque to the caller. */
const tokenOf = (row: { at: Date; id: string }) =>
  Buffer.from(`${row.at.toISOString()}_${row.id}`).toString('base64url');

function keysetOf(token: string | undefined): { at: string; id: string } | undefined {
  if (token === undefined) return undefined;
  const [at = '', id = ''] = Buffer.from(token, 'base64url').toString().split('_');
  if (!/^\d{1,18}$/.test(id) || Number.isNaN(Date.parse(at))) throw invalid('bad pageToken');
  return { at, id };
}

interface LogRow {
  id: string;
  entity_type: AdminEntityType;
  entity_id: string;
  entity_label: string | null;
  actor_name: string;
  at: Date;
  action: string;
  changes: AuditChange[];
}

/** The WHERE of the log's filters (the keyset aside) and its parameters. */
function logFilter(query: Request['query'], tenantId: number) {
  const params: unknown[] = [tenantId];
  const where = ['e.tenant_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  const kinds = (text(query, 'entityType') ?? ADMIN_ENTITY_TYPES.join(','))
    .split(',')
    .filter(Boolean);
  if (!kinds.every((k) => (ADMIN_ENTITY_TYPES as readonly string[]).includes(k))) {
    throw invalid(`entityType: one or more of ${ADMIN_ENTITY_TYPES.join(', ')}`);
  }
  add((p) => `e.entity_type = ANY(${p}::text[])`, kinds);
  const actor = text(query, 'actor');
  if (actor !== undefined) add((p) => `e.actor_name ILIKE ${p}`, `%${likeEscaped(actor)}%`);
  // A day is the tenant's day: a change at 00:30 in Berlin is on that day, not the one before.
  const zone = `(SELECT time_zone FROM general_settings WHERE tenant_id = $1)`;
  const instant = (p: string, day: boolean, next: boolean) =>
    day
      ? `((${p}::date + ${next ? 1 : 0})::timestamp AT TIME ZONE coalesce(${zone}, 'UTC'))`
      : `${p}::timestamptz`;
  const from = when(text(query, 'from'), 'from');
  if (from !== undefined) add((p) => `e.at >= ${instant(p, from.length === 10, false)}`, from);
  const to = when(text(query, 'to'), 'to');
  // A day as the end takes the whole day.
  if (to !== undefined) add((p) => `e.at < ${instant(p, to.length === 10, true)}`, to);
  const search = text(query, 'search');
  if (search !== undefined) {
    add(
      (p) =>
        `(e.actor_name ILIKE ${p} OR coalesce(e.entity_label, '') ILIKE ${p}
          OR e.entity_id ILIKE ${p} OR e.action ILIKE ${p} OR e.changes::text ILIKE ${p})`,
      `%${likeEscaped(search)}%`,
    );
  }
  return { where, params };
}

const likeEscaped = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export function activityLogRouter(deps: { db: Db; signer: TokenSigner }): Router {
  const { db } = deps;
  const router = Router();
  router.use('/audit-events', requireAuth(db, deps.signer));

  router.get('/audit-events', requirePermission(ACTIVITY_LOG_PERMISSION), async (req, res) => {
    const auth = getAuth(res);
    const sizeText = text(req.query, 'pageSize');
    if (sizeText !== undefined && !/^[1-9]\d{0,5}$/.test(sizeText)) {
      throw invalid('pageSize must be a positive integer');
    }
    const pageSize = Math.min(Number(sizeText ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
    const { where, params } = logFilter(req.query, auth.tenantId);
    const keyset = keysetOf(text(req.query, 'pageToken'));
    const filtered = `FROM audit_events e WHERE ${where.join(' AND ')}`;
    const pageWhere = keyset
      ? ` AND (e.at, e.id) < ($${params.length + 1}::timestamptz, $${params.length + 2}::bigint)`
      : '';
    const pageParams = keyset ? [...params, keyset.at, keyset.id] : params;
    const rows = await db.query<LogRow>(
      // A user's events written before labels were kept name the user as it is now.
      `SELECT e.id::text, e.entity_type, e.entity_id, e.actor_name, e.at, e.action, e.changes,
              coalesce(e.entity_label, (
                SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email)
                  FROM users u WHERE e.entity_type = 'user' AND u.code = e.entity_id)) AS entity_label
         ${filtered}${pageWhere}
        ORDER BY e.at DESC, e.id DESC LIMIT $${pageParams.length + 1}`,
      [...pageParams, pageSize + 1],
    );
    const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${filtered}`, params);
    const items = rows.slice(0, pageSize);
    const last = items.at(-1);
    res.json({
      items: items.map((r) => ({
        id: r.id,
        entityType: r.entity_type,
        entityId: r.entity_id,
        entityLabel: r.entity_label,
        // Only the name: no user id or code reaches a screen (issue 15, point 12).
        actorName: r.actor_name,
        at: r.at,
        action: r.action,
        changes: r.changes,
      })),
      nextPageToken: rows.length > pageSize && last ? tokenOf(last) : null,
      totalItems: count?.n ?? 0,
    });
  });

  return router;
}
