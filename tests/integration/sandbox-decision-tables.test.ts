import { beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_ROUTING_DMN } from '#server/sandbox/services/processmanager/seed-workflows.ts';
import { applyEdit, emptyTable, writeDmn } from '#client/features/decision-tables/dmn-table.ts';
import { grantWorkflowView, processmanagerApi } from '#tests/support/processmanager.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

// Decision tables of the process manager (issue 17), beyond what sandbox-workflows.test.ts
// covers (create, one PUT, rename, versions, a DMN that is no XML, another tenant's GET): the
// refusals that keep the table as it was, typed evaluation, another tenant's writes, and the
// permissions per call.

const kit = withSandbox({
  admin: 'admin@demo.test',
  care: 'care@demo.test',
  viewer: 'viewer@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, care, viewer, nord } = kit.sessions;
const { call, upload } = processmanagerApi(kit);

const count = async (sql: string, params: unknown[] = []) =>
  Number((await kit.db().query<{ n: string }>(sql, params))[0]!.n);
const versionsOf = (code: string) =>
  count(
    `SELECT count(*) AS n FROM decision_table_versions v
       JOIN decision_tables d ON d.id = v.decision_table_id WHERE d.code = $1`,
    [code],
  );

/** A table of three inputs of different types, two outputs, COLLECT or FIRST. */
function typedDmn(hitPolicy: 'FIRST' | 'COLLECT') {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="defs" name="Typed" namespace="urn:test">
  <decision id="typed" name="Typed">
    <decisionTable id="t" hitPolicy="${hitPolicy}">
      <input id="i1" label="Amount"><inputExpression id="e1" typeRef="number"><text>claim.amount</text></inputExpression></input>
      <input id="i2" label="Kind"><inputExpression id="e2" typeRef="string"><text>kind</text></inputExpression></input>
      <input id="i3" label="Urgent"><inputExpression id="e3" typeRef="boolean"><text>urgent</text></inputExpression></input>
      <output id="o1" name="route" typeRef="string"/>
      <output id="o2" name="limit" typeRef="number"/>
      <rule id="r1"><inputEntry id="r1a"><text>&gt; 1000.5</text></inputEntry><inputEntry id="r1b"><text>"car","home"</text></inputEntry><inputEntry id="r1c"><text>-</text></inputEntry><outputEntry id="r1x"><text>"expert"</text></outputEntry><outputEntry id="r1y"><text>claim.amount * 2</text></outputEntry></rule>
      <rule id="r2"><inputEntry id="r2a"><text>-</text></inputEntry><inputEntry id="r2b"><text>-</text></inputEntry><inputEntry id="r2c"><text>true</text></inputEntry><outputEntry id="r2x"><text>"urgent"</text></outputEntry><outputEntry id="r2y"><text>0</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`;
}

// Vera (show-only) may read decision tables but not change them.
beforeAll(() => grantWorkflowView(kit.db()));

describe('refusals keep the table as it was', () => {
  it('refuses a DMN that does not parse, wrong entries, invalid FEEL and a missing file, saving nothing', async () => {
    const cases: [string, string | null, RegExp][] = [
      ['not-xml', '<definitions', /not DMN XML/],
      [
        'no-table',
        '<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="urn:x"/>',
        /no decision table/,
      ],
      [
        'short-rule',
        CLAIM_ROUTING_DMN.replace(
          '<inputEntry id="r2i"><text>&lt;= 100000</text></inputEntry>',
          '',
        ),
        /rule 2 has 0 input entries/,
      ],
      [
        'bad-feel',
        CLAIM_ROUTING_DMN.replace('&lt;= 100000', '&lt;= (100000'),
        /rule 2, input 1: the FEEL "<= \(100000" does not parse/,
      ],
      ['no-output-name', CLAIM_ROUTING_DMN.replace(' name="route"', ''), /needs a name/],
    ];
    for (const [code, file, message] of cases) {
      const created = await upload(admin, 'POST', '/decision-tables', { code, name: code }, file);
      expect(created.status, code).toBe(400);
      expect(created.body.error, code).toBe('invalid_dmn');
      expect(created.body.message, code).toMatch(message);
      expect(await count('SELECT count(*) AS n FROM decision_tables WHERE code = $1', [code])).toBe(
        0,
      );
    }
    const noFile = await upload(
      admin,
      'POST',
      '/decision-tables',
      { code: 'nofile', name: 'N' },
      null,
    );
    expect(noFile.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM decision_tables WHERE code = 'nofile'")).toBe(0);
    const badCode = await upload(
      admin,
      'POST',
      '/decision-tables',
      { code: 'a b', name: 'N' },
      CLAIM_ROUTING_DMN,
    );
    expect(badCode.status).toBe(400);
    expect(badCode.body.error).toBe('validation_error');

    // The same refusals on a new version: the seeded table keeps its versions.
    const before = await versionsOf('claim-routing');
    for (const [code, file] of cases) {
      const put = await upload(admin, 'PUT', '/decision-tables/claim-routing', {}, file);
      expect(put.status, code).toBe(400);
      expect(put.body.error, code).toBe('invalid_dmn');
    }
    expect((await upload(admin, 'PUT', '/decision-tables/claim-routing', {}, null)).status).toBe(
      400,
    );
    expect(await versionsOf('claim-routing')).toBe(before);
  });

  it('refuses a code that is taken with 409, keeping the first table', async () => {
    const taken = await upload(
      admin,
      'POST',
      '/decision-tables',
      { code: 'claim-routing', name: 'Another' },
      CLAIM_ROUTING_DMN,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('duplicate');
    expect(taken.body.message).toContain("Can't create or load decision table");
    const kept = await call(admin, '/decision-tables/claim-routing');
    expect(kept.body.decisionTable.name).toBe('Claim routing');
  });
});

describe('versions and evaluation', () => {
  it('makes version n+1 with each PUT and evaluates the latest on typed inputs', async () => {
    const created = await upload(
      admin,
      'POST',
      '/decision-tables',
      { code: 'typed', name: 'Typed' },
      typedDmn('FIRST'),
    );
    expect(created.status).toBe(201);
    const evaluate = (variables: Record<string, unknown>) =>
      call(admin, '/decision-tables/typed/evaluate', { body: { variables } });

    // A number over the threshold with a kind from the list; a path into a context.
    expect(
      (await evaluate({ claim: { amount: 1000.75 }, kind: 'home', urgent: false })).body.result,
    ).toEqual({ route: 'expert', limit: 2001.5 });
    // A boolean input; the number under the threshold.
    expect(
      (await evaluate({ claim: { amount: 10 }, kind: 'car', urgent: true })).body.result,
    ).toEqual({ route: 'urgent', limit: 0 });
    // No rule matches: null, not an error; a missing variable is FEEL's null.
    expect(
      (await evaluate({ claim: { amount: 10 }, kind: 'car', urgent: false })).body.result,
    ).toBeNull();
    expect((await evaluate({})).body.result).toBeNull();
    // Variables must be an object.
    const bad = await call(admin, '/decision-tables/typed/evaluate', { body: { variables: 'x' } });
    expect(bad.status).toBe(400);

    const put = await upload(admin, 'PUT', '/decision-tables/typed', {}, typedDmn('COLLECT'));
    expect(put.status).toBe(200);
    expect(put.body.decisionTable.version.versionNumber).toBe(2);
    expect(put.body.decisionTable.version.table.hitPolicy).toBe('COLLECT');
    // COLLECT answers every matching rule's outputs as lists, on the latest version.
    expect(
      (await evaluate({ claim: { amount: 5000 }, kind: 'car', urgent: true })).body.result,
    ).toEqual({ route: ['expert', 'urgent'], limit: [10000, 0] });
    const third = await upload(admin, 'PUT', '/decision-tables/typed', {}, typedDmn('FIRST'));
    expect(third.body.decisionTable.version.versionNumber).toBe(3);
    const versions = await call(admin, '/decision-tables/typed/versions');
    expect(versions.body.items.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([
      1, 2, 3,
    ]);
    expect(versions.body.items[2].createdBy).toEqual(expect.any(String));
    // The older versions stay as they were.
    const second = await call(admin, '/decision-tables/typed/versions/2');
    expect(second.body.decisionTableVersion.table.hitPolicy).toBe('COLLECT');
    expect((await call(admin, '/decision-tables/typed/versions/x')).body.message).toBe(
      "Can't load decision table version",
    );
    expect((await call(admin, '/decision-tables/nope')).body.message).toBe(
      "Can't create or load decision table",
    );
  });
});

describe("the editor's file", () => {
  it('reads back as the grid wrote it, with texts that need escaping', async () => {
    let grid = emptyTable('written', 'Written <&> "table"');
    grid = applyEdit(grid, { kind: 'input', index: 0, field: 'label', value: 'Kind "<&>"' });
    grid = applyEdit(grid, { kind: 'input', index: 0, field: 'expression', value: 'kind' });
    grid = applyEdit(grid, {
      kind: 'cell',
      rule: 0,
      side: 'input',
      column: 0,
      value: '"a&b", "<c>"',
    });
    grid = applyEdit(grid, {
      kind: 'cell',
      rule: 0,
      side: 'output',
      column: 0,
      value: '"x & \'y\'"',
    });
    grid = applyEdit(grid, { kind: 'addRule', at: 1 });
    grid = applyEdit(grid, { kind: 'cell', rule: 1, side: 'output', column: 0, value: '"other"' });
    grid = applyEdit(grid, { kind: 'hitPolicy', hitPolicy: 'COLLECT' });
    const created = await upload(
      admin,
      'POST',
      '/decision-tables',
      { code: 'written', name: 'Written' },
      writeDmn(grid),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.decisionTable.version.table).toEqual({
      decisionId: 'written',
      name: 'Written <&> "table"',
      hitPolicy: 'COLLECT',
      inputs: [{ label: 'Kind "<&>"', expression: 'kind' }],
      outputs: [{ name: 'output1' }],
      rules: [
        { inputEntries: ['"a&b", "<c>"'], outputEntries: ['"x & \'y\'"'] },
        { inputEntries: ['-'], outputEntries: ['"other"'] },
      ],
    });
    const tried = await call(admin, '/decision-tables/written/evaluate', {
      body: { variables: { kind: '<c>' } },
    });
    expect(tried.body.result).toEqual({ output1: ["x & 'y'", 'other'] });
    // A new rule's output left empty is refused with the cell named, not saved half-done.
    const empty = applyEdit(grid, { kind: 'addRule', at: 0 });
    const refused = await upload(admin, 'PUT', '/decision-tables/written', {}, writeDmn(empty));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^rule 1, output 1: /);
    expect(await versionsOf('written')).toBe(1);
  });
});

describe('workspaces and permissions', () => {
  it('keeps another workspace from reading or writing a table, while its own code is free there', async () => {
    expect((await call(nord, '/decision-tables')).body.totalItems).toBe(0);
    expect((await call(nord, '/decision-tables/claim-routing/versions')).status).toBe(404);
    expect((await call(nord, '/decision-tables/claim-routing/versions/1')).status).toBe(404);
    expect(
      (await call(nord, '/decision-tables/claim-routing/evaluate', { body: { variables: {} } }))
        .status,
    ).toBe(404);
    const before = await versionsOf('claim-routing');
    expect(
      (await upload(nord, 'PUT', '/decision-tables/claim-routing', {}, CLAIM_ROUTING_DMN)).status,
    ).toBe(404);
    expect(
      (
        await call(nord, '/decision-tables/claim-routing', {
          method: 'PATCH',
          body: { name: 'Mine' },
        })
      ).status,
    ).toBe(404);
    expect(await versionsOf('claim-routing')).toBe(before);
    expect((await call(admin, '/decision-tables/claim-routing')).body.decisionTable.name).toBe(
      'Claim routing',
    );
    // Codes are per workspace: Nordlicht may have a claim-routing of its own.
    const own = await upload(
      nord,
      'POST',
      '/decision-tables',
      { code: 'claim-routing', name: 'Nord routing' },
      CLAIM_ROUTING_DMN,
    );
    expect(own.status).toBe(201);
    expect((await call(admin, '/decision-tables/claim-routing')).body.decisionTable.name).toBe(
      'Claim routing',
    );
  });

  it('answers 403 without the workflows rights, and lets a reader read and try but not write', async () => {
    for (const route of [
      '/decision-tables',
      '/decision-tables/claim-routing',
      '/decision-tables/claim-routing/versions',
    ])
      expect((await call(care, route)).status, route).toBe(403);
    expect(
      (await call(care, '/decision-tables/claim-routing/evaluate', { body: { variables: {} } }))
        .status,
    ).toBe(403);
    expect(
      (await upload(care, 'POST', '/decision-tables', { code: 'c', name: 'C' }, CLAIM_ROUTING_DMN))
        .status,
    ).toBe(403);

    expect((await call(viewer, '/decision-tables/claim-routing')).status).toBe(200);
    expect(
      (
        await call(viewer, '/decision-tables/claim-routing/evaluate', {
          body: { variables: { amount: 5 } },
        })
      ).body.result,
    ).toEqual({ route: 'fast-track' });
    const before = await versionsOf('claim-routing');
    expect(
      (await upload(viewer, 'PUT', '/decision-tables/claim-routing', {}, CLAIM_ROUTING_DMN)).status,
    ).toBe(403);
    expect(
      (
        await call(viewer, '/decision-tables/claim-routing', {
          method: 'PATCH',
          body: { name: 'V' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await upload(
          viewer,
          'POST',
          '/decision-tables',
          { code: 'v', name: 'V' },
          CLAIM_ROUTING_DMN,
        )
      ).status,
    ).toBe(403);
    expect(await versionsOf('claim-routing')).toBe(before);
  });
});
