import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  createDocTemplate,
  listDocLayouts,
  listDocTemplateKinds,
  type DocTemplate,
} from '#client/api/doc-templates-client.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { documentKindLabel } from './document-kind.ts';

/**
 * "New document template": a name, the kind of document (it decides which variables the body may
 * use) and the layout it is printed in. The body is written in the editor, which opens next.
 */
export function CreateDocTemplateDialog({
  accountIndex,
  onClose,
}: {
  accountIndex: number;
  onClose: (created: DocTemplate | null) => void;
}) {
  const { t } = useTranslation('templates');
  const [name, setName] = useState('');
  const [kind, setKind] = useState('');
  const [layoutCode, setLayoutCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const kinds = useQuery({
    queryKey: ['doc-template-kinds', accountIndex],
    queryFn: ({ signal }) => listDocTemplateKinds(accountIndex, signal),
  });
  const layouts = useQuery({
    queryKey: ['doc-layouts', accountIndex],
    queryFn: ({ signal }) => listDocLayouts(accountIndex, signal),
  });

  // The dialog's flow (open, busy, refused with everything kept) is SubmitDialog's statechart.
  const submit = () => {
    const found: Record<string, string[]> = {};
    if (!name.trim()) found.name = [message('messages.fieldRequired', { field: t('create.name') })];
    if (!kind)
      found.kind = [message('messages.fieldRequired', { field: t('documents.create_kind') })];
    setErrors(found);
    if (Object.keys(found).length) return false;
    return createDocTemplate(accountIndex, {
      name: name.trim(),
      kind,
      layoutCode: layoutCode || null,
      bodyTemplate: `<h1>${name.trim().replace(/[<>&{}%]/g, '')}</h1>\n`,
    }).then(onClose);
  };

  return (
    <SubmitDialog
      title={t('documents.create_title')}
      submitLabel={t('create.submit')}
      busyLabel={t('create.busy')}
      cancelLabel={t('create.cancel')}
      submit={submit}
      failureMessage={(error) =>
        error instanceof ApiError && error.status === 403
          ? t('errors.forbidden')
          : t('errors.failed')
      }
      onCancel={() => onClose(null)}
    >
      <TextInput
        label={t('create.name')}
        value={name}
        onChange={setName}
        required
        maxLength={120}
        errors={errors.name}
      />
      <SelectInput
        label={t('documents.create_kind')}
        value={kind}
        onChange={setKind}
        required
        options={(kinds.data ?? []).map((k) => ({
          value: k.kind,
          label: documentKindLabel(t, k.kind),
        }))}
        errors={errors.kind}
      />
      <SelectInput
        label={t('fields.layout')}
        value={layoutCode}
        onChange={setLayoutCode}
        options={(layouts.data ?? []).map((l) => ({ value: l.code, label: l.name }))}
      />
    </SubmitDialog>
  );
}
