import { useQuery } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  createDocxTemplate,
  getDocxTemplate,
  listDocxEntities,
} from '#client/api/docx-templates-client.ts';
import { sendSignedUpload } from '#client/api/documents-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import {
  docxUploadMachine,
  type DocxProblem,
  type DocxUploadRequest,
  type DocxVerdict,
} from '#machines/docx-upload.machine.ts';
import { DOCX_ENTITY_TYPES, type DocxEntityType } from '#common/contracts/docx-template.ts';
import { entityLabel, failureText, problemText } from './docx-texts.ts';

/**
 * "Upload docx template" (issue 19): a name, the kind of record it is filled with, the .docx
 * file. The flow is docxUploadMachine's: the form (its rules checked here first), the upload
 * (the service writes the template and signs the upload, the file goes to the storage through
 * the BFF), the service's check of the arrived file, then done or refused with every problem
 * placed at the file field (paragraph and character), the form kept to choose another file.
 */
export function DocxUploadDialog({
  accountIndex,
  onClose,
}: {
  accountIndex: number;
  onClose: (uploaded: boolean) => void;
}) {
  const { t } = useTranslation('templates');
  const [name, setName] = useState('');
  const [entityType, setEntityType] = useState<DocxEntityType | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const fileId = useId();
  // What the chosen kind of record offers, for the author to look up (loaded once per account).
  const entities = useQuery({
    queryKey: ['docx-template-entities', accountIndex],
    queryFn: ({ signal }) => listDocxEntities(accountIndex, signal),
    staleTime: Infinity,
  });
  const tags = entities.data?.find((e) => e.entityType === entityType)?.variables ?? [];
  const [state, send] = useMachine(
    docxUploadMachine.provide({
      actors: {
        uploadTemplate: fromPromise<string, DocxUploadRequest>(async ({ input, signal }) => {
          const signed = await createDocxTemplate(
            accountIndex,
            { name: input.name.trim(), entityType: input.entityType, filename: input.file.name },
            signal,
          );
          // The machine knows a file by name and size; what the dialog gave it is a File.
          await sendSignedUpload(signed, input.file as File, () => {}, signal);
          return signed.docxTemplate.code;
        }),
        checkTemplate: fromPromise<DocxVerdict, string>(async ({ input, signal }) => {
          try {
            const template = await getDocxTemplate(accountIndex, input, signal);
            if (template.status !== 'ready') throw new ApiError(409, 'template_pending', '', null);
            return { ok: true };
          } catch (error) {
            if (error instanceof ApiError && error.code === 'template_refused') {
              const issues = (error.body as { issues?: DocxProblem[] } | null)?.issues ?? [];
              return { ok: false, problems: issues };
            }
            throw error;
          }
        }),
      },
    }),
  );
  const busy = state.matches('uploading') || state.matches('validating');
  const ended = state.matches('done') ? 'done' : state.matches('cancelled') ? 'cancelled' : null;
  useEffect(() => {
    if (ended) onClose(ended === 'done');
  }, [ended, onClose]);

  const refusals = new Set(state.context.fieldRefusals);
  const fileErrors = [
    ...(refusals.has('fileMissing') ? [t('docx.upload.file_missing')] : []),
    ...(refusals.has('fileType') ? [t('docx.upload.file_type')] : []),
    ...(refusals.has('fileSize') ? [t('docx.upload.file_size')] : []),
    ...(state.matches('refused')
      ? [t('docx.upload.refused'), ...state.context.problems.map((p) => problemText(t, p))]
      : []),
  ];
  const failure = state.matches('failed') ? failureText(t, { code: state.context.failure }) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state.matches('refused') || state.matches('failed')) send({ type: 'upload.edit' });
    send({
      type: 'upload.submit',
      request: {
        name,
        entityType: entityType as DocxEntityType,
        file: file ?? { name: '', size: 0 },
      },
    });
  };

  return (
    <FormDialog
      title={t('docx.upload.title')}
      busy={busy}
      onDismiss={() => send({ type: 'upload.cancel' })}
    >
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <TextInput
          label={t('docx.upload.name')}
          value={name}
          onChange={setName}
          required
          maxLength={120}
          disabled={busy}
          errors={
            refusals.has('name')
              ? [message('messages.fieldRequired', { field: t('docx.upload.name') })]
              : undefined
          }
        />
        <SelectInput
          label={t('docx.upload.entity')}
          value={entityType}
          onChange={(value) => setEntityType(value as DocxEntityType | '')}
          required
          disabled={busy}
          options={DOCX_ENTITY_TYPES.map((entity) => ({
            value: entity,
            label: entityLabel(t, entity),
          }))}
          errors={
            refusals.has('entityType')
              ? [message('messages.fieldRequired', { field: t('docx.upload.entity') })]
              : undefined
          }
        />
        {tags.length ? (
          <details className="text-sm text-slate-800">
            <summary className="cursor-pointer font-medium">
              {t('docx.upload.tags', { entity: entityLabel(t, entityType) })}
            </summary>
            {/* Scrolls: focusable, so that a keyboard reaches every tag. */}
            <ul
              tabIndex={0}
              aria-label={t('docx.upload.tags', { entity: entityLabel(t, entityType) })}
              className="mt-2 max-h-40 overflow-y-auto font-mono text-xs focus:outline-2 focus:outline-blue-700"
            >
              {tags.map((v) => (
                <li key={v.tag}>
                  {v.type === 'list'
                    ? `{#${v.tag}}…{/${v.tag}}`
                    : v.type === 'item'
                      ? `{${v.tag.slice(v.tag.indexOf('[].') + 3)}}`
                      : `{${v.tag}}`}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="text-sm font-medium text-slate-800">
            {t('docx.upload.file')}
            <span aria-hidden="true" className="text-red-700">
              {' *'}
            </span>
          </label>
          <input
            id={fileId}
            type="file"
            name="file"
            accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            disabled={busy}
            aria-required
            aria-invalid={fileErrors.length ? true : undefined}
            aria-describedby={`${fileId}-hint${fileErrors.length ? ` ${fileId}-errors` : ''}`}
            className="text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5"
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
          <p id={`${fileId}-hint`} className="text-xs text-slate-600">
            {t('docx.upload.file_hint')}
          </p>
          {fileErrors.length ? (
            <ul
              id={`${fileId}-errors`}
              className="text-sm text-red-700"
              data-testid="docx-problems"
            >
              {fileErrors.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          ) : null}
        </div>
        {busy ? (
          <p role="status" className="text-sm text-slate-700">
            {state.matches('uploading') ? t('docx.upload.uploading') : t('docx.upload.validating')}
          </p>
        ) : null}
        <FormDialogFooter
          failure={failure}
          busy={busy}
          cancelLabel={t('create.cancel')}
          submitLabel={t('docx.upload.submit')}
          busyLabel={t('docx.upload.busy')}
          onCancel={() => send({ type: 'upload.cancel' })}
        />
      </form>
    </FormDialog>
  );
}
