import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listClaims } from '#client/api/claims-client.ts';
import { listInvoices } from '#client/api/billing-client.ts';
import { listPolicies } from '#client/api/policies-client.ts';
import { renderDocxTemplate, type DocxTemplate } from '#client/api/docx-templates-client.ts';
import { AsyncCombobox, type LoadOptionsPage } from '#client/ui/async-combobox.tsx';
import { saveFile } from '#client/ui/save-file.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { partyName } from '#common/party-name.ts';
import type { DocxEntityType, DocxFormat } from '#common/contracts/docx-template.ts';
import { failureText } from './docx-texts.ts';

/** A record the template can be filled with, whatever its kind. */
interface RecordChoice {
  code: string;
  label: string;
  detail: string;
}

const PAGE_SIZE = 10;

/** Each kind's list, searched as its own list screen searches it, as choices. */
function recordPages(accountIndex: number, entity: DocxEntityType): LoadOptionsPage<RecordChoice> {
  return async (search, pageToken, signal) => {
    const query = { search, pageSize: PAGE_SIZE, ...(pageToken ? { pageToken } : {}) };
    if (entity === 'policy') {
      const page = await listPolicies(accountIndex, { ...query, pageToken }, signal);
      return {
        nextPageToken: page.nextPageToken,
        items: page.items.map((p) => ({
          code: p.code,
          label: p.policyNumber,
          detail: [partyName(p.holder) || p.accountCode, p.productName].filter(Boolean).join(' · '),
        })),
      };
    }
    if (entity === 'claim') {
      const page = await listClaims(accountIndex, query, signal);
      return {
        nextPageToken: page.nextPageToken,
        items: page.items.map((c) => ({ code: c.code, label: c.claimNumber, detail: c.title })),
      };
    }
    const page = await listInvoices(accountIndex, query, signal);
    return {
      nextPageToken: page.nextPageToken,
      items: page.items.map((i) => ({
        code: i.code,
        label: i.invoiceNumber,
        detail: i.policyNumber ?? '',
      })),
    };
  };
}

/**
 * "Fill with a record" (issue 19): a record of the template's kind and DOCX or PDF; the filled
 * file is saved under the name the service gives it. SubmitDialog's statechart runs it (busy
 * while the service fills and prints, the refusal shown with everything kept).
 */
export function DocxFillDialog({
  accountIndex,
  template,
  onClose,
}: {
  accountIndex: number;
  template: DocxTemplate;
  onClose: () => void;
}) {
  const { t } = useTranslation('templates');
  const [record, setRecord] = useState<RecordChoice | null>(null);
  const [format, setFormat] = useState<DocxFormat>('docx');
  const [missing, setMissing] = useState(false);
  const loadPage = useCallback(
    (search: string, pageToken: string | null, signal: AbortSignal) =>
      recordPages(accountIndex, template.entityType)(search, pageToken, signal),
    [accountIndex, template.entityType],
  );

  const submit = () => {
    setMissing(!record);
    if (!record) return false;
    return renderDocxTemplate(accountIndex, template.code, {
      entityType: template.entityType,
      entityId: record.code,
      format,
    }).then(({ blob, filename }) => {
      saveFile(blob, filename ?? `${template.name}-${record.label}.${format}`);
      onClose();
    });
  };

  return (
    <SubmitDialog
      title={t('docx.fill.title', { name: template.name })}
      submitLabel={t('docx.fill.submit')}
      busyLabel={t('docx.fill.busy')}
      cancelLabel={t('create.cancel')}
      submit={submit}
      failureMessage={(error) => failureText(t, error)}
      onCancel={onClose}
    >
      <AsyncCombobox<RecordChoice>
        value={record}
        onChange={setRecord}
        loadPage={loadPage}
        keyOf={(r) => r.code}
        labelOf={(r) => r.label}
        detailOf={(r) => r.detail}
        texts={{
          label: t(`docx.fill.record_${template.entityType}`),
          placeholder: t('docx.fill.placeholder'),
          open: t('docx.fill.open'),
          loading: t('docx.fill.loading'),
          noOptions: t('docx.fill.no_options'),
          loadMore: t('docx.fill.load_more'),
          clear: t('docx.fill.clear'),
          error: t('errors.failed'),
        }}
        name="record"
        required
        error={missing ? t('docx.fill.record_missing') : undefined}
        testId="docx-record-options"
      />
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium text-slate-800">{t('docx.fill.format')}</legend>
        <div className="flex gap-4">
          {(['docx', 'pdf'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-900">
              <input
                type="radio"
                name="format"
                value={value}
                checked={format === value}
                onChange={() => setFormat(value)}
              />
              {t(`docx.fill.format_${value}`)}
            </label>
          ))}
        </div>
      </fieldset>
    </SubmitDialog>
  );
}
