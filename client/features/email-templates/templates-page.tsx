import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { listTemplates, type NotificationTemplate } from '#client/api/templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { useAuditColumns } from '#client/entities/template/editor-parts.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { Button } from '#client/ui/button.tsx';
import { CreateTemplateDialog } from './create-template-dialog.tsx';
import { kindLabel, templateName } from './template-name.ts';

/**
 * The workspace's e-mail templates (route `/editor/emails`, issue 19): the sandbox's own e-mails
 * (system) and the workspace's, a handful, so one table without paging; a name opens the editor.
 */
export default function TemplatesPage() {
  const { t } = useTranslation('templates');
  usePageTitle(t('list.title'));
  const { accountIndex, may } = useAccountAccess();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const auditColumns = useAuditColumns<NotificationTemplate>();
  const templates = useQuery({
    queryKey: ['notification-templates', accountIndex],
    queryFn: ({ signal }) => listTemplates(accountIndex, signal),
  });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t('list.title')}</h1>
        {may('document-management', 'templates', 'create') ? (
          <Button onClick={() => setCreating(true)}>{t('create.action')}</Button>
        ) : null}
      </div>
      {creating ? (
        <CreateTemplateDialog
          accountIndex={accountIndex}
          onClose={(created) => {
            setCreating(false);
            if (!created) return;
            void queryClient.invalidateQueries({
              queryKey: ['notification-templates', accountIndex],
            });
            void navigate(`/u/${accountIndex}/editor/emails/${encodeURIComponent(created.code)}`);
          }}
        />
      ) : null}
      <p className="text-sm text-slate-700">{t('list.intro')}</p>
      {templates.isPending ? <Spinner label={t('list.loading')} /> : null}
      {templates.isError ? (
        <RetryAlert message={t('list.load_failed')} onRetry={() => void templates.refetch()} />
      ) : null}
      {templates.data ? (
        <DataTable
          caption={t('list.title')}
          rows={templates.data}
          rowKey={(template) => template.code}
          columns={[
            {
              id: 'name',
              header: t('columns.name'),
              cell: (template) => (
                <Link
                  to={`/u/${accountIndex}/editor/emails/${encodeURIComponent(template.code)}`}
                  className="font-medium text-blue-800 underline-offset-2 hover:underline"
                >
                  {templateName(t, template)}
                </Link>
              ),
            },
            {
              id: 'slug',
              header: t('columns.slug'),
              cell: (template) => <span className="font-mono">{template.slug}</span>,
            },
            {
              id: 'kind',
              header: t('columns.kind'),
              cell: (template) => kindLabel(t, template.kind),
            },
            ...auditColumns,
          ]}
        />
      ) : null}
    </div>
  );
}
