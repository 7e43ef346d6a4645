import type { Queryable } from './db.ts';

/** The status columns every kind's status table has; a kind may read more (its audit stamps). */
export interface StatusRow {
  id: number;
  code: string;
  slug: string;
  name: string;
  order: number;
}

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
export class StatusWorkflow<S extends StatusRow = StatusRow> {
  constructor(
    private readonly kind: {
      /** The kind's status table, e.g. `lead_statuses` (a constant, never input). */
      statusTable: string;
      /** What `statuses` reads of it, beside the StatusRow columns. */
      extraColumns?: readonly string[];
      /** Its `entity_type` in status_transition_rules. */
      entityType: string;
    },
  ) {}

  /** The workspace's statuses in their order; the first is where a new record starts. */
  statuses(db: Queryable, tenantId: number): Promise<S[]> {
    const columns = ['id', 'code', 'slug', 'name', '"order"', ...(this.kind.extraColumns ?? [])];
    return db.query<S>(
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

  /** Gives a workspace its statuses, ordered as listed, and the moves between them (demo seeds). */
  async seed(
    tx: Queryable,
    tenantId: number,
    statuses: readonly { code: string; slug: string; name: string }[],
    rules: readonly (readonly [string, string])[],
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${this.kind.statusTable} (tenant_id, code, slug, name, "order")
       SELECT $1, c, s, n, o FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS x(c, s, n, o)`,
      [
        tenantId,
        statuses.map((s) => s.code),
        statuses.map((s) => s.slug),
        statuses.map((s) => s.name),
        statuses.map((_, i) => i + 1),
      ],
    );
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
