import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteDocument,
  downloadDocument,
  type ClaimDocument,
} from '#client/api/documents-client.ts';
import { documentQueries } from '#client/api/documents-queries.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import {
  ACCEPT_ATTRIBUTE,
  CLAIM_DOCUMENT_DELETE_PERMISSIONS,
  CLAIM_DOCUMENT_UPLOAD_PERMISSIONS,
  DOCUMENT_LIST_SCROLL_HEIGHT_PX,
  DOCUMENT_ROW_HEIGHT_PX,
  DOCUMENT_ROWS_WITHOUT_SCROLL,
  contentTypeOfName,
  shortContentType,
} from '#common/claim-documents.ts';
import { isSettled, refusalOfFailure } from '#machines/document-upload.machine.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { TimeFilter } from '#client/ui/time-filter.tsx';
import {
  ALL_DATES,
  isAllDates,
  toRange,
  type TimeFilterValue,
} from '#client/ui/time-filter-range.ts';
import { loadStateOf, type LoadState } from '#client/ui/load-state.ts';
import { useDocumentUploads, type UploadItem } from './use-document-uploads.ts';
import { useIssuedDocuments } from '#client/entities/document/use-issued-documents.ts';
import { IssueDocumentButton } from '#client/entities/document/issue-document.tsx';

export interface ClaimDocumentsOwner {
  /** The claim's numeric id (the document service's entityId). */
  id: number | null;
  /** The claim's code, for a document issued from a template; none while it is not saved. */
  code?: string | null;
  accountCode: string | null;
  policyCode: string | null;
}

/**
 * The claim documents panel of the spec: the list (100 a page, rows of 55 px, up to four rows
 * without scrolling, else 335 px high) with a download link and a delete icon behind the confirm
 * dialog each; an upload button and a drop zone taking several files at once, a progress bar
 * each. Only png, jpeg, jpg and pdf; no account, policy or claim refuses with the form error.
 * Upload and delete show only with the spec's permissions (the service checks them anyway);
 * every failed call shows the danger alert with the generic error text.
 */
