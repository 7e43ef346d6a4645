import { useTranslation } from 'react-i18next';
import type { TemplateVariable } from '#client/api/template-calls.ts';
import type { TemplateIssue } from '#machines/template-editor.machine.ts';
import { Button } from '#client/ui/button.tsx';

/**
 * The variables a template's kind may use (e-mail and document templates, issue 19), each a
 * button that inserts it at the caret of the field last focused.
 */
export function VariablesPanel({
  id,
  variables,
  disabled,
  onInsert,
}: {
  id: string;
  variables: TemplateVariable[];
  disabled: boolean;
  onInsert: (path: string) => void;
}) {
  const { t } = useTranslation('templates');
  return (
    <section aria-labelledby={`${id}-variables`} className="flex flex-col gap-2">
      <h2 id={`${id}-variables`} className="text-lg font-semibold text-slate-900">
        {t('variables.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('variables.hint')}</p>
      <ul className="flex flex-col gap-1">
        {variables.map((variable) => (
          <li key={variable.path}>
            <Button
              variant="ghost"
              className="!px-2 !py-1 font-mono"
              disabled={disabled}
              aria-label={t('variables.insert', { path: variable.path })}
              // The caret stays where it was in the field: the click must not take the focus.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onInsert(variable.path)}
            >
              {variable.path}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A source's problem in the reader's language: what, and where (line and column). */
export function useIssueText(): (issue: TemplateIssue) => string {
  const { t } = useTranslation('templates');
  return (issue) =>
    t(`issues.${issue.code}`, {
      defaultValue: t('issues.other', { code: issue.code }),
      line: issue.line ?? 1,
      column: issue.column ?? 1,
      name: issue.name ?? '',
    });
}

/**
 * Inserts `snippet` into a field's value at its caret (the whole selection replaced) and puts the
 * caret after it once the new value is rendered.
 */
export function insertAtCaret(
  field: HTMLTextAreaElement | null | undefined,
  value: string,
  snippet: string,
  setValue: (next: string) => void,
): void {
  const start = field?.selectionStart ?? value.length;
  const end = field?.selectionEnd ?? value.length;
  setValue(value.slice(0, start) + snippet + value.slice(end));
  requestAnimationFrame(() => {
    field?.focus();
    field?.setSelectionRange(start + snippet.length, start + snippet.length);
  });
}
