import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  listDocLayouts,
  listDocTemplates,
  type DocTemplate,
} from '#client/api/doc-templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { useAuditColumns } from '#client/entities/template/editor-parts.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { Button } from '#client/ui/button.tsx';
import { CreateDocTemplateDialog } from './create-template-dialog.tsx';
import { documentKindLabel, documentsPath } from './document-kind.ts';

/**
 * The workspace's document templates (route `/editor/documents`, issue 19): the policy schedule
 * the sandbox seeds and the workspace's own, a handful, so one table; a name opens the editor.
 */
export default function DocTemplatesPage() {
  const { t } = useTranslation('templates');
  usePageTitle(t('documents.list_title'));
  const { accountIndex, may } = useAccountAccess();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const auditColumns = useAuditColumns<DocTemplate>();
  const templates = useQuery({
    queryKey: ['doc-templates', accountIndex],
    queryFn: ({ signal }) => listDocTemplates(accountIndex, signal),
  });
  const layouts = useQuery({
    queryKey: ['doc-layouts', accountIndex],
    queryFn: ({ signal }) => listDocLayouts(accountIndex, signal),
  });
  const layoutName = (code: string | null) =>
    (code && layouts.data?.find((layout) => layout.code === code)?.name) ?? '–';

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t('documents.list_title')}</h1>
        {may('document-management', 'templates', 'create') ? (
          <Button onClick={() => setCreating(true)}>{t('documents.create_action')}</Button>
        ) : null}
      </div>
      {creating ? (
        <CreateDocTemplateDialog
          accountIndex={accountIndex}
          onClose={(created) => {
            setCreating(false);
            if (!created) return;
            void queryClient.invalidateQueries({ queryKey: ['doc-templates', accountIndex] });
            void navigate(documentsPath(accountIndex, created.code));
          }}
        />
      ) : null}
      <p className="text-sm text-slate-700">{t('documents.list_intro')}</p>
      {templates.isPending ? <Spinner label={t('documents.list_loading')} /> : null}
      {templates.isError ? (
        <RetryAlert
          message={t('documents.list_load_failed')}
          onRetry={() => void templates.refetch()}
        />
      ) : null}
      {templates.data ? (
        <DataTable
          caption={t('documents.list_title')}
          rows={templates.data}
          rowKey={(template) => template.code}
          columns={[
            {
              id: 'name',
              header: t('columns.name'),
              cell: (template) => (
                <Link
                  to={documentsPath(accountIndex, template.code)}
                  className="font-medium text-blue-800 underline-offset-2 hover:underline"
                >
                  {template.name}
                </Link>
              ),
            },
            {
              id: 'kind',
              header: t('documents.column_kind'),
              cell: (template) => documentKindLabel(t, template.kind),
            },
            {
              id: 'layout',
              header: t('documents.column_layout'),
              cell: (template) => layoutName(template.layoutCode),
            },
            ...auditColumns,
          ]}
        />
      ) : null}
    </div>
  );
}
