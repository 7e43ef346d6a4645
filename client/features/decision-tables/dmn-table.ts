import type { DecisionLogic } from '#client/api/decision-tables-client.ts';

/**
 * The decision table as the grid edits it, and the DMN 1.3 file written from it. The server reads
 * the file back (server/sandbox/services/processmanager/dmn.ts) and is the judge of what it holds;
 * this module only writes well-formed XML with every text escaped. A grid edits one decision
 * table: the file written holds that decision alone (the ids and names of the definitions and
 * the decision kept, so that a workflow's rule task that names the table still finds it).
 */

/** The hit policies the sandbox evaluates (dmn.ts): the first match, the only match, all. */
export const HIT_POLICIES = ['FIRST', 'UNIQUE', 'COLLECT'] as const;
export type HitPolicy = (typeof HIT_POLICIES)[number];

/** The FEEL types a column may declare; '' for none. The try panel types its inputs by them. */
export const TYPE_REFS = ['', 'number', 'string', 'boolean'] as const;
export type TypeRef = (typeof TYPE_REFS)[number];

export interface InputColumn {
  /** Stable through reorders: React's key and the XML id. */
  key: string;
  label: string;
  /** A FEEL expression over the variables, usually a variable's name. */
  expression: string;
  typeRef: TypeRef;
}

export interface OutputColumn {
  key: string;
  name: string;
  typeRef: TypeRef;
}

export interface RuleRow {
  key: string;
  /** FEEL unary tests, one per input column ('-' or '' matches anything). */
  inputEntries: string[];
  /** FEEL expressions, one per output column. */
  outputEntries: string[];
}

export interface EditableTable {
  definitionsId: string;
  decisionId: string;
  name: string;
  hitPolicy: HitPolicy;
  inputs: InputColumn[];
  outputs: OutputColumn[];
  rules: RuleRow[];
}

