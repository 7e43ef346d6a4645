import { DmnModdle } from 'dmn-moddle';
import { SyntaxError as FeelSyntaxError, unaryTest, evaluate } from 'feelin';
import { HttpError } from '#server/sandbox/platform/errors.ts';

/**
 * Decision tables: DMN 1.3 read with dmn-moddle, rules evaluated with feelin (FEEL). A table's
 * inputs are FEEL expressions over the variables (usually a name), each rule's input entries are
 * unary tests, the outputs FEEL expressions. Hit policies FIRST and UNIQUE take the first rule
 * that matches (a UNIQUE table whose rules overlap is the modeller's error, not checked here);
 * COLLECT answers every match's outputs as lists.
 */

export interface DecisionTable {
  decisionId: string;
  name: string | null;
  hitPolicy: string;
  inputs: { label: string | null; expression: string }[];
  outputs: { name: string }[];
  rules: { inputEntries: string[]; outputEntries: string[] }[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a moddle tree
type El = any;

const invalidDmn = (message: string) => new HttpError(400, 'invalid_dmn', message);

/** Parses a DMN file to its first decision table; 400 `invalid_dmn` when it is none. */
export async function parseDmn(xml: string): Promise<DecisionTable> {
  let root: El;
  let warnings: { message: string }[];
  try {
    const result = await new DmnModdle().fromXML(xml);
    root = result.rootElement;
    warnings = result.warnings as { message: string }[];
  } catch (err) {
    throw invalidDmn(`the file is not DMN XML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (root?.$type !== 'dmn:Definitions') throw invalidDmn('the file holds no DMN definitions');
  if (warnings.length) throw invalidDmn(`the DMN is not valid: ${warnings[0]!.message}`);
  const decision = (root.drgElement ?? []).find(
    (el: El) => el.$type === 'dmn:Decision' && el.decisionLogic?.$type === 'dmn:DecisionTable',
  );
  if (!decision) throw invalidDmn('the DMN has no decision table');
  const table = decision.decisionLogic;
  const parsed: DecisionTable = {
    decisionId: decision.id,
    name: decision.name ?? null,
    hitPolicy: table.hitPolicy ?? 'UNIQUE',
    inputs: (table.input ?? []).map((i: El) => ({
      label: i.label ?? null,
      expression: i.inputExpression?.text ?? '',
    })),
    outputs: (table.output ?? []).map((o: El) => ({ name: o.name ?? o.label ?? '' })),
    rules: (table.rule ?? []).map((r: El) => ({
      inputEntries: (r.inputEntry ?? []).map((e: El) => e.text ?? '-'),
      outputEntries: (r.outputEntry ?? []).map((e: El) => e.text ?? ''),
    })),
  };
  if (!parsed.outputs.length || parsed.outputs.some((o) => !o.name))
    throw invalidDmn('every output of the decision table needs a name');
  for (const [i, rule] of parsed.rules.entries()) {
    if (rule.inputEntries.length !== parsed.inputs.length)
      throw invalidDmn(`rule ${i + 1} has ${rule.inputEntries.length} input entries`);
    if (rule.outputEntries.length !== parsed.outputs.length)
      throw invalidDmn(`rule ${i + 1} has ${rule.outputEntries.length} output entries`);
  }
  checkFeel(parsed);
  return parsed;
}

/**
 * FEEL that does not parse would fail only when the table is evaluated (a workflow's rule task
 * failing long after the save): refused with the file, naming the cell. Only syntax is checked
 * here; what a valid expression yields depends on the variables of each evaluation.
 */
function checkFeel(table: DecisionTable): void {
  const check = (where: string, text: string, run: () => unknown) => {
    try {
      run();
    } catch (err) {
      if (err instanceof FeelSyntaxError)
        throw invalidDmn(
          `${where}: the FEEL "${text}" does not parse (${err.message.split('\n')[0]})`,
        );
    }
  };
  for (const [i, input] of table.inputs.entries())
    check(`input ${i + 1}`, input.expression, () => evaluate(input.expression, {}));
  for (const [r, rule] of table.rules.entries()) {
    for (const [c, entry] of rule.inputEntries.entries()) {
      const text = entry.trim();
      if (text === '' || text === '-') continue;
      check(`rule ${r + 1}, input ${c + 1}`, text, () => unaryTest(text, { '?': null }));
    }
    for (const [c, entry] of rule.outputEntries.entries())
      check(`rule ${r + 1}, output ${c + 1}`, entry, () => evaluate(entry, {}));
  }
}

/** The outputs of the matching rule(s), or null when no rule matches (FIRST, UNIQUE). */
export function evaluateTable(
  table: DecisionTable,
  variables: Record<string, unknown>,
): Record<string, unknown> | null {
  const values = table.inputs.map((input) => evaluate(input.expression, variables).value);
  const matches = table.rules.filter((rule) =>
    rule.inputEntries.every((entry, i) => {
      const text = entry.trim();
      if (text === '' || text === '-') return true;
      return unaryTest(text, { ...variables, '?': values[i] }).value === true;
    }),
  );
  const outputsOf = (rule: (typeof table.rules)[number]) =>
    Object.fromEntries(
      table.outputs.map((o, i) => [
        o.name,
        evaluate(rule.outputEntries[i] ?? 'null', variables).value,
      ]),
    );
  if (table.hitPolicy === 'COLLECT') {
    const all = matches.map(outputsOf);
    return Object.fromEntries(table.outputs.map((o) => [o.name, all.map((m) => m[o.name])]));
  }
  return matches[0] ? outputsOf(matches[0]) : null;
}
