import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import type { TemplateVersion } from '#client/api/template-calls.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import type { TemplateIssue, TemplateRefusal } from '#machines/template-editor.machine.ts';
import { useIssueText } from './variables-panel.tsx';

/*
 * The parts the e-mail and the document template editors share (issue 19): the heading with the
 * version line and delete, the refusal summary, name and layout, and the versions.
 */

/**
 * A refused call as the editor machine keeps it: the source's problems (each passed through
 * `place`, a preview's placed at the fields a save would name), or the error's code.
 */
export const refusalOf = (
  error: unknown,
  on?: 'preview',
  place: (issue: TemplateIssue) => TemplateIssue = (issue) => issue,
): TemplateRefusal => {
  if (error instanceof ApiError) {
    const issues = (error.body as { issues?: TemplateIssue[] } | null)?.issues;
    if (error.status === 400 && issues?.length)
      return on
        ? { kind: 'invalid', on, issues: issues.map(place) }
        : { kind: 'invalid', issues: issues.map(place) };
    return { kind: 'failed', code: error.status === 403 ? 'forbidden' : error.code };
  }
  return { kind: 'failed', code: 'unknown' };
};

/** The template's name, its version line (with "unsaved" while dirty) and delete, if allowed. */
export function EditorHeading({
  name,
  versionInfo,
  dirty,
  onDelete,
  busy,
}: {
  name: string;
  versionInfo: string;
  dirty: boolean;
  /** Absent where the template may not be deleted. */
  onDelete?: (() => void) | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation('templates');
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{name}</h1>
        <p className="text-sm text-slate-700" data-testid="template-version">
          {versionInfo}
          {dirty ? <strong className="ml-2 text-amber-800">{t('editor.unsaved')}</strong> : null}
        </p>
      </div>
      {onDelete ? (
        <Button variant="danger" disabled={busy} onClick={onDelete}>
          {t('delete.action')}
        </Button>
      ) : null}
    </div>
  );
}

/** The failures the editor names; anything else is "that did not work". */
const FAILURE_TEXTS = {
  forbidden: 'errors.forbidden',
  // The document service prints with Chromium: absent on the server, or too slow this time.
  pdf_unavailable: 'errors.pdf_unavailable',
  pdf_timeout: 'errors.pdf_timeout',
} as const;

