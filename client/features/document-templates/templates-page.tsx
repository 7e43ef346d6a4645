import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { docTemplates } from '#client/api/doc-templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { CreateTemplateDialog } from '#client/entities/template/create-template-dialog.tsx';
import { LayoutsSection } from '#client/entities/template/layouts-section.tsx';
import { TemplateListPage } from '#client/entities/template/template-list.tsx';
import { documentKindLabel } from '#client/entities/template/doc-template-editor.tsx';
import { documentsPath } from './document-kind.ts';

/**
 * The workspace's document templates (route `/editor/documents`, issue 19): the policy schedule
 * the sandbox seeds and the workspace's own, each with its kind of document and layout.
 */
export default function DocTemplatesPage() {
  const { t } = useTranslation('templates');
  const { accountIndex } = useAccountAccess();
  const layouts = useQuery({
    queryKey: ['doc-layouts', accountIndex],
    queryFn: ({ signal }) => docTemplates.layouts(accountIndex, signal),
  });
  const layoutName = (code: string | null) =>
    (code && layouts.data?.find((layout) => layout.code === code)?.name) ?? '–';
  return (
    <TemplateListPage
      texts={{
        title: t('documents.list_title'),
        intro: t('documents.list_intro'),
        create: t('documents.create_action'),
        loading: t('documents.list_loading'),
        loadFailed: t('documents.list_load_failed'),
      }}
      queryKey={['doc-templates', accountIndex]}
      load={(signal) => docTemplates.list(accountIndex, signal)}
      pathOf={(code) => documentsPath(accountIndex, code)}
      nameOf={(template) => template.name}
      columns={[
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
      ]}
      createDialog={(onClose) => (
        <CreateTemplateDialog
          title={t('documents.create_title')}
          kindField={t('documents.create_kind')}
          withSlug={false}
          kinds={{
            queryKey: ['doc-template-kinds', accountIndex],
            load: (signal) => docTemplates.kinds(accountIndex, signal),
          }}
          layouts={{
            queryKey: ['doc-layouts', accountIndex],
            load: (signal) => docTemplates.layouts(accountIndex, signal),
          }}
          kindLabel={(kind) => documentKindLabel(t, kind)}
          // The body starts with the name as its heading (as text: no markup, no Liquid).
          create={({ name, kind, layoutCode }) =>
            docTemplates.create(accountIndex, {
              name,
              kind,
              layoutCode,
              bodyTemplate: `<h1>${name.replace(/[<>&{}%]/g, '')}</h1>\n`,
            })
          }
          onClose={onClose}
        />
      )}
    >
      <LayoutsSection
        queryKey={['doc-layouts', accountIndex]}
        calls={docTemplates.layoutsOf(accountIndex)}
        sources={[
          { field: 'headerTemplate', label: t('layouts.header'), rows: 6 },
          { field: 'footerTemplate', label: t('layouts.footer'), rows: 6 },
        ]}
        isStandard={(layout) => layout.isDefault}
        intro={t('layouts.intro_documents')}
      />
    </TemplateListPage>
  );
}
