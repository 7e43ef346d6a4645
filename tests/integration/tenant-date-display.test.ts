import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateDisplayOf, formatDay, formatInstant } from '#common/date-display.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * Issue 16, defect 4: the general settings an administrator saves are what every user of the
 * tenant reads, and the CSV export writes its dates in them (the lists' own formatter).
 */
let stack: Stack;
let admin: Agent;
let care: Agent;
beforeAll(async () => {
  stack = await startStack();
  admin = new Agent(stack.url);
  care = new Agent(stack.url);
  expect((await admin.login('admin@demo.test')).status).toBe(200);
  expect((await care.login('care@demo.test')).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

const GENERAL = '/api/0/tenantservice/v1/general';

async function saveGeneral(changes: Record<string, string>) {
  const { body } = await admin.json(GENERAL);
  const { updatedAt: _at, updatedBy: _by, ...fields } = body.general as Record<string, unknown>;
  const saved = await admin.json(GENERAL, { method: 'PUT', json: { ...fields, ...changes } });
  expect(saved.status).toBe(200);
  return saved.body.general as Record<string, unknown>;
}

/** Rows of cells; quoted cells (titles with commas) stay whole. */
function cellsOf(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^",]*)(?:,|$)/g)]
        .filter((m) => m.index < line.length || m[0] !== '')
        .map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!)),
    );
}

describe('the tenant’s date display', () => {
  it('is what another user of the tenant reads after an administrator saved it', async () => {
    const before = (await care.json(GENERAL)).body.general as Record<string, unknown>;
    expect(before).toMatchObject({ format_dates: 'DD.MM.YYYY', format_hours: 'hh:mm:ss' });
    await saveGeneral({
      format_dates: 'YYYY-MM-DD',
      format_hours: 'hh:mm A',
      time_zone: 'America/New_York',
    });
    const read = await care.json(GENERAL);
    expect(read.status).toBe(200);
    expect(read.body.general).toMatchObject({
      format_dates: 'YYYY-MM-DD',
      format_hours: 'hh:mm A',
      time_zone: 'America/New_York',
    });
    // The seeded default can be saved again (the screen offers it again).
    const back = await saveGeneral({
      format_dates: 'DD.MM.YYYY',
      format_hours: 'hh:mm:ss',
      time_zone: 'Europe/Berlin',
    });
    expect(back).toMatchObject({ format_dates: 'DD.MM.YYYY', format_hours: 'hh:mm:ss' });
    expect((await care.json(GENERAL)).body.general).toMatchObject({ format_hours: 'hh:mm:ss' });
  });

  it('writes the claims’ dates of the CSV export in the tenant’s formats and zone', async () => {
    const general = await saveGeneral({
      format_dates: 'MM/DD/YYYY',
      format_hours: 'HH:mm:ss',
      time_zone: 'America/New_York',
    });
    try {
      const display = dateDisplayOf(general);
      const order = 'order=claimNumber:ASC';
      const list = await care.json(`/api/0/claimservice/v1/claims?pageSize=20&${order}`);
      const claims = list.body.items as {
        code: string;
        damageDate: string;
        notificationDate: string;
        createdAt: string;
      }[];
      expect(claims.length).toBeGreaterThan(0);
      const res = await care.fetch(`/api/0/export/claims.csv?${order}&lang=en`);
      expect(res.status).toBe(200);
      const [header, ...rows] = cellsOf(await res.text());
      const at = (name: string) => header!.indexOf(name);
      expect(at('Date of damage')).toBeGreaterThan(-1);
      for (const claim of claims) {
        const row = rows.find((cells) => cells[at('Code')] === claim.code);
        expect(row, claim.code).toBeDefined();
        // A loss date is a day: the same in New York, only written the tenant's way.
        expect(row![at('Date of damage')]).toBe(formatDay(display, claim.damageDate));
        expect(row![at('Date of damage')]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
        expect(row![at('Date of damage')]).toBe(
          claim.damageDate.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2/$3/$1'),
        );
        expect(row![at('Created')]).toBe(formatInstant(display, claim.createdAt));
        expect(row![at('Created')]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
      }
    } finally {
      await saveGeneral({
        format_dates: 'DD.MM.YYYY',
        format_hours: 'hh:mm:ss',
        time_zone: 'Europe/Berlin',
      });
    }
  });
});
