import { describe, expect, it } from 'vitest';
import type { Queryable } from './db.ts';
import { StatusWorkflow } from './status-workflow.ts';

/** A database that answers the two reads of the engine from a tenant's statuses and rules. */
function fakeDb(statuses: string[], rules: [string, string][]) {
  const sql: string[] = [];
  const db: Queryable = {
    async query<T>(text: string): Promise<T[]> {
      sql.push(text);
      if (text.includes('status_transition_rules')) {
        return rules.map(([from_status, to_status]) => ({ from_status, to_status })) as T[];
      }
      return statuses.map((slug, i) => ({
        id: i + 1,
        code: slug,
        slug,
        name: slug,
        order: i,
      })) as T[];
    },
  };
  return { db, sql };
}

const refuse = {
  unknown: (to: string) => new Error(`unknown ${to}`),
  illegal: (from: string, to: string) => new Error(`illegal ${from}->${to}`),
};
const workflow = new StatusWorkflow({
  statusTable: 'claim_statuses',
  entityType: 'claim',
  defaults: {
    statuses: [
      ['open', 'Open', ['review']],
      ['review', 'In review', ['closed', 'open']],
      ['closed', 'Closed', []],
    ],
    code: (tenant, status) => `${tenant}/${status}`,
    names: { north: { open: 'Offen' } },
    labels: { open: { de: 'Offen', en: 'Open', pl: 'Otwarty' } },
    moreRules: { north: [['open', 'closed']] },
  },
});

describe('StatusWorkflow', () => {
  const world = () =>
    fakeDb(
      ['open', 'review', 'closed'],
      [
        ['open', 'review'],
        ['review', 'closed'],
        ['review', 'open'],
      ],
    );

  it('lets through a move the rules allow', async () => {
    await expect(
      workflow.checkMove(world().db, 1, 'review', 'open', refuse),
    ).resolves.toBeUndefined();
  });

  it('refuses a move the rules do not allow, and one out of a final status', async () => {
    await expect(workflow.checkMove(world().db, 1, 'open', 'closed', refuse)).rejects.toThrow(
      'illegal open->closed',
    );
    await expect(workflow.checkMove(world().db, 1, 'closed', 'open', refuse)).rejects.toThrow(
      'illegal closed->open',
    );
  });

  it('refuses a status the workspace does not have before looking at the rules', async () => {
    const { db, sql } = world();
    await expect(workflow.checkMove(db, 1, 'open', 'lost', refuse)).rejects.toThrow('unknown lost');
    expect(sql.some((q) => q.includes('status_transition_rules'))).toBe(false);
  });

  it('takes staying in the same status for no move, without reading anything', async () => {
    const { db, sql } = world();
    await workflow.checkMove(db, 1, 'closed', 'closed', refuse);
    expect(sql).toEqual([]);
  });

  it('groups the rules by the status they lead from, in their order', async () => {
    const rules = await workflow.rules(world().db, 1);
    expect(Object.fromEntries(rules)).toEqual({ open: ['review'], review: ['closed', 'open'] });
  });

  it('seeds a workspace its statuses in order, named its way, labelled, and the moves status by status', async () => {
    const calls: unknown[][] = [];
    const tx: Queryable = {
      async query<T>(_text: string, params: unknown[] = []): Promise<T[]> {
        calls.push(params);
        return [];
      },
    };
    await workflow.seedDefaults(tx, 7, 'north');
    expect(calls[0]).toEqual([
      7,
      ['north/open', 'north/review', 'north/closed'],
      ['open', 'review', 'closed'],
      ['Offen', 'In review', 'Closed'],
      [1, 2, 3],
      // Stored with the rows, so no start-up ever labels them (a status without defaults: none).
      ['{"de":"Offen","en":"Open","pl":"Otwarty"}', '{}', '{}'],
    ]);
    // The workspace's own move comes after the defaults, so the defaults keep their ids.
    expect(calls[1]).toEqual([
      7,
      'claim',
      ['open', 'review', 'review', 'open'],
      ['review', 'closed', 'open', 'closed'],
    ]);
    calls.length = 0;
    await workflow.seedDefaults(tx, 8, 'south');
    expect(calls[0]?.[3]).toEqual(['Open', 'In review', 'Closed']);
    expect(calls[1]?.[2]).toEqual(['open', 'review', 'review']);
  });

  it('presents the audit stamps of a status only for an audited kind', () => {
    const row = { id: 1, code: 'c', slug: 's', name: 'n', labels: { pl: 'p' }, order: 1 };
    const stamped = { ...row, created_at: new Date(0), updated_at: new Date(1) };
    expect(workflow.present({ ...stamped, created_by: 'a', updated_by: 'b' })).toEqual(row);
    const audited = new StatusWorkflow({
      statusTable: 'lead_statuses',
      entityType: 'lead',
      audited: true,
      defaults: { statuses: [], code: () => '', labels: {} },
    });
    expect(audited.present({ ...stamped, created_by: 'a', updated_by: 'b' })).toEqual({
      ...row,
      createdAt: new Date(0),
      updatedAt: new Date(1),
      createdBy: 'a',
      updatedBy: 'b',
    });
  });
});
