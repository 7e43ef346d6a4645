import { useTranslation } from 'react-i18next';
import {
  TEMPLATE_LANGUAGES,
  mailTemplates,
  type TemplateBodies,
} from '#client/api/templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { CreateTemplateDialog } from '#client/entities/template/create-template-dialog.tsx';
import { LayoutsSection } from '#client/entities/template/layouts-section.tsx';
import { TemplateListPage } from '#client/entities/template/template-list.tsx';
import { emailsPath, kindLabel, templateName } from './template-name.ts';

// Where a template goes in an e-mail layout, named in the texts as the source writes it.
const CONTENT = '{{ content }}';

/** A new template starts with its name as the subject and empty bodies, in every language. */
const startingBodies = (name: string): TemplateBodies =>
  Object.fromEntries(
    TEMPLATE_LANGUAGES.map((language) => [language, { subject: name, html: '', text: '' }]),
  ) as TemplateBodies;

/**
 * The workspace's e-mail templates (route `/editor/emails`, issue 19): the sandbox's own e-mails
 * (system) and the workspace's, each with its key and what it is about.
 */
export default function TemplatesPage() {
  const { t } = useTranslation('templates');
  const { accountIndex } = useAccountAccess();
  return (
    <TemplateListPage
      texts={{
        title: t('list.title'),
        intro: t('list.intro'),
        create: t('create.action'),
        loading: t('list.loading'),
        loadFailed: t('list.load_failed'),
      }}
      queryKey={['notification-templates', accountIndex]}
      load={(signal) => mailTemplates.list(accountIndex, signal)}
      pathOf={(code) => emailsPath(accountIndex, code)}
      nameOf={(template) => templateName(t, template)}
      columns={[
        {
          id: 'slug',
          header: t('columns.slug'),
          cell: (template) => <span className="font-mono">{template.slug}</span>,
        },
        { id: 'kind', header: t('columns.kind'), cell: (template) => kindLabel(t, template.kind) },
      ]}
      createDialog={(onClose) => (
        <CreateTemplateDialog
          title={t('create.title')}
          kindField={t('create.kind')}
          withSlug
          kinds={{
            queryKey: ['template-kinds', accountIndex],
            load: (signal) => mailTemplates.kinds(accountIndex, signal),
          }}
          layouts={{
            queryKey: ['mail-layouts', accountIndex],
            load: (signal) => mailTemplates.layouts(accountIndex, signal),
          }}
          kindLabel={(kind) => kindLabel(t, kind)}
          create={(fields) =>
            mailTemplates.create(accountIndex, { ...fields, bodies: startingBodies(fields.name) })
          }
          onClose={onClose}
        />
      )}
    >
      <LayoutsSection
        queryKey={['mail-layouts', accountIndex]}
        calls={mailTemplates.layoutsOf(accountIndex)}
        sources={[
          { field: 'html', label: t('layouts.html'), rows: 12 },
          { field: 'text', label: t('layouts.text'), rows: 6 },
        ]}
        isStandard={(layout) => layout.isSystem}
        intro={t('layouts.intro_mail', { placeholder: CONTENT })}
        hint={t('layouts.content_hint', { placeholder: CONTENT })}
      />
    </TemplateListPage>
  );
}
