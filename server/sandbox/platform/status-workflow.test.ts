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
const workflow = new StatusWorkflow({ statusTable: 'claim_statuses', entityType: 'claim' });

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
});