export function ClaimDocumentsPanel({ owner }: { owner: ClaimDocumentsOwner }) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation('common');
  const { accountIndex, can } = useAccountAccess();
  const confirm = useConfirm();
  const canUpload = CLAIM_DOCUMENT_UPLOAD_PERMISSIONS.some(can);
  const canDelete = CLAIM_DOCUMENT_DELETE_PERMISSIONS.some(can);
  const [failure, setFailure] = useState(false);
  const [time, setTime] = useState<TimeFilterValue>(ALL_DATES);

  const queryClient = useQueryClient();
  // The range is taken once per choice, so the key stays put while the clock moves on.
  const range = useMemo(() => toRange(time), [time]);
  const query = useQuery({
    ...documentQueries.ofClaim(accountIndex, owner.id ?? 0, range),
    enabled: owner.id !== null,
  });
  // The acknowledgement the document service issues just after the claim was reported.
  useIssuedDocuments(documentQueries.all(accountIndex));
  // A claim not saved yet has no documents to ask for.
  const noDocuments: LoadState<ClaimDocument[]> = { kind: 'ready', value: [] };
  const state = owner.id === null ? noDocuments : loadStateOf(query);
  const retry = () => void query.refetch();
  // An upload or a delete changes every list the document is in. Stable: uploads call it.
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: documentQueries.all(accountIndex) }),
    [queryClient, accountIndex],
  );

  const target = useMemo(
    () => ({ accountCode: owner.accountCode, policyCode: owner.policyCode, claimId: owner.id }),
    [owner.accountCode, owner.policyCode, owner.id],
  );
  const uploads = useDocumentUploads(accountIndex, target, refresh);

  async function download(document: ClaimDocument) {
    setFailure(false);
    setFailure(!(await downloadDocument(accountIndex, document)));
  }

  async function remove(document: ClaimDocument) {
    setFailure(false);
    await confirm({
      title: t('delete.title'),
      message: t('delete.message', { filename: document.filename }),
      confirmLabel: t('delete.confirm'),
      tone: 'danger',
      action: async () => {
        try {
          await deleteDocument(accountIndex, document.code);
        } catch (error) {
          console.error('document delete failed', error);
          setFailure(true);
        }
        refresh();
      },
    });
  }

  const rejectedNames = uploads.items
    .filter((i) => i.snapshot.context.refusal === 'extension')
    .map((i) => i.file.name);
  const missingTarget = uploads.items.some((i) => i.snapshot.context.refusal === 'missingTarget');
  // A file the storage refused for its size or content says so in its row, not as a failure.
  const uploadFailed = uploads.items.some(
    (i) => i.snapshot.value === 'failed' && fileProblemOf(i) === null,
  );

  return (
    <section className="flex flex-col gap-3" aria-labelledby="claim-documents-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="claim-documents-heading" className="text-lg font-semibold text-slate-900">
          {t('title')}
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          {owner.code ? <IssueDocumentButton kind="claim" entityCode={owner.code} /> : null}
          <TimeFilter value={time} onChange={setTime} />
        </div>
      </div>

      {failure || state.kind === 'failed' || uploadFailed ? (
        <AlertBar tone="danger" onDismiss={() => setFailure(false)}>
          {tc('messages.error')}
        </AlertBar>
      ) : null}
      {rejectedNames.length ? (
        <AlertBar tone="danger" onDismiss={() => dismissRefused(uploads, 'extension')}>
          {t('onRejectFileExtension', { files: rejectedNames.join(', ') })}
        </AlertBar>
      ) : null}
      {missingTarget ? (
        <AlertBar tone="danger" onDismiss={() => dismissRefused(uploads, 'missingTarget')}>
          {t('form_error')}
        </AlertBar>
      ) : null}

      {canUpload ? <UploadZone onFiles={uploads.add} /> : null}
      {uploads.items.length ? (
        <ul className="flex flex-col gap-2" aria-label={t('uploads.label')}>
          {uploads.items
            .filter((i) => !GROUPED_REFUSALS.has(i.snapshot.context.refusal ?? ''))
            .map((item) => (
              <UploadRow key={item.id} item={item} onDismiss={() => uploads.dismiss(item.id)} />
            ))}
        </ul>
      ) : null}

      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <Button variant="secondary" className="self-start" onClick={retry}>
          {t('retry')}
        </Button>
      ) : null}
      {state.kind === 'ready' ? (
        <DocumentList
          documents={state.value}
          ranged={!isAllDates(time)}
          canDelete={canDelete}
          onDownload={download}
          onDelete={remove}
        />
      ) : null}
    </section>
  );
}

/** Refusals told once for all their files (above the rows), not in a row of their own. */
const GROUPED_REFUSALS = new Set(['extension', 'missingTarget']);

/**
 * What is wrong with the file itself: refused here before sending (over 10 MiB, bytes not of
 * its type) or by the storage with the codes that say the same; null for anything else.
 */
function fileProblemOf(item: UploadItem): 'tooLarge' | 'content' | null {
  const { refusal, failure } = item.snapshot.context;
  const problem = refusal ?? refusalOfFailure(failure);
  return problem === 'tooLarge' || problem === 'content' ? problem : null;
}

function dismissRefused(uploads: ReturnType<typeof useDocumentUploads>, refusal: string) {
  for (const item of uploads.items) {
    if (item.snapshot.context.refusal === refusal) uploads.dismiss(item.id);
  }
}

