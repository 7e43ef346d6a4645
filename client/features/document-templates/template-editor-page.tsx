import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { docTemplates } from '#client/api/doc-templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { DocTemplateEditor } from '#client/entities/template/doc-template-editor.tsx';
import { TemplateRecordPage } from '#client/entities/template/template-editor.tsx';
import { documentsPath } from './document-kind.ts';

/**
 * One document template (route `/editor/documents/:templateCode`, issue 19): its name, layout
 * and body source, the variables its kind may use, a PDF preview of the unsaved source with the
 * kind's sample record, saving (a refusal names each problem with line and column) and the
 * versions. The flow and the frame are the e-mail template editor's.
 */
export default function DocTemplateEditorPage() {
  const { t } = useTranslation('templates');
  const code = useParams().templateCode ?? '';
  const { accountIndex } = useAccountAccess();
  return (
    <TemplateRecordPage
      queryKey={['doc-template', accountIndex, code]}
      load={(signal) => docTemplates.get(accountIndex, code, signal)}
      titleOf={(template) => template.name}
      back={{ to: documentsPath(accountIndex), label: t('documents.back') }}
      texts={{
        loading: t('editor.loading'),
        title: t('documents.editor_title'),
        notFound: t('documents.not_found'),
        failed: t('editor.load_failed'),
      }}
    >
      {(initial, variables) => (
        <DocTemplateEditor
          key={code}
          initial={initial}
          variables={variables}
          listPath={documentsPath(accountIndex)}
        />
      )}
    </TemplateRecordPage>
  );
}
