import type { RequestHandler } from 'express';
import type { Db, Queryable } from './db.ts';
import { getAuth } from './auth-context.ts';
import { audit, type Audit } from './records.ts';
import { stableCode } from './seeding.ts';
import type { Clock } from '#common/clock.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { labelsRoute, type DefaultLabels } from './name-labels.ts';

/** The status columns every kind's status table has; an audited kind reads its stamps too. */
export interface StatusRow extends Partial<Audit> {
  id: number;
  code: string;
  slug: string;
  name: string;
  /** Its texts per language (migration 021); null until the seed or an admin labelled it. */
  labels: NameLabels | null;
  order: number;
}

/**
 * A kind's default statuses in their order, each with its English name and the statuses it may
 * move to (none: final). A workspace gets them on its first seed; the demo tenants may name them
 * in their language and allow more moves.
 */
export interface WorkflowDefaults {
  statuses: readonly (readonly [slug: string, name: string, moves: readonly string[]])[];
  /** The stable code of a seeded status from the workspace's and the status's slug. */
  code(tenantSlug: string, statusSlug: string): string;
  /** A workspace's own names of the statuses, by workspace slug. */
  names?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The default statuses' texts in every language, by slug (whatever the workspace named them). */
  labels: DefaultLabels;
  /** Moves a workspace allows beside the defaults (after them), by workspace slug. */
  moreRules?: Readonly<Record<string, readonly (readonly [string, string])[]>>;
}

/** A stable code as the seeds have always made them: `prefix` and a seed of the kind's `key`. */
export const seededStatusCode =
  (prefix: string, key: string) => (tenantSlug: string, statusSlug: string) =>
    stableCode(prefix, `${tenantSlug}:${key}:${statusSlug}`);

/** How a kind's service answers a refused move: each its own error and words. */
export interface MoveRefusals {
  /** `to` is not one of the workspace's statuses of this kind. */
  unknown(to: string): Error;
  /** The workspace's rules lead nowhere from `from` to `to`. */
  illegal(from: string, to: string): Error;
}

/**
 * The status-transition engine of records that move through a workspace's statuses (leads,
 * claims): the statuses are a table per kind, the allowed moves rows of status_transition_rules
 * under the kind's entity type. One engine, a rule table each; the services keep their words.
 */
export class StatusWorkflow {
  constructor(
    private readonly kind: {
      /** The kind's status table, e.g. `lead_statuses` (a constant, never input). */
      statusTable: string;
      /** The table has audit stamps, and the status list shows them. */
      audited?: boolean;
      /** Its `entity_type` in status_transition_rules. */
      entityType: string;
      defaults: WorkflowDefaults;
    },
  ) {}

  /** The workspace's statuses in their order; the first is where a new record starts. */
  statuses(db: Queryable, tenantId: number): Promise<StatusRow[]> {
    const columns = ['id', 'code', 'slug', 'name', 'labels', '"order"'];
    if (this.kind.audited) columns.push('created_at', 'updated_at', 'created_by', 'updated_by');
    return db.query<StatusRow>(
      `SELECT ${columns.join(', ')} FROM ${this.kind.statusTable}
        WHERE tenant_id = $1 ORDER BY "order", id`,
      [tenantId],
    );
  }

  /** For each status, the statuses a record may move to from it; a final status has none. */
  async rules(db: Queryable, tenantId: number): Promise<Map<string, string[]>> {
    const rows = await db.query<{ from_status: string; to_status: string }>(
      `SELECT from_status, to_status FROM status_transition_rules
        WHERE tenant_id = $1 AND entity_type = $2 ORDER BY id`,
      [tenantId, this.kind.entityType],
    );
    const rules = new Map<string, string[]>();
    for (const r of rows)
      rules.set(r.from_status, [...(rules.get(r.from_status) ?? []), r.to_status]);
    return rules;
  }

  /**
   * Refuses a move to a status the workspace does not have, then one its rules do not allow;
   * staying in the same status is no move. Read inside the writing transaction, so a rule
   * changed meanwhile cannot let a move through.
   */
  async checkMove(
    db: Queryable,
    tenantId: number,
    from: string,
    to: string,
    refuse: MoveRefusals,
  ): Promise<void> {
    if (to === from) return;
    const statuses = await this.statuses(db, tenantId);
    if (!statuses.some((s) => s.slug === to)) throw refuse.unknown(to);
    if (!allows(await this.rules(db, tenantId), from, to)) throw refuse.illegal(from, to);
  }

  /** The status list endpoint of the kind: the workspace's statuses in their order, one page. */
  listRoute(db: Db): RequestHandler {
    return async (_req, res) => {
      const rows = await this.statuses(db, getAuth(res).tenantId);
      res.json({ items: rows.map((r) => this.present(r)), nextPageToken: null });
    };
  }

  present(r: StatusRow) {
    const own = {
      id: r.id,
      code: r.code,
      slug: r.slug,
      name: r.name,
      labels: r.labels ?? {},
      order: r.order,
    };
    return this.kind.audited ? { ...own, ...audit(r as StatusRow & Audit) } : own;
  }

  /** The default statuses' texts, by slug (what the seed stores and migration 026 gave). */
  get defaultLabels(): DefaultLabels {
    return this.kind.defaults.labels;
  }

  /** `PUT …/:slug/labels` of the kind: an admin translates a status of the workspace. */
  labelsRoute(db: Db, clock: Clock): RequestHandler {
    return labelsRoute<StatusRow>(db, clock, this.kind.statusTable, (r) => this.present(r));
  }

  /**
   * Gives a workspace the kind's default statuses, named its way and labelled in every language,
   * and the moves between them. (Rows seeded before their labels existed got them from
   * migration 026, so start-up never labels anything.)
   */
  async seedDefaults(tx: Queryable, tenantId: number, tenantSlug: string): Promise<void> {
    const { statuses, code, names = {}, labels, moreRules = {} } = this.kind.defaults;
    const named = names[tenantSlug] ?? {};
    const rules = statuses.flatMap(([from, , moves]) => moves.map((to) => [from, to] as const));
    await tx.query(
      `INSERT INTO ${this.kind.statusTable} (tenant_id, code, slug, name, "order", labels)
       SELECT $1, c, s, n, o, l
         FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::jsonb[]) AS x(c, s, n, o, l)`,
      [
        tenantId,
        statuses.map(([slug]) => code(tenantSlug, slug)),
        statuses.map(([slug]) => slug),
        statuses.map(([slug, name]) => named[slug] ?? name),
        statuses.map((_, i) => i + 1),
        statuses.map(([slug]) => JSON.stringify(labels[slug] ?? {})),
      ],
    );
    rules.push(...(moreRules[tenantSlug] ?? []));
    await tx.query(
      `INSERT INTO status_transition_rules (tenant_id, entity_type, from_status, to_status)
       SELECT $1, $2, f, t FROM unnest($3::text[], $4::text[]) AS x(f, t)
       ON CONFLICT DO NOTHING`,
      [tenantId, this.kind.entityType, rules.map((r) => r[0]), rules.map((r) => r[1])],
    );
  }
}

/** Whether the rules lead from one status to the other. */
export const allows = (rules: ReadonlyMap<string, readonly string[]>, from: string, to: string) =>
  rules.get(from)?.includes(to) ?? false;
