import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  decisionIdOf,
  emptyTable,
  escapeXml,
  sameTable,
  tableFromLogic,
  writeDmn,
  type EditableTable,
} from './dmn-table.ts';
import { parseTryValue, variablePath, variablesOf } from './try-values.ts';

const routing = (): EditableTable =>
  tableFromLogic(
    {
      decisionId: 'claim_routing',
      name: 'Claim routing',
      hitPolicy: 'FIRST',
      inputs: [{ label: 'Amount', expression: 'amount' }],
      outputs: [{ name: 'route' }],
      rules: [
        { inputEntries: ['<= 0'], outputEntries: ['"manual"'] },
        { inputEntries: ['<= 100000'], outputEntries: ['"fast-track"'] },
      ],
    },
    { inputs: ['number'], outputs: ['string'], definitionsId: 'defs' },
  );

const entries = (table: EditableTable) => table.rules.map((r) => [r.inputEntries, r.outputEntries]);

describe('the editable table', () => {
  it('reads a version with its types and starts empty with one input, output and rule', () => {
    const table = routing();
    expect(table.inputs[0]).toMatchObject({
      label: 'Amount',
      expression: 'amount',
      typeRef: 'number',
    });
    expect(table.definitionsId).toBe('defs');
    const empty = emptyTable('new table', 'New');
    expect([empty.inputs.length, empty.outputs.length, empty.rules.length]).toEqual([1, 1, 1]);
    expect(empty.decisionId).toBe('new_table');
    expect(decisionIdOf('1st')).toBe('d_1st');
    // A policy the sandbox does not evaluate is shown as the one it applies.
    expect(tableFromLogic({ ...logicOf(routing()), hitPolicy: 'ANY' }, noTypes).hitPolicy).toBe(
      'FIRST',
    );
  });

  it('adds, moves and removes rules and columns, keeping every rule as wide as the columns', () => {
    let table = routing();
    table = applyEdit(table, { kind: 'addInput', at: 0 });
    expect(entries(table)).toEqual([
      [['-', '<= 0'], ['"manual"']],
      [['-', '<= 100000'], ['"fast-track"']],
    ]);
    table = applyEdit(table, { kind: 'moveInput', index: 0, to: 1 });
    expect(table.inputs.map((i) => i.expression)).toEqual(['amount', '']);
    expect(entries(table)[0]![0]).toEqual(['<= 0', '-']);
    table = applyEdit(table, { kind: 'removeInput', index: 1 });
    table = applyEdit(table, { kind: 'addOutput', at: 1 });
    table = applyEdit(table, { kind: 'cell', rule: 1, side: 'output', column: 1, value: '3' });
    expect(entries(table)[1]).toEqual([['<= 100000'], ['"fast-track"', '3']]);
    table = applyEdit(table, { kind: 'moveOutput', index: 1, to: 0 });
    expect(entries(table)[1]).toEqual([['<= 100000'], ['3', '"fast-track"']]);
    table = applyEdit(table, { kind: 'removeOutput', index: 0 });
    table = applyEdit(table, { kind: 'addRule', at: 1 });
    expect(entries(table)[1]).toEqual([['-'], ['']]);
    table = applyEdit(table, { kind: 'moveRule', index: 2, to: 0 });
    expect(entries(table)[0]).toEqual([['<= 100000'], ['"fast-track"']]);
    table = applyEdit(table, { kind: 'removeRule', index: 2 });
    expect(entries(table)).toEqual([
      [['<= 100000'], ['"fast-track"']],
      [['<= 0'], ['"manual"']],
    ]);
    // The last output, input and rule stay: a table needs each.
    const single = emptyTable('x', 'X');
    for (const kind of ['removeRule', 'removeInput', 'removeOutput'] as const)
      expect(applyEdit(single, { kind, index: 0 })).toBe(single);
    // A move past either end changes nothing.
    expect(entries(applyEdit(table, { kind: 'moveRule', index: 0, to: -1 }))).toEqual(
      entries(table),
    );
  });

  it('tells a change from the loaded table, and an undone change from none', () => {
    const table = routing();
    const changed = applyEdit(table, {
      kind: 'cell',
      rule: 0,
      side: 'input',
      column: 0,
      value: '< 1',
    });
    expect(sameTable(table, changed)).toBe(false);
    const undone = applyEdit(changed, {
      kind: 'cell',
      rule: 0,
      side: 'input',
      column: 0,
      value: '<= 0',
    });
    expect(sameTable(table, undone)).toBe(true);
  });
});

const noTypes = { inputs: [], outputs: [], definitionsId: null };
function logicOf(table: EditableTable) {
  return {
    decisionId: table.decisionId,
    name: table.name,
    hitPolicy: table.hitPolicy,
    inputs: table.inputs.map((i) => ({ label: i.label, expression: i.expression })),
    outputs: table.outputs.map((o) => ({ name: o.name })),
    rules: table.rules.map((r) => ({
      inputEntries: r.inputEntries,
      outputEntries: r.outputEntries,
    })),
  };
}

describe('the DMN file', () => {
  it('escapes every text and attribute, and drops what XML cannot hold', () => {
    expect(escapeXml(`a < b & "c" > 'd'\u0001`)).toBe(
      'a &lt; b &amp; &quot;c&quot; &gt; &apos;d&apos;',
    );
    let table = applyEdit(routing(), {
      kind: 'input',
      index: 0,
      field: 'label',
      value: 'Amount "<€>"',
    });
    table = applyEdit(table, {
      kind: 'cell',
      rule: 0,
      side: 'output',
      column: 0,
      value: '"a & b"',
    });
    const xml = writeDmn(table);
    expect(xml).toContain('label="Amount &quot;&lt;€&gt;&quot;"');
    expect(xml).toContain('<text>&quot;a &amp; b&quot;</text>');
    expect(xml).toContain('<decisionTable id="claim_routing_table" hitPolicy="FIRST">');
    expect(xml).toContain('typeRef="number"');
    // One entry per column in each rule, in the columns' order.
    expect(xml.match(/<inputEntry /g)).toHaveLength(2);
    expect(xml.match(/<outputEntry /g)).toHaveLength(2);
  });
});

describe('the try panel values', () => {
  it('reads numbers as the language writes them, booleans and text; empty is no value', () => {
    expect(parseTryValue('60 000', 'number', 'pl')).toEqual({ ok: true, value: 60000 });
    expect(parseTryValue('1.234,5', 'number', 'de')).toEqual({ ok: true, value: 1234.5 });
    expect(parseTryValue('1,234.5', 'number', 'en')).toEqual({ ok: true, value: 1234.5 });
    expect(parseTryValue('abc', 'number', 'en')).toEqual({ ok: false });
    expect(parseTryValue('true', 'boolean', 'en')).toEqual({ ok: true, value: true });
    expect(parseTryValue('', 'string', 'en')).toEqual({ ok: true, value: null });
    expect(parseTryValue(' car ', 'string', 'en')).toEqual({ ok: true, value: ' car ' });
  });

  it('puts each value at the variable its input expression names', () => {
    expect(variablePath('claim.amount')).toEqual(['claim', 'amount']);
    expect(variablePath('amount * 2')).toBeNull();
    expect(
      variablesOf([
        { path: ['claim', 'amount'], value: 5 },
        { path: ['claim', 'kind'], value: 'car' },
        { path: ['urgent'], value: true },
      ]),
    ).toEqual({ claim: { amount: 5, kind: 'car' }, urgent: true });
  });
});
