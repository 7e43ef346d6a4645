import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { evaluateDecisionTable } from '#client/api/decision-tables-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import type { EditableTable } from './dmn-table.ts';
import { inputName } from './table-grid.tsx';
import {
  TRY_TYPES,
  parseTryValue,
  tryTypeOf,
  variablePath,
  variablesOf,
  type TryType,
} from './try-values.ts';

/**
 * "Try it": one value per input column of the latest saved version, typed (a number as the user
 * writes it in their language, text, true/false), evaluated by the service on that version;
 * the matched outputs, "no rule matches", or why it could not be evaluated. Nothing is saved.
 */
export function TryPanel({
  accountIndex,
  code,
  table,
  unsaved,
}: {
  accountIndex: number;
  code: string;
  /** The latest saved version's grid: what the service evaluates. */
  table: EditableTable;
  /** The grid has changes the evaluation does not see yet. */
  unsaved: boolean;
}) {
  const { t, i18n } = useTranslation('decision_tables');
  const id = useId();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [types, setTypes] = useState<Record<string, TryType>>({});
  const [invalid, setInvalid] = useState<string[]>([]);
  // The evaluation's own states (idle, pending, answered, failed) are the mutation's; a newer
  // evaluation's answer is the one shown.
  const evaluation = useMutation({
    mutationFn: (variables: Record<string, unknown>) =>
      evaluateDecisionTable(accountIndex, code, variables),
  });
  const language = i18n.resolvedLanguage ?? 'en';

  const columns = table.inputs.map((input, i) => ({
    key: input.key,
    name: inputName(table, i, t('grid.input_n', { n: i + 1 })),
    path: variablePath(input.expression),
    expression: input.expression,
    type: types[input.key] ?? tryTypeOf(input.typeRef),
  }));

  const evaluate = (event: FormEvent) => {
    event.preventDefault();
    const entries: { path: string[]; value: unknown }[] = [];
    const wrong: string[] = [];
    for (const column of columns) {
      if (!column.path) continue;
      const parsed = parseTryValue(texts[column.key] ?? '', column.type, language);
      if (parsed.ok) entries.push({ path: column.path, value: parsed.value });
      else wrong.push(column.key);
    }
    setInvalid(wrong);
    if (wrong.length) return;
    evaluation.mutate(variablesOf(entries));
  };
  const failure = evaluation.error;
  const failureText =
    failure instanceof ApiError && failure.status === 400
      ? t('try.error', { detail: failure.message })
      : t('try.failed');

  const show = (value: unknown): string => {
    if (value === null || value === undefined) return t('try.no_value');
    if (typeof value === 'number') return new Intl.NumberFormat(language).format(value);
    if (typeof value === 'boolean') return t(value ? 'try.true' : 'try.false');
    if (Array.isArray(value)) return value.map(show).join(', ');
    if (typeof value === 'string') return value;
    return JSON.stringify(value);
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 rounded-md border border-slate-300 p-4"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {t('try.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('try.intro')}</p>
      {unsaved ? <Alert tone="warning">{t('try.unsaved')}</Alert> : null}
      <form className="flex flex-col gap-3" noValidate onSubmit={evaluate}>
        {columns.map((column) => {
          const valueId = `${id}-${column.key}`;
          const wrong = invalid.includes(column.key);
          if (!column.path)
            return (
              <p key={column.key} className="text-sm text-slate-700">
                {t('try.computed', { name: column.name, expression: column.expression })}
              </p>
            );
          return (
            <div key={column.key} className="flex flex-wrap items-end gap-2">
              <div className="flex flex-col gap-1">
                <label htmlFor={valueId} className="text-sm font-medium text-slate-800">
                  {column.name}
                </label>
                {column.type === 'boolean' ? (
                  <select
                    id={valueId}
                    className="rounded-md border border-slate-400 bg-white px-3 py-2"
                    value={texts[column.key] ?? ''}
                    onChange={(event) => setTexts({ ...texts, [column.key]: event.target.value })}
                  >
                    <option value="">{t('try.no_value')}</option>
                    <option value="true">{t('try.true')}</option>
                    <option value="false">{t('try.false')}</option>
                  </select>
                ) : (
                  <input
                    id={valueId}
                    className="w-56 rounded-md border border-slate-400 bg-white px-3 py-2 aria-[invalid=true]:border-red-700"
                    inputMode={column.type === 'number' ? 'decimal' : undefined}
                    aria-invalid={wrong ? true : undefined}
                    aria-describedby={wrong ? `${valueId}-error` : undefined}
                    value={texts[column.key] ?? ''}
                    onChange={(event) => setTexts({ ...texts, [column.key]: event.target.value })}
                  />
                )}
              </div>
              <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
                {t('try.type_of', { name: column.name })}
                <select
                  className="rounded-md border border-slate-400 bg-white px-3 py-2 font-normal"
                  value={column.type}
                  onChange={(event) => {
                    setTypes({ ...types, [column.key]: event.target.value as TryType });
                    setTexts({ ...texts, [column.key]: '' });
                  }}
                >
                  {TRY_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`types.${type}`)}
                    </option>
                  ))}
                </select>
              </label>
              {wrong ? (
                <p id={`${valueId}-error`} className="w-full text-sm text-red-700">
                  {t('try.invalid_number', {
                    example: new Intl.NumberFormat(language).format(1234.5),
                  })}
                </p>
              ) : null}
            </div>
          );
        })}
        <div>
          <Button type="submit" disabled={evaluation.isPending}>
            {evaluation.isPending ? t('try.evaluating') : t('try.evaluate')}
          </Button>
        </div>
      </form>
      <div aria-live="polite">
        {evaluation.isSuccess ? (
          evaluation.data === null ? (
            <Alert tone="info">{t('try.no_match')}</Alert>
          ) : (
            <div className="flex flex-col gap-1">
              <h3 className="text-sm font-semibold text-slate-900">{t('try.result')}</h3>
              <dl
                className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm"
                data-testid="try-result"
              >
                {Object.entries(evaluation.data).map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="font-medium text-slate-800">{name}</dt>
                    <dd className="font-mono text-slate-900">{show(value)}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )
        ) : null}
        {evaluation.isError ? <Alert tone="danger">{failureText}</Alert> : null}
      </div>
    </section>
  );
}
