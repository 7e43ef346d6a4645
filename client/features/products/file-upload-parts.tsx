import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import type { FileProblem } from '#client/api/product-extras-client.ts';

/** The problems of a refused upload (400 invalid_file), or null for any other failure. */
export function problemsOf(error: unknown): FileProblem[] | null {
  if (!(error instanceof ApiError) || error.code !== 'invalid_file') return null;
  const problems = (error.body as { problems?: unknown } | null)?.problems;
  return Array.isArray(problems) ? (problems as FileProblem[]) : null;
}

/** Every problem of an uploaded file, translated, each with its line. */
export function FileProblemList({ problems, intro }: { problems: FileProblem[]; intro: string }) {
  const { t } = useTranslation('products');
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
    >
      <p className="font-semibold">{intro}</p>
      <ul aria-label={t('file_problems.heading')} className="mt-2 list-disc pl-5">
        {problems.map((problem, index) => (
          <li key={index}>
            {t(`file_problems.${problem.code}` as 'file_problems.empty_file', {
              defaultValue: problem.message,
              line: problem.line,
              column: problem.column ?? '',
              value: problem.value ?? '',
              expected: problem.expected ?? '',
              found: problem.found ?? '',
              otherLine: problem.otherLine ?? '',
              count: problem.count ?? '',
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled file chooser; the chosen file goes to `onChange`, none as null. */
export function FileInput({
  label,
  hint,
  accept,
  onChange,
}: {
  label: string;
  hint?: string;
  accept: string;
  onChange: (file: File | null) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
        <span aria-hidden="true" className="text-red-700">
          {' *'}
        </span>
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        aria-required
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="text-sm text-slate-900"
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
