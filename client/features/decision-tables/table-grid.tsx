import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#client/ui/button.tsx';
import {
  HIT_POLICIES,
  TYPE_REFS,
  applyEdit,
  type EditableTable,
  type HitPolicy,
  type TableEdit,
  type TypeRef,
} from './dmn-table.ts';

const cellClass =
  'w-full min-w-28 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900 focus:border-blue-700 read-only:bg-slate-50';
const headClass =
  'w-full min-w-28 rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus:border-blue-700 read-only:bg-slate-50';
const iconButton = 'px-2 py-1 text-xs';

/** The name a column goes by in the labels of its cells and buttons. */
export function inputName(table: EditableTable, index: number, fallback: string): string {
  const input = table.inputs[index]!;
  return input.label.trim() || input.expression.trim() || fallback;
}

/**
 * The grid of a decision table: the hit policy, the input columns (label, FEEL expression,
 * type), the output columns (name), and one row per rule with a FEEL unary test per input and an
 * output expression per output. Every cell is a labelled input ("Rule 2, Amount"); rules and
 * columns are added, removed and moved with buttons, and from a rule's cell with the keyboard:
 * Alt+↑/↓ moves the rule, Alt+Enter adds one below, Alt+Backspace removes it; ↑/↓ alone go to
 * the same cell of the rule above or below. `onChange` gets the whole table after each change.
 */