/** Read-only note, and why the last save or preview did not go through, each problem placed. */
export function RefusalSummary({
  refusal,
  canUpdate,
  whereOf,
}: {
  refusal: TemplateRefusal | null;
  canUpdate: boolean;
  whereOf: (path: string) => string;
}) {
  const { t } = useTranslation('templates');
  const issueText = useIssueText();
  const issues = refusal?.kind === 'invalid' ? refusal.issues : [];
  return (
    <>
      {!canUpdate ? <Alert tone="info">{t('editor.read_only')}</Alert> : null}
      {issues.length ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          <p className="font-semibold">
            {refusal?.kind === 'invalid' && refusal.on === 'preview'
              ? t('editor.preview_refused')
              : t('editor.refused')}
          </p>
          <ul className="ml-5 list-disc">
            {issues.map((issue, index) => (
              <li key={index}>
                {whereOf(issue.path)}: {issueText(issue)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {refusal?.kind === 'failed' ? (
        <Alert tone="danger">
          {refusal.code in FAILURE_TEXTS
            ? t(FAILURE_TEXTS[refusal.code as keyof typeof FAILURE_TEXTS])
            : t('errors.failed')}
        </Alert>
      ) : null}
    </>
  );
}

/** The name and the layout select; `noLayout`: the "no layout" choice offered. */
export function NameAndLayout({
  name,
  layoutCode,
  layouts,
  readOnly,
  noLayout,
  onChange,
}: {
  name: string;
  layoutCode: string | null;
  layouts: readonly { code: string; name: string }[];
  readOnly: boolean;
  noLayout: boolean;
  onChange: (next: { name: string; layoutCode: string | null }) => void;
}) {
  const { t } = useTranslation('templates');
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
        {t('fields.name')}
        <input
          className="rounded-md border border-slate-400 px-3 py-2 font-normal"
          value={name}
          readOnly={readOnly}
          onChange={(event) => onChange({ name: event.target.value, layoutCode })}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
        {t('fields.layout')}
        <select
          className="rounded-md border border-slate-400 px-3 py-2 font-normal"
          value={layoutCode ?? ''}
          disabled={readOnly}
          onChange={(event) => onChange({ name, layoutCode: event.target.value || null })}
        >
          {noLayout ? <option value="">{t('fields.no_layout')}</option> : null}
          {layouts.map((layout) => (
            <option key={layout.code} value={layout.code}>
              {layout.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** A preview's heading with its close button above what was rendered. */
export function PreviewSection({
  id,
  title,
  onClose,
  children,
}: {
  id: string;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('templates');
  return (
    <section aria-labelledby={`${id}-preview`} className="flex flex-col gap-3">
      <div className="flex items-center justify-between">
        <h2 id={`${id}-preview`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <Button variant="ghost" onClick={onClose}>
          {t('preview.close')}
        </Button>
      </div>
      {children}
    </section>
  );
}

/** The saved versions, newest first, with who saved each and when. */
export function TemplateVersions({
  id,
  versions,
}: {
  id: string;
  versions: TemplateVersion[] | undefined;
}) {
  const { t } = useTranslation('templates');
  return (
    <section aria-labelledby={`${id}-versions`} className="flex flex-col gap-2">
      <h2 id={`${id}-versions`} className="text-lg font-semibold text-slate-900">
        {t('versions.title')}
      </h2>
      {versions?.length ? (
        // The frame names the table for the tests, header row included, as before.
        <div data-testid="template-versions">
          <DataTable
            caption={t('versions.title')}
            rows={versions}
            rowKey={(version) => version.version}
            columns={[
              { id: 'version', header: t('versions.version'), cell: (version) => version.version },
              {
                id: 'by',
                header: t('versions.by'),
                cell: (version) => version.savedByName ?? t('list.system'),
              },
              {
                id: 'at',
                header: t('versions.at'),
                cell: (version) => formatDateTime(version.savedAt),
              },
            ]}
          />
        </div>
      ) : (
        <p className="text-sm text-slate-700">{t('versions.empty')}</p>
      )}
    </section>
  );
}

/** The list columns both template lists end with: origin, version and the last change. */
export function useAuditColumns<
  T extends { isSystem: boolean; version: number; updatedAt: string; updatedByName: string | null },
>() {
  const { t } = useTranslation('templates');
  return [
    {
      id: 'origin',
      header: t('columns.origin'),
      cell: (template: T) => (template.isSystem ? t('origin.system') : t('origin.own')),
    },
    { id: 'version', header: t('columns.version'), cell: (template: T) => template.version },
    {
      id: 'changed',
      header: t('columns.changed'),
      cell: (template: T) =>
        t('list.changed_by', {
          name: template.updatedByName ?? t('list.system'),
          at: formatDateTime(template.updatedAt),
        }),
    },
  ];
}

/** A source's textarea under its label, with the problems a refusal placed at it. */
export function SourceField({
  id,
  label,
  value,
  rows,
  readOnly,
  issues,
  onChange,
  onFocus,
  fieldRef,
}: {
  id: string;
  label: string;
  value: string;
  rows: number;
  readOnly: boolean;
  issues: readonly TemplateIssue[];
  onChange: (value: string) => void;
  onFocus?: () => void;
  /** For inserting at the caret. */
  fieldRef?: (element: HTMLTextAreaElement | null) => void;
}) {
  const issueText = useIssueText();
  const errorId = `${id}-errors`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        ref={fieldRef}
        className="w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900"
        rows={rows}
        spellCheck={false}
        value={value}
        readOnly={readOnly}
        aria-invalid={issues.length > 0 || undefined}
        aria-describedby={issues.length ? errorId : undefined}
        onFocus={onFocus}
        onChange={(event) => onChange(event.target.value)}
      />
      {issues.length ? (
        <ul id={errorId} className="text-sm text-red-800">
          {issues.map((issue, index) => (
            <li key={index}>{issueText(issue)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