function DocumentList({
  documents,
  ranged,
  canDelete,
  onDownload,
  onDelete,
}: {
  documents: ClaimDocument[];
  /** A time range is chosen: none listed means none in it, not none at all. */
  ranged: boolean;
  canDelete: boolean;
  onDownload: (d: ClaimDocument) => void;
  onDelete: (d: ClaimDocument) => void;
}) {
  const { t } = useTranslation('documents');
  if (!documents.length) {
    return (
      <p className="py-4 text-sm text-slate-700" data-testid="claim-documents-empty">
        {ranged ? t('empty_range') : t('empty')}
      </p>
    );
  }
  // Spec: up to four rows show whole; more scroll inside a list 335 px high.
  const scrolls = documents.length > DOCUMENT_ROWS_WITHOUT_SCROLL;
  return (
    <ul
      aria-label={t('list')}
      data-testid="claim-documents-list"
      className="divide-y divide-slate-200 rounded-md border border-slate-200"
      style={scrolls ? { height: DOCUMENT_LIST_SCROLL_HEIGHT_PX, overflowY: 'auto' } : undefined}
      tabIndex={scrolls ? 0 : undefined}
    >
      {documents.map((document) => (
        <li
          key={document.code}
          className="flex items-center justify-between gap-3 px-3"
          style={{ height: DOCUMENT_ROW_HEIGHT_PX }}
        >
          <div className="min-w-0">
            <button
              type="button"
              className="block max-w-full truncate text-left text-sm font-medium text-sky-800 underline hover:text-sky-950"
              onClick={() => onDownload(document)}
            >
              {document.filename}
            </button>
            <p className="truncate text-xs text-slate-600">
              {[document.description, formatDateTime(document.createdAt)]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </div>
          {canDelete ? (
            <button
              type="button"
              className="rounded p-2 text-slate-600 hover:bg-red-50 hover:text-red-800"
              aria-label={t('delete.label', { filename: document.filename })}
              onClick={() => onDelete(document)}
            >
              <TrashIcon />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function UploadZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { t } = useTranslation('documents');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length) onFiles(files);
  };
  return (
    <div
      data-testid="claim-documents-dropzone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`flex flex-wrap items-center gap-3 rounded-md border-2 border-dashed px-4 py-5 text-sm ${
        over ? 'border-sky-600 bg-sky-50' : 'border-slate-300 bg-white'
      }`}
    >
      <input
        ref={input}
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        className="peer sr-only"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // The same file again later must fire a change too.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      {/* The input is hidden: its keyboard focus shows on the button-like label instead. */}
      <label
        htmlFor={inputId}
        className="cursor-pointer rounded-md peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-700"
      >
        <span className="inline-flex rounded-md bg-sky-700 px-3 py-2 font-medium text-white hover:bg-sky-800">
          {t('upload.button')}
        </span>
      </label>
      <span className="text-slate-700">{t('upload.drop')}</span>
    </div>
  );
}

type UploadState =
  | 'checking'
  | 'inspecting'
  | 'requesting'
  | 'uploading'
  | 'failed'
  | 'done'
  | 'rejected'
  | 'cancelled';

function UploadRow({ item, onDismiss }: { item: UploadItem; onDismiss: () => void }) {
  const { t } = useTranslation('documents');
  const { value, context } = item.snapshot;
  const state = value as UploadState;
  const percent = Math.round(context.progress * 100);
  const problem = fileProblemOf(item);
  const type = contentTypeOfName(item.file.name);
  const problemText =
    problem === 'tooLarge'
      ? t('uploads.errors.too_large', { filename: item.file.name })
      : problem === 'content' && type
        ? t(`uploads.errors.content_${shortContentType(type)}`, { filename: item.file.name })
        : null;
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm">
      <span className="min-w-0 flex-1 truncate font-medium">{item.file.name}</span>
      <progress
        className="h-2 w-40"
        max={100}
        value={percent}
        aria-label={t('uploads.progress', { filename: item.file.name })}
      />
      <span className="w-28 text-slate-700" aria-live="polite">
        {t(`uploads.states.${state}`, { percent })}
      </span>
      {state === 'failed' && !problem ? (
        <Button variant="secondary" onClick={() => item.actor.send({ type: 'upload.retry' })}>
          {t('uploads.retry')}
        </Button>
      ) : null}
      {!isSettled(value) ? (
        <Button variant="secondary" onClick={() => item.actor.send({ type: 'upload.cancel' })}>
          {t('uploads.cancel')}
        </Button>
      ) : (
        <Button variant="secondary" onClick={onDismiss}>
          {t('uploads.dismiss')}
        </Button>
      )}
      {problemText ? (
        <p role="alert" className="basis-full text-red-700" data-testid="upload-problem">
          {problemText}
        </p>
      ) : null}
    </li>
  );
}

const TrashIcon = () => (
  <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
    <path
      fillRule="evenodd"
      d="M8 2a1 1 0 0 0-1 1v1H4a1 1 0 0 0 0 2h.1l.8 10.1A2 2 0 0 0 6.9 18h6.2a2 2 0 0 0 2-1.9L15.9 6h.1a1 1 0 1 0 0-2h-3V3a1 1 0 0 0-1-1H8Zm1 2h2V4H9Zm-1.9 4.1a1 1 0 0 1 1.8-.2l.1.1v6a1 1 0 0 1-2 0V8.1Zm4.8 0a1 1 0 0 1 2 0V14a1 1 0 0 1-2 0V8.1Z"
      clipRule="evenodd"
    />
  </svg>
);