let counter = 0;
/** A key no column or rule of this page has yet (also a valid XML id). */
export const newKey = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36)}${++counter}`;

const isHitPolicy = (value: string): value is HitPolicy =>
  (HIT_POLICIES as readonly string[]).includes(value);
const asTypeRef = (value: string | null | undefined): TypeRef =>
  (TYPE_REFS as readonly string[]).includes(value ?? '') ? (value as TypeRef) : '';

/** A decision id from a table's code: an XML name (letters, digits, `_`, `-`, `.`). */
export function decisionIdOf(code: string): string {
  const id = code.replace(/[^\w.-]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `d_${id}`;
}

/** The start of a new table: one input, one output, one rule that matches anything. */
export function emptyTable(code: string, name: string): EditableTable {
  const id = decisionIdOf(code || 'decision');
  return {
    definitionsId: `${id}_definitions`,
    decisionId: id,
    name,
    hitPolicy: 'FIRST',
    inputs: [{ key: newKey('input'), label: '', expression: 'input1', typeRef: 'string' }],
    outputs: [{ key: newKey('output'), name: 'output1', typeRef: 'string' }],
    rules: [{ key: newKey('rule'), inputEntries: ['-'], outputEntries: ['""'] }],
  };
}

/**
 * The grid of a version as the server read it, with the column types the file declares
 * (`typeRefs`, read by {@link readTypeRefs}; none where the file gives none).
 */
export function tableFromLogic(
  logic: DecisionLogic,
  typeRefs: { inputs: (string | null)[]; outputs: (string | null)[]; definitionsId: string | null },
): EditableTable {
  return {
    definitionsId: typeRefs.definitionsId ?? `${logic.decisionId}_definitions`,
    decisionId: logic.decisionId,
    name: logic.name ?? '',
    // A policy the sandbox does not evaluate (ANY, PRIORITY, ...) is shown as FIRST, which is how
    // the sandbox treats every policy but COLLECT; a save then writes what is evaluated.
    hitPolicy: isHitPolicy(logic.hitPolicy) ? logic.hitPolicy : 'FIRST',
    inputs: logic.inputs.map((input, i) => ({
      key: newKey('input'),
      label: input.label ?? '',
      expression: input.expression,
      typeRef: asTypeRef(typeRefs.inputs[i]),
    })),
    outputs: logic.outputs.map((output, i) => ({
      key: newKey('output'),
      name: output.name,
      typeRef: asTypeRef(typeRefs.outputs[i]),
    })),
    rules: logic.rules.map((rule) => ({
      key: newKey('rule'),
      inputEntries: [...rule.inputEntries],
      outputEntries: [...rule.outputEntries],
    })),
  };
}

/**
 * The `typeRef`s of the first decision table's input expressions and outputs, and the
 * definitions' id, read with the browser's XML parser (the server's answer does not carry them).
 * Without a parser (node) or on a file it cannot read: none.
 */
export function readTypeRefs(xml: string): {
  inputs: (string | null)[];
  outputs: (string | null)[];
  definitionsId: string | null;
} {
  const none = { inputs: [], outputs: [], definitionsId: null };
  if (typeof DOMParser === 'undefined') return none;
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return none;
  const table = doc.getElementsByTagNameNS('*', 'decisionTable')[0];
  if (!table) return none;
  const children = (name: string) =>
    Array.from(table.children).filter((child) => child.localName === name);
  return {
    inputs: children('input').map(
      (input) =>
        Array.from(input.children)
          .find((child) => child.localName === 'inputExpression')
          ?.getAttribute('typeRef') ?? null,
    ),
    outputs: children('output').map((output) => output.getAttribute('typeRef')),
    definitionsId: doc.documentElement.getAttribute('id'),
  };
}

// ---- edits: each answers a new table, the old one untouched (the machine keeps both) ----------

const moved = <T>(list: readonly T[], from: number, to: number): T[] => {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
};
const without = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);
const inserted = <T>(list: readonly T[], index: number, item: T): T[] => [
  ...list.slice(0, index),
  item,
  ...list.slice(index),
];

export type TableEdit =
  | { kind: 'hitPolicy'; hitPolicy: HitPolicy }
  | { kind: 'input'; index: number; field: 'label' | 'expression'; value: string }
  | { kind: 'inputType'; index: number; typeRef: TypeRef }
  | { kind: 'output'; index: number; value: string }
  | { kind: 'cell'; rule: number; side: 'input' | 'output'; column: number; value: string }
  | { kind: 'addRule'; at: number }
  | { kind: 'removeRule'; index: number }
  | { kind: 'moveRule'; index: number; to: number }
  | { kind: 'addInput'; at: number }
  | { kind: 'removeInput'; index: number }
  | { kind: 'moveInput'; index: number; to: number }
  | { kind: 'addOutput'; at: number }
  | { kind: 'removeOutput'; index: number }
  | { kind: 'moveOutput'; index: number; to: number };

/** The table after one edit. A removal that would leave no column of a side or no rule does nothing. */
export function applyEdit(table: EditableTable, edit: TableEdit): EditableTable {
  const rules = (map: (rule: RuleRow) => RuleRow) => table.rules.map(map);
  switch (edit.kind) {
    case 'hitPolicy':
      return { ...table, hitPolicy: edit.hitPolicy };
    case 'input':
      return {
        ...table,
        inputs: table.inputs.map((c, i) =>
          i === edit.index ? { ...c, [edit.field]: edit.value } : c,
        ),
      };
    case 'inputType':
      return {
        ...table,
        inputs: table.inputs.map((c, i) =>
          i === edit.index ? { ...c, typeRef: edit.typeRef } : c,
        ),
      };
    case 'output':
      return {
        ...table,
        outputs: table.outputs.map((c, i) => (i === edit.index ? { ...c, name: edit.value } : c)),
      };
    case 'cell':
      return {
        ...table,
        rules: table.rules.map((rule, r) => {
          if (r !== edit.rule) return rule;
          const key = edit.side === 'input' ? 'inputEntries' : 'outputEntries';
          return {
            ...rule,
            [key]: rule[key].map((v, c) => (c === edit.column ? edit.value : v)),
          };
        }),
      };
    case 'addRule':
      return {
        ...table,
        rules: inserted(table.rules, edit.at, {
          key: newKey('rule'),
          inputEntries: table.inputs.map(() => '-'),
          outputEntries: table.outputs.map(() => ''),
        }),
      };
    case 'removeRule':
      return table.rules.length > 1 ? { ...table, rules: without(table.rules, edit.index) } : table;
    case 'moveRule':
      return { ...table, rules: moved(table.rules, edit.index, edit.to) };
    case 'addInput':
      return {
        ...table,
        inputs: inserted(table.inputs, edit.at, {
          key: newKey('input'),
          label: '',
          expression: '',
          typeRef: '',
        }),
        rules: rules((r) => ({ ...r, inputEntries: inserted(r.inputEntries, edit.at, '-') })),
      };
    case 'removeInput':
      if (table.inputs.length <= 1) return table;
      return {
        ...table,
        inputs: without(table.inputs, edit.index),
        rules: rules((r) => ({ ...r, inputEntries: without(r.inputEntries, edit.index) })),
      };
    case 'moveInput':
      return {
        ...table,
        inputs: moved(table.inputs, edit.index, edit.to),
        rules: rules((r) => ({ ...r, inputEntries: moved(r.inputEntries, edit.index, edit.to) })),
      };
    case 'addOutput':
      return {
        ...table,
        outputs: inserted(table.outputs, edit.at, { key: newKey('output'), name: '', typeRef: '' }),
        rules: rules((r) => ({ ...r, outputEntries: inserted(r.outputEntries, edit.at, '') })),
      };
    case 'removeOutput':
      if (table.outputs.length <= 1) return table;
      return {
        ...table,
        outputs: without(table.outputs, edit.index),
        rules: rules((r) => ({ ...r, outputEntries: without(r.outputEntries, edit.index) })),
      };
    case 'moveOutput':
      return {
        ...table,
        outputs: moved(table.outputs, edit.index, edit.to),
        rules: rules((r) => ({ ...r, outputEntries: moved(r.outputEntries, edit.index, edit.to) })),
      };
  }
}

// ---- the DMN file ---------------------------------------------------------------------------

/** Text and attribute values escaped for XML; characters XML 1.0 cannot hold are dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const DMN_NS = 'https://www.omg.org/spec/DMN/20191111/MODEL/';

const attrs = (values: Record<string, string>) =>
  Object.entries(values)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
const text = (value: string) => `<text>${escapeXml(value)}</text>`;

/** The DMN 1.3 file of the table: what a save uploads as the next version. */
export function writeDmn(table: EditableTable): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<definitions xmlns="${DMN_NS}"${attrs({ id: table.definitionsId, name: table.name, namespace: 'urn:backoffice:decision-tables' })}>`,
    `  <decision${attrs({ id: table.decisionId, name: table.name })}>`,
    `    <decisionTable${attrs({ id: `${table.decisionId}_table`, hitPolicy: table.hitPolicy })}>`,
    ...table.inputs.map(
      (input) =>
        `      <input${attrs({ id: input.key, label: input.label })}><inputExpression${attrs({ id: `${input.key}_expression`, typeRef: input.typeRef })}>${text(input.expression)}</inputExpression></input>`,
    ),
    ...table.outputs.map(
      (output) =>
        `      <output${attrs({ id: output.key, name: output.name, typeRef: output.typeRef })}/>`,
    ),
    ...table.rules.map((rule) =>
      [
        `      <rule${attrs({ id: rule.key })}>`,
        ...rule.inputEntries.map(
          (entry, i) => `        <inputEntry id="${rule.key}_i${i}">${text(entry)}</inputEntry>`,
        ),
        ...rule.outputEntries.map(
          (entry, i) => `        <outputEntry id="${rule.key}_o${i}">${text(entry)}</outputEntry>`,
        ),
        '      </rule>',
      ].join('\n'),
    ),
    '    </decisionTable>',
    '  </decision>',
    '</definitions>',
    '',
  ];
  return lines.join('\n');
}

/** Two tables show the same thing (keys aside): whether the grid has unsaved changes. */
export function sameTable(a: EditableTable, b: EditableTable): boolean {
  const strip = (t: EditableTable) => ({
    ...t,
    inputs: t.inputs.map(({ key: _key, ...rest }) => rest),
    outputs: t.outputs.map(({ key: _key, ...rest }) => rest),
    rules: t.rules.map(({ key: _key, ...rest }) => rest),
  });
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}
