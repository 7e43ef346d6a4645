import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Button } from '#client/ui/button.tsx';
import { DataTable, type DataColumn } from '#client/ui/data-table.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useAuditColumns } from './editor-parts.tsx';

interface ListedTemplate {
  code: string;
  isSystem: boolean;
  version: number;
  updatedAt: string;
  updatedByName: string | null;
}

/**
 * A workspace's templates of one kind (e-mails, documents; issue 19): the sandbox's own (system)
 * and the workspace's, a handful, so one table without paging; a name opens the editor, "New"
 * the create dialog and then the new template's editor.
 */
export function TemplateListPage<T extends ListedTemplate>({
  texts,
  queryKey,
  load,
  pathOf,
  nameOf,
  columns,
  createDialog,
  children,
}: {
  texts: { title: string; intro: string; create: string; loading: string; loadFailed: string };
  queryKey: QueryKey;
  load: (signal: AbortSignal) => Promise<T[]>;
  /** The editor's path of a template. */
  pathOf: (code: string) => string;
  nameOf: (template: T) => string;
  /** The page's own columns, between the name and origin, version and last change. */
  columns: DataColumn<T>[];
  createDialog: (onClose: (created: { code: string } | null) => void) => ReactNode;
  /** Below the list: the layouts. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('templates');
  usePageTitle(texts.title);
  const { may } = useAccountAccess();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const auditColumns = useAuditColumns<T>();
  const templates = useQuery({ queryKey, queryFn: ({ signal }) => load(signal) });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{texts.title}</h1>
        {may('document-management', 'templates', 'create') ? (
          <Button onClick={() => setCreating(true)}>{texts.create}</Button>
        ) : null}
      </div>
      {creating
        ? createDialog((created) => {
            setCreating(false);
            if (!created) return;
            void queryClient.invalidateQueries({ queryKey });
            void navigate(pathOf(created.code));
          })
        : null}
      <p className="text-sm text-slate-700">{texts.intro}</p>
      {templates.isPending ? <Spinner label={texts.loading} /> : null}
      {templates.isError ? (
        <RetryAlert message={texts.loadFailed} onRetry={() => void templates.refetch()} />
      ) : null}
      {templates.data ? (
        <DataTable
          caption={texts.title}
          rows={templates.data}
          rowKey={(template) => template.code}
          columns={[
            {
              id: 'name',
              header: t('columns.name'),
              cell: (template) => (
                <Link
                  to={pathOf(template.code)}
                  className="font-medium text-blue-800 underline-offset-2 hover:underline"
                >
                  {nameOf(template)}
                </Link>
              ),
            },
            ...columns,
            ...auditColumns,
          ]}
        />
      ) : null}
      {children}
    </div>
  );
}