export function TableGrid({
  table,
  readOnly,
  onChange,
}: {
  table: EditableTable;
  readOnly: boolean;
  onChange: (table: EditableTable) => void;
}) {
  const { t } = useTranslation('decision_tables');
  const grid = useRef<HTMLTableElement>(null);
  const edit = (change: TableEdit) => onChange(applyEdit(table, change));
  const inputLabel = (i: number) => inputName(table, i, t('grid.input_n', { n: i + 1 }));
  const outputLabel = (i: number) =>
    table.outputs[i]!.name.trim() || t('grid.output_n', { n: i + 1 });

  // After a rule moved or was added, the cell the user was in follows it.
  const focusCell = (rule: number, cell: string) =>
    requestAnimationFrame(() =>
      grid.current?.querySelector<HTMLInputElement>(`[data-cell="${rule}:${cell}"]`)?.focus(),
    );

  const onCellKey = (event: KeyboardEvent<HTMLInputElement>, rule: number, cell: string) => {
    if (readOnly) return;
    const last = table.rules.length - 1;
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      const to = event.key === 'ArrowUp' ? rule - 1 : rule + 1;
      if (to < 0 || to > last) return;
      event.preventDefault();
      edit({ kind: 'moveRule', index: rule, to });
      focusCell(to, cell);
    } else if (event.altKey && event.key === 'Enter') {
      event.preventDefault();
      edit({ kind: 'addRule', at: rule + 1 });
      focusCell(rule + 1, cell);
    } else if (event.altKey && (event.key === 'Backspace' || event.key === 'Delete')) {
      if (table.rules.length <= 1) return;
      event.preventDefault();
      edit({ kind: 'removeRule', index: rule });
      focusCell(Math.min(rule, last - 1), cell);
    } else if (!event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      const to = event.key === 'ArrowUp' ? rule - 1 : rule + 1;
      if (to < 0 || to > last) return;
      event.preventDefault();
      focusCell(to, cell);
    }
  };

  const moveButtons = (side: 'input' | 'output', index: number, count: number, name: string) => {
    if (readOnly) return null;
    const move = (to: number): TableEdit =>
      side === 'input' ? { kind: 'moveInput', index, to } : { kind: 'moveOutput', index, to };
    const remove: TableEdit =
      side === 'input' ? { kind: 'removeInput', index } : { kind: 'removeOutput', index };
    return (
      <div className="flex flex-wrap gap-1">
        <Button
          variant="ghost"
          className={iconButton}
          aria-label={t(`grid.move_${side}_left`, { name })}
          disabled={index === 0}
          onClick={() => edit(move(index - 1))}
        >
          ←
        </Button>
        <Button
          variant="ghost"
          className={iconButton}
          aria-label={t(`grid.move_${side}_right`, { name })}
          disabled={index === count - 1}
          onClick={() => edit(move(index + 1))}
        >
          →
        </Button>
        <Button
          variant="ghost"
          className={iconButton}
          aria-label={t(`grid.remove_${side}`, { name })}
          disabled={count <= 1}
          onClick={() => edit(remove)}
        >
          ✕
        </Button>
      </div>
    );
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {t('grid.hit_policy')}
          <select
            className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
            value={table.hitPolicy}
            disabled={readOnly}
            onChange={(event) =>
              edit({ kind: 'hitPolicy', hitPolicy: event.target.value as HitPolicy })
            }
          >
            {HIT_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {t(`grid.hit_policies.${policy.toLowerCase() as Lowercase<HitPolicy>}`)}
              </option>
            ))}
          </select>
        </label>
        {readOnly ? null : (
          <>
            <Button
              variant="secondary"
              onClick={() => edit({ kind: 'addInput', at: table.inputs.length })}
            >
              {t('grid.add_input')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => edit({ kind: 'addOutput', at: table.outputs.length })}
            >
              {t('grid.add_output')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => edit({ kind: 'addRule', at: table.rules.length })}
            >
              {t('grid.add_rule')}
            </Button>
          </>
        )}
      </div>
      {readOnly ? null : <p className="text-sm text-slate-700">{t('grid.keyboard_hint')}</p>}
      <div className="overflow-x-auto rounded-md border border-slate-300">
        <table ref={grid} className="min-w-full border-collapse text-sm">
          <caption className="sr-only">{t('grid.caption')}</caption>
          <thead className="bg-slate-100 align-top">
            <tr>
              <th scope="col" className="px-2 py-2 text-left font-semibold text-slate-800">
                {t('grid.rule')}
              </th>
              {table.inputs.map((input, i) => (
                <th
                  key={input.key}
                  scope="col"
                  className="border-l border-slate-300 px-2 py-2 text-left font-normal"
                >
                  <span className="mb-1 block text-xs font-semibold uppercase text-slate-700">
                    {t('grid.input_n', { n: i + 1 })}
                  </span>
                  <div className="flex flex-col gap-1">
                    <input
                      className={headClass}
                      aria-label={t('grid.input_label', { n: i + 1 })}
                      placeholder={t('grid.label_placeholder')}
                      value={input.label}
                      readOnly={readOnly}
                      onChange={(event) =>
                        edit({ kind: 'input', index: i, field: 'label', value: event.target.value })
                      }
                    />
                    <input
                      className={cellClass}
                      aria-label={t('grid.input_expression', { n: i + 1 })}
                      placeholder={t('grid.expression_placeholder')}
                      value={input.expression}
                      readOnly={readOnly}
                      onChange={(event) =>
                        edit({
                          kind: 'input',
                          index: i,
                          field: 'expression',
                          value: event.target.value,
                        })
                      }
                    />
                    <select
                      className={headClass}
                      aria-label={t('grid.input_type', { n: i + 1 })}
                      value={input.typeRef}
                      disabled={readOnly}
                      onChange={(event) =>
                        edit({
                          kind: 'inputType',
                          index: i,
                          typeRef: event.target.value as TypeRef,
                        })
                      }
                    >
                      {TYPE_REFS.map((type) => (
                        <option key={type} value={type}>
                          {t(`types.${type || 'none'}`)}
                        </option>
                      ))}
                    </select>
                    {moveButtons('input', i, table.inputs.length, inputLabel(i))}
                  </div>
                </th>
              ))}
              {table.outputs.map((output, i) => (
                <th
                  key={output.key}
                  scope="col"
                  className="border-l-2 border-slate-400 px-2 py-2 text-left font-normal"
                >
                  <span className="mb-1 block text-xs font-semibold uppercase text-slate-700">
                    {t('grid.output_n', { n: i + 1 })}
                  </span>
                  <div className="flex flex-col gap-1">
                    <input
                      className={headClass}
                      aria-label={t('grid.output_name', { n: i + 1 })}
                      value={output.name}
                      readOnly={readOnly}
                      onChange={(event) =>
                        edit({ kind: 'output', index: i, value: event.target.value })
                      }
                    />
                    {moveButtons('output', i, table.outputs.length, outputLabel(i))}
                  </div>
                </th>
              ))}
              {readOnly ? null : (
                <th scope="col" className="px-2 py-2 text-left font-semibold text-slate-800">
                  {t('grid.actions')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {table.rules.map((rule, r) => (
              <tr key={rule.key} className="border-t border-slate-300 align-top">
                <th scope="row" className="px-2 py-2 text-left font-semibold text-slate-800">
                  {r + 1}
                </th>
                {rule.inputEntries.map((entry, c) => (
                  <td
                    key={table.inputs[c]?.key ?? c}
                    className="border-l border-slate-300 px-2 py-1"
                  >
                    <input
                      className={cellClass}
                      data-cell={`${r}:i${c}`}
                      aria-label={t('grid.cell', { n: r + 1, column: inputLabel(c) })}
                      value={entry}
                      readOnly={readOnly}
                      onKeyDown={(event) => onCellKey(event, r, `i${c}`)}
                      onChange={(event) =>
                        edit({
                          kind: 'cell',
                          rule: r,
                          side: 'input',
                          column: c,
                          value: event.target.value,
                        })
                      }
                    />
                  </td>
                ))}
                {rule.outputEntries.map((entry, c) => (
                  <td
                    key={table.outputs[c]?.key ?? c}
                    className="border-l-2 border-slate-400 px-2 py-1"
                  >
                    <input
                      className={cellClass}
                      data-cell={`${r}:o${c}`}
                      aria-label={t('grid.cell', { n: r + 1, column: outputLabel(c) })}
                      value={entry}
                      readOnly={readOnly}
                      onKeyDown={(event) => onCellKey(event, r, `o${c}`)}
                      onChange={(event) =>
                        edit({
                          kind: 'cell',
                          rule: r,
                          side: 'output',
                          column: c,
                          value: event.target.value,
                        })
                      }
                    />
                  </td>
                ))}
                {readOnly ? null : (
                  <td className="px-2 py-1">
                    <div className="flex flex-wrap gap-1">
                      <Button
                        variant="ghost"
                        className={iconButton}
                        aria-label={t('grid.move_rule_up', { n: r + 1 })}
                        disabled={r === 0}
                        onClick={() => edit({ kind: 'moveRule', index: r, to: r - 1 })}
                      >
                        ↑
                      </Button>
                      <Button
                        variant="ghost"
                        className={iconButton}
                        aria-label={t('grid.move_rule_down', { n: r + 1 })}
                        disabled={r === table.rules.length - 1}
                        onClick={() => edit({ kind: 'moveRule', index: r, to: r + 1 })}
                      >
                        ↓
                      </Button>
                      <Button
                        variant="ghost"
                        className={iconButton}
                        aria-label={t('grid.add_rule_below', { n: r + 1 })}
                        onClick={() => edit({ kind: 'addRule', at: r + 1 })}
                      >
                        +
                      </Button>
                      <Button
                        variant="ghost"
                        className={iconButton}
                        aria-label={t('grid.remove_rule', { n: r + 1 })}
                        disabled={table.rules.length <= 1}
                        onClick={() => edit({ kind: 'removeRule', index: r })}
                      >
                        ✕
                      </Button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
