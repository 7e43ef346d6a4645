import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { docTemplates, issueFromTemplate } from '#client/api/doc-templates-client.ts';
import { documentQueries } from '#client/api/documents-queries.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Button } from '#client/ui/button.tsx';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';

/** The records whose documents the document service issues from a template. */
export type IssuableKind = 'policy' | 'claim' | 'invoice';

/**
 * "Issue a document": a record's document again, or from another template of its kind (the
 * workspace's own letters), for who may add documents and read the templates. The dialog lists
 * the templates of the kind; the new document comes into the lists when the document service
 * tells of it (use-issued-documents.ts), and at once here too.
 */
export function IssueDocumentButton({
  kind,
  entityCode,
}: {
  kind: IssuableKind;
  entityCode: string;
}) {
  const { t } = useTranslation('documents');
  const { accountIndex, may } = useAccountAccess();
  const [open, setOpen] = useState(false);
  const allowed =
    may('document-management', 'documents', 'create') &&
    may('document-management', 'templates', 'view');
  if (!allowed) return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {t('issue.open')}
      </Button>
      {open ? (
        <IssueDialog
          accountIndex={accountIndex}
          kind={kind}
          entityCode={entityCode}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function IssueDialog({
  accountIndex,
  kind,
  entityCode,
  onClose,
}: {
  accountIndex: number;
  kind: IssuableKind;
  entityCode: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('documents');
  const toast = useToast();
  const queryClient = useQueryClient();
  const templates = useQuery({
    queryKey: ['doc-templates', accountIndex],
    queryFn: ({ signal }) => docTemplates.list(accountIndex, signal),
  });
  const options = (templates.data ?? [])
    .filter((template) => template.kind === kind)
    .map((template) => ({ value: template.code, label: template.name }));
  const [chosen, setChosen] = useState('');
  const [missing, setMissing] = useState(false);
  const template = chosen || options[0]?.value || '';

  const submit = () => {
    if (!template) {
      setMissing(true);
      return false;
    }
    return issueFromTemplate(accountIndex, template, entityCode).then(() => {
      void queryClient.invalidateQueries({ queryKey: documentQueries.all(accountIndex) });
      const name = options.find((option) => option.value === template)?.label ?? '';
      toast({ tone: 'success', message: t('issue.done', { name }) });
      onClose();
    });
  };

  return (
    <SubmitDialog
      title={t('issue.title')}
      submitLabel={t('issue.submit')}
      busyLabel={t('issue.busy')}
      submit={submit}
      failureMessage={(error) =>
        error instanceof ApiError && error.status === 404 ? t('issue.gone') : t('issue.failed')
      }
      onCancel={onClose}
    >
      {templates.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {t('issue.load_failed')}
        </p>
      ) : templates.isPending ? (
        <p role="status" className="text-sm text-slate-700">
          {t('issue.loading')}
        </p>
      ) : options.length === 0 ? (
        <p className="text-sm text-slate-700">{t('issue.none')}</p>
      ) : (
        <SelectInput
          name="template"
          label={t('issue.template')}
          value={template}
          options={options}
          required
          errors={missing ? [t('issue.choose')] : undefined}
          onChange={(value) => {
            setChosen(value);
            setMissing(false);
          }}
        />
      )}
    </SubmitDialog>
  );
}
